// Issue 22 in the browser: the operator creates a device model with a parameter, tests and releases
// it, issues 5 GUIDs and downloads them (an export record appears); demouser adds one of them as a
// device and sees the new parameter in its detail.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { chooseOption, api, apiLogin, collectErrors, contextFor, launch, screenshot, siteUrl, useToken } from './browser.mjs';

const STAMP = Date.now() % 100_000;
// A type code of its own per run: hex 0x9000-0xFFFF (GUID prefixes stay within 7 decimal digits).
const TYPE_CODE = (0x9000 + (STAMP % 0x6fff)).toString(16).toUpperCase();
const TYPE_NAME = `E2E Model ${STAMP}`;
const PARAM_NAME = `Vaccine probe ${STAMP}`;
const ORDER = `E2E-${STAMP}`;

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

async function signedIn(userName) {
  const context = await contextFor(browser, 'localhost', 'en-US');
  const page = await context.newPage();
  const errors = collectErrors(page);
  const token = await apiLogin('localhost', userName);
  await useToken(page, 'localhost', token);
  return { context, page, token, errors: () => errors.filter((text) => !text.includes('404 (Not Found)')) };
}

/** Pick an option of the antd select (or tree select) labelled `label` inside `scope`. */
function choose(page, scope, label, option) {
  return chooseOption(page, scope.locator('.ant-form-item', { hasText: label }).locator('.ant-select').first(), option, { exact: true });
}

async function confirm(page, row, action) {
  await row.getByRole('button', { name: action, exact: true }).click();
  await page.locator('.ant-popover:not(.ant-popover-hidden)').getByRole('button', { name: 'OK' }).click();
}

describe('product management and GUIDs (issue 22)', () => {
  test('a new model with a parameter is released, its GUIDs issued, and a user adds one', async () => {
    const operator = await signedIn('operator');
    const { page } = operator;
    const typeLabel = `${TYPE_NAME} (0x${TYPE_CODE})`;

    // Device model: created "to be tested"; a bad code is refused on the field first.
    await page.goto(siteUrl('localhost', '/operation/device/type'));
    await page.getByTestId('device-type-list').waitFor();
    await page.getByTestId('device-type-add').click();
    const drawer = page.locator('.ant-drawer-open .ant-drawer-section');
    await drawer.locator('#typeName').fill(TYPE_NAME);
    await drawer.locator('#typeCode').fill('7FFF');
    await choose(page, drawer, 'Series', 'TH'); // a series of the series page (the demo's types' series)
    await drawer.locator('#netType').fill('4G');
    await page.getByTestId('model-code-add').click();
    await drawer.locator('#models_0_modelName').fill('E2E Standard');
    await drawer.locator('#models_0_modelCode').fill('0001');
    await page.getByTestId('drawer-submit').click();
    await drawer.locator('.ant-form-item-explain-error', { hasText: 'At least 0x8000.' }).waitFor();
    await drawer.locator('#typeCode').fill(TYPE_CODE);
    await screenshot(page, 'product-type-form');
    await page.getByTestId('drawer-submit').click();
    await drawer.waitFor({ state: 'detached' });
    const typeRow = page.locator('tr', { hasText: TYPE_NAME });
    await page.getByTestId('device-type-list').getByPlaceholder('Keyword').fill(TYPE_NAME);
    await typeRow.getByText('To be tested').waitFor();
    await confirm(page, typeRow, 'Test');
    await typeRow.getByText('Testing').waitFor();

    // A parameter of the new model.
    await page.goto(siteUrl('localhost', '/operation/device/param'));
    await page.getByTestId('device-param-list').waitFor();
    const typeSelect = page.getByTestId('device-param-list').locator('.ant-select').first();
    await typeSelect.locator('.ant-select-content, .ant-select-selection-item').filter({ hasText: 'TL-1' }).first().waitFor();
    await chooseOption(page, typeSelect, typeLabel, { exact: true });
    await typeSelect.getByText(typeLabel).first().waitFor();
    await page.getByTestId('device-param-list').locator('.ant-empty').first().waitFor();
    await page.getByTestId('device-param-add').click();
    const paramDrawer = page.locator('.ant-drawer-open .ant-drawer-section');
    await paramDrawer.locator('#paramName').fill(PARAM_NAME);
    await paramDrawer.locator('#paramKey').fill('0001');
    await paramDrawer.locator('#probeId').fill('1');
    await choose(page, paramDrawer, 'Unit', '°C (celsius)');
    await page.getByTestId('drawer-submit').click();
    await paramDrawer.waitFor({ state: 'detached' });
    await page.locator('tr', { hasText: PARAM_NAME }).waitFor();

    // Release: published.
    await page.goto(siteUrl('localhost', '/operation/device/type'));
    await page.getByTestId('device-type-list').getByPlaceholder('Keyword').fill(TYPE_NAME);
    await confirm(page, typeRow, 'Release');
    await typeRow.getByText('Published').waitFor();

    // Five GUIDs of it, then a CSV download that the export records list.
    await page.goto(siteUrl('localhost', '/operation/device/guid/content'));
    await page.getByTestId('guid-issue').click();
    const guidDrawer = page.locator('.ant-drawer-open .ant-drawer-section');
    await guidDrawer.locator('#orderCode').fill(ORDER);
    await guidDrawer.locator('#num').fill('5');
    await choose(page, guidDrawer, 'Device model', typeLabel);
    await page.getByTestId('drawer-submit').click();
    await guidDrawer.waitFor({ state: 'detached' });
    const batchRow = page.locator('tr', { hasText: ORDER });
    await batchRow.locator('.ant-table-row-expand-icon').click();
    await page.locator('.issued-guid').nth(4).waitFor();
    const guids = await page.locator('.issued-guid').allTextContents();
    assert.equal(guids.length, 5);
    const download = page.waitForEvent('download');
    await batchRow.getByRole('button', { name: 'CSV' }).click();
    assert.match((await download).suggestedFilename(), /\.csv$/);
    await page.goto(siteUrl('localhost', '/operation/device/guid/record'));
    await page.locator('tr', { hasText: ORDER }).getByText('operator').waitFor();
    // The refused type code answers 422 on purpose.
    assert.deepEqual(operator.errors().filter((text) => !text.includes('422')), []);

    // demouser adds one of them and sees the new parameter in the detail.
    const user = await signedIn('demouser');
    await user.page.goto(siteUrl('localhost', '/device/list'));
    await user.page.getByTestId('device-add').click();
    const form = user.page.getByTestId('device-form');
    await form.locator('#deviceGuid').fill(guids[0]);
    await form.locator('#deviceName').fill(`E2E ${STAMP}`);
    await user.page.locator('.ant-modal').getByRole('button', { name: 'Save' }).click();
    await user.page.getByTestId('device-table').getByText(`E2E ${STAMP}`).waitFor();
    const { body } = await api('localhost', 'POST', '/device/Device/page', { token: user.token, body: { start: 1, pageSize: 50, deviceName: `E2E ${STAMP}` } });
    const device = body.data.list.find((row) => row.deviceGuid === guids[0]);
    try {
      await user.page.goto(siteUrl('localhost', `/device/detail/${device.id}`));
      await user.page.getByTestId('realtime').getByText(PARAM_NAME).waitFor();
      await screenshot(user.page, 'product-device-detail');
      assert.deepEqual(user.errors(), []);
    } finally {
      await api('localhost', 'POST', '/device/Device/batch', { token: user.token, body: { action: 'delete', deviceIds: [device.id] } });
    }
  });

  test('SIM cards: register one, bind it to a device, find it; a message template feeds an alarm rule', async () => {
    const operator = await signedIn('operator');
    const { page } = operator;
    const iccId = `8986049${String(STAMP).padStart(13, '0')}`;
    const { body } = await api('localhost', 'POST', '/device/Device/page', { token: await apiLogin('localhost', 'demouser'), body: { start: 1, pageSize: 50 } });
    const guid = body.data.list.find((row) => row.deviceName === 'Truck SH-HZ').deviceGuid;

    await page.goto(siteUrl('localhost', '/operation/sim/list'));
    await page.getByTestId('sim-card-list').waitFor();
    await page.getByTestId('sim-add').click();
    const drawer = page.locator('.ant-drawer-open .ant-drawer-section');
    await drawer.locator('#cardNum').fill('1486ab');
    await drawer.locator('#iccId').fill(iccId);
    await page.getByTestId('drawer-submit').click();
    await drawer.locator('.ant-form-item-explain-error', { hasText: 'Digits only' }).waitFor();
    await drawer.locator('#cardNum').fill(String(148600000000000 + STAMP));
    await drawer.locator('#operator').fill('China Mobile');
    await page.getByTestId('drawer-submit').click();
    await drawer.waitFor({ state: 'detached' });
    const row = page.locator('tr', { hasText: iccId });
    await row.getByText('Unused').waitFor();
    await row.getByRole('button', { name: 'Bind device', exact: true }).click();
    const bind = page.locator('.ant-drawer-open .ant-drawer-section');
    await bind.locator('#deviceGuid').fill(guid);
    await page.getByTestId('drawer-submit').click();
    await bind.waitFor({ state: 'detached' });
    await row.getByText('In use').waitFor();
    await row.getByText(guid).waitFor();
    await screenshot(page, 'product-sim-list');

    // A message template, then an alarm rule of the TL-1 that uses it.
    const name = `Tpl ${STAMP}`;
    await page.goto(siteUrl('localhost', '/operation/device/message/temlate'));
    await page.getByTestId('template-add').click();
    const tpl = page.locator('.ant-drawer-open .ant-drawer-section');
    await tpl.locator('#msgName').fill(name);
    await tpl.locator('#en').fill('High temperature');
    await page.getByTestId('drawer-submit').click();
    await tpl.locator('.ant-form-item-explain-error', { hasText: 'placeholder' }).waitFor();
    await tpl.locator('#en').fill('{device}: {value} above {limit}');
    await page.getByTestId('drawer-submit').click();
    await tpl.waitFor({ state: 'detached' });
    await page.locator('tr', { hasText: name }).waitFor();

    await page.goto(siteUrl('localhost', '/operation/device/alarm'));
    await page.getByTestId('rule-add').click();
    const rule = page.locator('.ant-drawer-open .ant-drawer-section');
    await choose(page, rule, 'Device model', 'XT-9 Vaccine Logger'); // the demo model in testing: no fleet to disturb
    await choose(page, rule, 'Alarm kind', 'Above the upper limit');
    await rule.locator('#ruleName').fill(`Hot ${STAMP}`);
    await choose(page, rule, 'Message template', `${name} (sms)`);
    await page.getByTestId('drawer-submit').click();
    await rule.waitFor({ state: 'detached' });
    await page.locator('tr', { hasText: `Hot ${STAMP}` }).getByText(name).waitFor();
    assert.deepEqual(operator.errors().filter((text) => !text.includes('422')), []);
  });

  test('data API: a key for demouser reads demouser\'s devices only and stops working once revoked', async () => {
    const operator = await signedIn('operator');
    const { page } = operator;
    const name = `ERP ${STAMP}`;
    await page.goto(siteUrl('localhost', '/operation/dataApi'));
    await page.getByTestId('data-api-list').waitFor();
    await page.getByTestId('data-api-add').click();
    const drawer = page.locator('.ant-drawer-open .ant-drawer-section');
    const account = drawer.locator('.ant-form-item', { hasText: 'Account' }).locator('.ant-select');
    await account.click();
    await page.keyboard.type('demouser');
    const option = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').getByTitle(/^demouser/).first();
    await option.waitFor();
    await page.waitForTimeout(300);
    await option.click();
    await drawer.locator('#name').fill(name);
    await page.getByTestId('drawer-submit').click();
    const secret = (await page.getByTestId('data-api-secret').textContent()).trim();
    assert.match(secret, /^cc_/);
    await page.keyboard.press('Escape');

    const read = async () => {
      const response = await fetch(siteUrl('localhost', '/api/open/v1/devices/latest?pageSize=50'), { headers: { 'X-Api-Key': secret } });
      return { status: response.status, body: await response.json().catch(() => null) };
    };
    const first = await read();
    assert.equal(first.status, 200);
    const names = first.body.data.list.map((device) => device.deviceName);
    assert.ok(names.includes('Vaccine Fridge'), names.join(', '));
    const { body } = await api('localhost', 'POST', '/device/Device/page', { token: await apiLogin('localhost', 'demouser'), body: { start: 1, pageSize: 50 } });
    const visible = new Set(body.data.list.map((d) => d.deviceGuid));
    assert.ok(first.body.data.list.every((d) => visible.has(d.deviceGuid)), 'the key reads only devices demouser sees');

    const row = page.locator('tr', { hasText: name });
    await row.getByText('Active').waitFor();
    await row.getByRole('button', { name: 'Revoke', exact: true }).click();
    await page.locator('.ant-popover:not(.ant-popover-hidden)').getByRole('button', { name: 'OK' }).click();
    await row.getByText('Revoked').waitFor();
    assert.equal((await read()).status, 401);
    assert.deepEqual(operator.errors(), []);
  });
});
