// Issue 9 in the browser: demouser invites a member by email (an invitation mail), the member
// accepts by registering with that address, demouser gives the member a role without device edit;
// signed in as the member, the edit buttons are disabled and the api refuses the edit. Then demouser
// shares a device for 8 hours and the member finds it on the device list.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { chooseOption, MAILBOX, api, apiLogin, collectErrors, contextFor, launch, screenshot, siteUrl, useToken, waitForCode } from './browser.mjs';

const EMAIL = `member.${Date.now()}@example.com`;
const USER_NAME = `member_${Date.now() % 1_000_000}`;
const PASSWORD = 'Member#2026';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

async function signedIn(userName, password) {
  const context = await contextFor(browser, 'localhost', 'en-US');
  const page = await context.newPage();
  const errors = collectErrors(page);
  await useToken(page, 'localhost', await apiLogin('localhost', userName, password));
  return { context, page, errors: () => errors.filter((text) => !text.includes('404 (Not Found)')) };
}

async function invitationMail(address, since, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const lines = fs.existsSync(MAILBOX) ? fs.readFileSync(MAILBOX, 'utf8').split('\n').filter(Boolean) : [];
    const mail = lines.map((line) => JSON.parse(line)).find((item) => item.to === address && item.at >= since && /invitation=/.test(item.text));
    if (mail) return mail.text;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no invitation mail for ${address}`);
}

/** Pick an option of the antd select (or tree select) labelled `label` inside `scope`. */
function choose(page, scope, label, option) {
  return chooseOption(page, scope.locator('.ant-form-item', { hasText: label }).locator('.ant-select').first(), option, { exact: true });
}

describe('organizations, roles and sharing (issue 9)', () => {
  test('invite by email, accept, a role without device edit, then an 8-hour share', async () => {
    const owner = await signedIn('demouser');
    const { page } = owner;
    await page.goto(siteUrl('localhost', '/consumer/list'));
    await page.getByTestId('members-panel').waitFor();
    const sent = Date.now();
    await page.getByTestId('member-invite').click();
    const drawer = page.locator('.ant-drawer-open .ant-drawer-section');
    await choose(page, drawer, 'Organization', 'Shanghai Warehouse');
    await drawer.locator('#email').fill(EMAIL);
    await drawer.locator('#inviterName').fill('Demo User');
    await screenshot(page, 'organization-invite');
    await page.getByTestId('drawer-submit').click();
    await drawer.waitFor({ state: 'detached' });

    // The invitation arrives; the member accepts it by registering with that address.
    const mail = await invitationMail(EMAIL, sent);
    assert.match(mail, /Shanghai Warehouse/);
    const asked = Date.now();
    await api('localhost', 'GET', `/base/BaseAccount/code/email?email=${encodeURIComponent(EMAIL)}&type=register`);
    const code = await waitForCode(EMAIL, asked);
    const registered = await api('localhost', 'POST', '/base/BaseAccount/register', {
      body: { accountType: 'personal', userName: USER_NAME, email: EMAIL, password: PASSWORD, confirmPassword: PASSWORD, code },
    });
    assert.equal(registered.body.code, 0, JSON.stringify(registered.body));

    // demouser gives the new member the Observer role (no device.list.edit).
    await page.reload();
    const row = page.locator('tr', { hasText: USER_NAME });
    await row.getByTestId('member-edit').click();
    await choose(page, page.locator('.ant-drawer-open .ant-drawer-section'), 'Role', 'Observer');
    await page.getByTestId('drawer-submit').click();
    await row.getByText('Observer').waitFor();

    // demouser shares Vaccine Fridge with the member for 8 hours from the device's detail page.
    const devices = await api('localhost', 'POST', '/device/Device/page', { token: await apiLogin('localhost', 'demouser'), body: { deviceName: 'Vaccine' } });
    const fridge = devices.body.data.list[0];
    await page.goto(siteUrl('localhost', `/device/detail/${fridge.id}`));
    await page.getByTestId('device-share').click();
    const form = page.getByTestId('share-form');
    await form.getByTestId('share-recipient').fill(USER_NAME);
    await form.getByTestId('share-name').fill('Demo User');
    await choose(page, form, 'Permission template', 'Temp only');
    assert.equal(await form.getByLabel('8 hours').isChecked(), true, '8 hours is the default expiry');
    await screenshot(page, 'organization-share');
    await page.locator('.ant-modal').getByRole('button', { name: 'Share' }).click();
    await page.getByText('Shared', { exact: true }).waitFor();
    assert.deepEqual(owner.errors(), []);
    await owner.context.close();

    // The member: the organisation's device with its edit button disabled, the shared device too.
    const member = await signedIn(USER_NAME, PASSWORD);
    await member.page.goto(siteUrl('localhost', '/device/list'));
    const table = member.page.getByTestId('device-table');
    await table.getByText('Cold Room 1').waitFor();
    await table.getByText('Vaccine Fridge').waitFor();
    const roomRow = table.locator('tr', { hasText: 'Cold Room 1' });
    assert.equal(await roomRow.getByTestId('device-edit').isDisabled(), true, 'edit is disabled without device.list.edit');
    assert.equal(await member.page.getByTestId('device-add').count(), 0, 'no add button');
    await table.locator('tr', { hasText: 'Vaccine Fridge' }).getByText('Shared with me').waitFor();
    await screenshot(member.page, 'organization-member-devices');
    const token = await apiLogin('localhost', USER_NAME, PASSWORD);
    const rooms = await api('localhost', 'POST', '/device/Device/page', { token, body: { deviceName: 'Cold Room' } });
    const refused = await api('localhost', 'PUT', '/device/Device/update', { token, body: { deviceId: rooms.body.data.list[0].id, deviceName: 'Renamed' } });
    assert.equal(refused.status, 403);
    assert.deepEqual(member.errors(), []);
    await member.context.close();
  });

  test('the organization, user-centre, project and asset pages at 1440 px and 390 px', async () => {
    const pages = [
      ['/organization/list', 'organization-list', 'Demo Cold Chain HQ'],
      ['/home/organization', 'organization-home', 'Shanghai Warehouse'],
      ['/consumer/info', 'consumer-info', 'demouser'],
      ['/consumer/list', 'members-panel', 'demomember'],
      ['/consumer/role', 'consumer-role', 'Observer'],
      ['/consumer/sharer', 'consumer-sharer', 'Pharmacy Fridge'],
      ['/operation/log', 'operation-log', null],
      ['/project/list', 'project-list', null],
      ['/asset/list', 'asset-list', null],
    ];
    for (const viewport of [{ width: 1440, height: 900 }, { width: 390, height: 844 }]) {
      const context = await contextFor(browser, 'localhost', 'en-US', viewport);
      const page = await context.newPage();
      const errors = collectErrors(page);
      await useToken(page, 'localhost', await apiLogin('localhost', 'demouser'));
      for (const [pathname, testId, text] of pages) {
        await page.goto(siteUrl('localhost', pathname));
        const root = page.getByTestId(testId);
        await root.waitFor();
        if (text) await root.getByText(text).first().waitFor();
        await screenshot(page, `organization${pathname.replaceAll('/', '-')}-${viewport.width}`);
      }
      assert.deepEqual(
        errors.filter((message) => !message.includes('404 (Not Found)')),
        [],
      );
      await context.close();
    }
  });
});
