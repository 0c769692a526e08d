// Issue 47, the business side's whole jobs as their users do them, through the pages, in zh-CN at
// 1440 px and en-US at 390 px, with readings fed over MQTT as loggers send them (see journeys.test.mjs
// for the warehouse's and the dispatcher's).
// The buyer: a logger whose service is about to expire; the warning after sign-in leads to it, its
// top-up tab to the shop, a year is bought and paid with WeChat Pay (the local fake scans the QR code
// and notifies the api), the new expiry shows, and a reading sent after paying shows on the device.
// The reseller: the operator creates a branded site on the customization page; its admin signs in on
// that site, sees the site's title and colour, adds a logger issued for the site by its GUID, and the
// logger's readings show on the site's device list.
// The operator: issues GUIDs on the back-office form, finds one in the batch's GUID list, and once a
// customer added a logger with it and the logger sent a reading, finds it online in the fleet view.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';
import {
  API_PORT,
  ARTIFACTS,
  api,
  apiLogin,
  chooseOption,
  closeMobileMenu,
  collectErrors,
  contextFor,
  launch,
  screenshot,
  selectOf,
  selectTab,
  signInWithForm,
  siteUrl,
  waitForCode,
} from './browser.mjs';
import { startPaymentFakes } from './payments.mjs';
import { issueGuid, publishReadings, setServiceExpiry } from './fleet.mjs';
import { label, text } from './journey.mjs';

// WeChat Pay; Alipay and PayPal on the next two. Not billing.test.mjs's +700: with the api on 5300 that
// is 6000, a port fetch and Chromium refuse (the fetch standard's bad ports).
const FAKE_PORT = Number(API_PORT) + 720;
const SETTINGS = [
  { lang: 'zh-CN', viewport: { width: 1440, height: 900 }, tag: 'zh' },
  { lang: 'en-US', viewport: { width: 390, height: 844 }, tag: 'en' },
];
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const NOT_FOUND = (item) => !item.includes('404 (Not Found)');

const isPhone = (page) => page.viewportSize().width < 576;

/**
 * Open a tab of a tab bar: on a phone the bar may have scrolled the tab out of sight, then it is
 * taken from the bar's "more" menu, as the user does.
 */
async function openTab(page, name) {
  const scope = page.getByTestId('device-detail');
  const tab = scope.getByRole('tab', { name, exact: true });
  await tab.waitFor({ state: 'attached' });
  // In sight when inside its bar's visible part (a scrolled bar translates its tabs out of it).
  const inSight = await tab.evaluate((element) => {
    const wrap = element.closest('.ant-tabs-nav-wrap')?.getBoundingClientRect();
    const box = element.getBoundingClientRect();
    return !wrap || (box.left >= wrap.left - 1 && box.right <= wrap.right + 1);
  });
  if (inSight) return selectTab(page, name);
  const selected = scope.locator('[role="tab"][aria-selected="true"]', { hasText: name });
  for (let attempt = 0; attempt < 5; attempt += 1) {
    await scope.locator('.ant-tabs-nav-more').first().click();
    const item = page.locator('.ant-tabs-dropdown:not(.ant-tabs-dropdown-hidden) .ant-tabs-dropdown-menu-item', { hasText: name }).first();
    if (await item.waitFor({ timeout: 3_000 }).then(() => true, () => false)) {
      await page.waitForTimeout(300); // the menu's opening motion
      await item.click().catch(() => undefined);
    }
    if (await selected.waitFor({ timeout: 2_000 }).then(() => true, () => false)) return;
  }
  throw new Error(`the tab "${name}" was never selected`);
}

/** The row (desktop) or card (phone) of a list that mentions `what`. */
function entryOf(list, what) {
  return list.locator('tr, [data-testid="list-card"]', { hasText: what }).first();
}

/** Wait until the list `testId` shows rows (cards on a phone), each of them mentioning `what`. */
async function listedOnly(page, testId, what) {
  await page.waitForFunction(
    ([id, needle]) => {
      const list = document.querySelector(`[data-testid="${id}"]`);
      const rows = [...(list?.querySelectorAll('tr.ant-table-row, [data-testid="list-card"]') ?? [])];
      return rows.length > 0 && rows.every((row) => row.textContent.includes(needle));
    },
    [testId, what],
    { timeout: 15_000 },
  );
}

/** Wait for `locator`, reloading the page (the lists refresh by themselves only every 30 s). */
async function waitReloading(page, locator, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await locator.waitFor({ timeout: 8_000 }).then(() => true, () => false)) return;
    await page.reload();
    await closeMobileMenu(page);
  }
  await locator.waitFor({ timeout: 1_000 });
}

/** Sign in with the form on `host`; the phone's menu drawer closed afterwards. */
async function signIn(page, host, userName, password) {
  await page.goto(siteUrl(host, '/user/login'));
  await signInWithForm(page, userName, password);
  await page.waitForURL((url) => !url.pathname.startsWith('/user/login'), { waitUntil: 'commit' });
  await page.getByTestId('side-menu').first().waitFor({ state: 'attached', timeout: 15_000 }).catch(() => undefined);
  // A phone opens on the menu drawer: wait for it, then close it.
  if (isPhone(page)) await page.locator('.ant-drawer-open [data-testid="side-menu"]').waitFor({ timeout: 5_000 }).catch(() => undefined);
  await closeMobileMenu(page);
}

async function deleteDevice(host, token, guid) {
  const { body } = await api(host, 'POST', '/device/Device/page', { token, body: { start: 1, pageSize: 100 } });
  const found = body?.data?.list.find((row) => row.deviceGuid === guid);
  if (found) await api(host, 'POST', '/device/Device/batch', { token, body: { action: 'delete', deviceIds: [found.id] } });
}

let browser;
let fakes;
const cleanups = [];
before(async () => {
  fakes = await startPaymentFakes(FAKE_PORT);
  browser = await launch();
});
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()();
});
after(async () => {
  await browser?.close();
  fakes?.kill();
});

describe('business journeys (issue 47)', () => {
  for (const { lang, viewport, tag } of SETTINGS) {
    test(`the buyer: an expiring logger, a year bought and paid with WeChat Pay, the new expiry, a reading after paying (${lang}, ${viewport.width} px)`, async () => {
      const name = `Buyer ${tag} ${viewport.width}`;
      const token = await apiLogin('localhost', 'demouser');
      // A logger of the buyer's whose service ends in 12 days.
      const guid = issueGuid('8002');
      cleanups.push(() => deleteDevice('localhost', token, guid));
      const added = await api('localhost', 'POST', '/device/Device/add', { token, body: { deviceGuid: guid, deviceName: name, timeZone: 'Asia/Shanghai' } });
      assert.equal(added.body?.code, 0, JSON.stringify(added.body));
      const deviceId = added.body.data.id;
      const previous = setServiceExpiry({ [name]: 12 });
      cleanups.push(async () => setServiceExpiry(previous));

      const context = await contextFor(browser, 'localhost', lang, viewport);
      const page = await context.newPage();
      const errors = collectErrors(page);
      await signIn(page, 'localhost', 'demouser');

      // The warning after sign-in names the logger; its name opens the device list filtered by it.
      const modal = page.locator('.ant-modal', { hasText: text(lang, 'device', 'expired.title') });
      await modal.waitFor({ timeout: 20_000 });
      const warned = modal.getByTestId('expired-device').filter({ hasText: name });
      await warned.waitFor();
      await screenshot(page, `journey-buyer-warning-${lang}-${viewport.width}`, false);
      await warned.click();
      await page.waitForURL((url) => url.pathname === '/device/list' && url.searchParams.get('deviceName') === name);
      await closeMobileMenu(page);
      const list = page.getByTestId('device-list');
      const entry = entryOf(list, name);
      await entry.waitFor();
      const before = await api('localhost', 'GET', `/device/Device/detail/${deviceId}`, { token });
      const expiredBefore = new Date(before.body.data.serviceExpiredDate);
      let shownBefore = null;
      if (!isPhone(page)) {
        // At 1440 px the list shows the service expiry (a phone's cards leave it to the top-up tab).
        shownBefore = (await entry.locator('td').filter({ hasText: /^\d{4}-\d{2}-\d{2}$/ }).first().textContent()).trim();
      }

      // The device's top-up tab leads to the shop with the device chosen.
      await entry.getByTestId('device-name').click();
      await page.waitForURL((url) => url.pathname === `/device/detail/${deviceId}`);
      await closeMobileMenu(page);
      await openTab(page, text(lang, 'device', 'tabs.topUp'));
      await page.getByTestId('device-topup').getByRole('button', { name: text(lang, 'billing', 'topUp.renew') }).click();
      await page.waitForURL((url) => url.pathname === '/consumer/recharge' && url.searchParams.get('deviceIds') === String(deviceId));
      await closeMobileMenu(page);

      // A year (the demo package's Basic level, 220.00), paid with WeChat Pay: the payer scans the QR code.
      await page.waitForFunction(() => Number(document.querySelector('[data-testid="buy-price"]')?.getAttribute('data-cents')) > 0);
      assert.match(await page.getByTestId('buy-price').textContent(), /220\.00/);
      await page.getByTestId('buy-submit').click();
      const qr = page.getByTestId('wechat-qr');
      await qr.waitFor();
      assert.match(await qr.getAttribute('data-code-url'), /^weixin:\/\/wxpay\/bizpayurl\?pr=/);
      await screenshot(page, `journey-buyer-qr-${lang}-${viewport.width}`);
      const scanned = await fetch(`http://127.0.0.1:${FAKE_PORT}/fake/scan/${await qr.getAttribute('data-order-code')}`);
      assert.equal(scanned.status, 200);
      await page.getByTestId('pay-success').first().waitFor({ timeout: 20_000 });
      const paid = await api('localhost', 'GET', `/device/Device/detail/${deviceId}`, { token });
      const expected = new Date(expiredBefore);
      expected.setUTCFullYear(expected.getUTCFullYear() + 1);
      assert.equal(new Date(paid.body.data.serviceExpiredDate).toISOString(), expected.toISOString());
      await page.keyboard.press('Escape');

      // The new expiry, where the user sees it: a year later, the same day.
      const aYearOn = (shown) => `${Number(shown.slice(0, 4)) + 1}${shown.slice(4, 10)}`;
      if (shownBefore) {
        await page.goto(siteUrl('localhost', `/device/list?deviceName=${encodeURIComponent(name)}`));
        await entry.locator('td', { hasText: aYearOn(shownBefore) }).first().waitFor();
      } else {
        await page.goto(siteUrl('localhost', `/device/detail/${deviceId}`));
        await closeMobileMenu(page);
        await openTab(page, text(lang, 'device', 'tabs.topUp'));
        await page.getByTestId('device-topup').getByText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/).first().waitFor();
        const shownAfter = (await page.getByTestId('device-topup').getByText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/).first().textContent()).trim();
        // Shown in the account's zone: within a day of the new expiry.
        const gap = Math.abs(new Date(`${shownAfter.replace(' ', 'T')}:00Z`).getTime() - expected.getTime());
        assert.ok(gap < 86_400_000, `the top-up tab shows the new expiry ${expected.toISOString()}: ${shownAfter}`);
        await page.goto(siteUrl('localhost', `/device/list?deviceName=${encodeURIComponent(name)}`));
        await closeMobileMenu(page);
      }
      await screenshot(page, `journey-buyer-renewed-${lang}-${viewport.width}`);

      // After paying, the logger's reading arrives over MQTT and shows on the device list.
      publishReadings(guid, [{ ts: Date.now(), readings: { 1: 3.7, 2: 48 }, battery: 88 }]);
      await waitReloading(page, entry.getByTestId('device-values').getByText(/3\.7\s*°C/).first());
      await screenshot(page, `journey-buyer-reading-${lang}-${viewport.width}`);

      assert.deepEqual(errors.filter(NOT_FOUND), []);
      await context.close();
    });
  }

  for (const { lang, viewport, tag } of SETTINGS) {
    const site = {
      host: `jb-${tag}.localhost`,
      slug: `jb-${tag}`,
      title: lang === 'zh-CN' ? '捷博冷链' : 'JB Cold Chain',
      colour: tag === 'zh' ? '#1a7f5a' : '#7a3eb1',
      rgb: tag === 'zh' ? 'rgb(26, 127, 90)' : 'rgb(122, 62, 177)',
      admin: `jbadmin${tag}`,
      password: 'Jbsite#2026',
    };
    test(`the reseller: the operator creates ${site.host}, its admin signs in to its branding, adds a logger by GUID and sees its readings (${lang}, ${viewport.width} px)`, async () => {
      const email = `${site.admin}@example.com`;
      const operatorToken = await apiLogin('localhost', 'operator');
      cleanups.push(async () => {
        // The site goes with its admin and devices; one that holds records is switched off instead.
        const { body } = await api('localhost', 'POST', '/base/BaseCustomPage/get/page', { token: operatorToken, body: { start: 1, pageSize: 100 } });
        const created = body?.data?.list?.find((row) => (row.domains ?? []).includes(site.host) || row.topDomain === site.host);
        if (!created) return;
        const removed = await api('localhost', 'DELETE', `/base/BaseCustomPage/delete?id=${created.id}`, { token: operatorToken });
        if (removed.status !== 200) await api('localhost', 'PUT', '/base/BaseCustomPage/close', { token: operatorToken, body: { id: created.id, closed: true } });
      });

      // The operator creates the site on the customization page.
      const operator = await contextFor(browser, 'localhost', lang, viewport);
      const page = await operator.newPage();
      const errors = collectErrors(page);
      await signIn(page, 'localhost', 'operator');
      await page.goto(siteUrl('localhost', '/customized/list'));
      await closeMobileMenu(page);
      await page.getByTestId('custom-page-add').click();
      await page.locator('#customPage_enterpriseName').fill('JB Cold Chain Ltd.');
      await page.locator('#customPage_titleZh').fill('捷博冷链');
      await page.locator('#customPage_titleEn').fill('JB Cold Chain');
      await page.locator('#customPage_topDomain').fill(site.host);
      await page.locator('#customPage_https').click(); // local site: plain http
      await page.locator('#customPage_themeColor').fill(site.colour);
      await chooseOption(page, selectOf(page, '#customPage_styleModel'), lang === 'zh-CN' ? '骏佳' : 'Junjia');
      const logo = path.join(ARTIFACTS, 'jb-logo.png');
      fs.mkdirSync(ARTIFACTS, { recursive: true });
      fs.writeFileSync(logo, PNG);
      for (const field of ['loginLogo', 'indexLogo', 'browserLogo']) {
        await page.getByTestId(`${field}-field`).locator('input[type=file]').setInputFiles(logo);
        await page.getByTestId(`${field}-image`).waitFor();
      }
      await page.locator('#customPage_adminUserName').fill(site.admin);
      await page.locator('#customPage_adminEmail').fill(email);
      assert.equal((await page.getByTestId('preview-title').textContent()).trim(), site.title);
      await page.getByTestId('custom-page-save').click();
      await page.getByTestId(`domain-${site.slug}`).waitFor();
      await screenshot(page, `journey-reseller-created-${lang}-${viewport.width}`);
      assert.deepEqual(errors.filter(NOT_FOUND), []);
      await operator.close();

      // The admin sets a password with the code the site mails (the recovery page's calls).
      const asked = Date.now();
      const sent = await api(site.host, 'GET', `/base/BaseAccount/code/email?email=${encodeURIComponent(email)}&type=forgot`);
      assert.equal(sent.body?.code, 0, JSON.stringify(sent.body));
      const code = await waitForCode(email, asked);
      const reset = await api(site.host, 'POST', '/base/BaseAccount/forgot', { body: { email, code, password: site.password, confirmPassword: site.password } });
      assert.equal(reset.body?.code, 0, JSON.stringify(reset.body));

      // The site answers with its branding; the admin signs in there.
      const reseller = await contextFor(browser, site.host, lang, viewport);
      const login = await reseller.newPage();
      const siteErrors = collectErrors(login);
      await login.goto(siteUrl(site.host, '/user/login'));
      assert.equal((await login.locator('h1').first().textContent()).trim(), site.title);
      assert.equal(await login.getByTestId('login-submit').evaluate((el) => getComputedStyle(el).backgroundColor), site.rgb);
      await screenshot(login, `journey-reseller-login-${lang}-${viewport.width}`);
      await signInWithForm(login, site.admin, site.password);
      await login.waitForURL((url) => url.pathname === '/device/list', { waitUntil: 'commit' });
      await login.getByTestId('device-list').waitFor();
      await closeMobileMenu(login);
      await login.waitForFunction((title) => document.title.startsWith(title), site.title);

      // A logger issued for the site, added by its GUID.
      const guid = issueGuid('8002', site.slug);
      const name = `JB Fridge ${tag}`;
      cleanups.push(async () => deleteDevice(site.host, await apiLogin(site.host, site.admin, site.password), guid));
      await login.getByTestId('device-add').click();
      const form = login.getByTestId('device-form');
      await form.locator('#deviceGuid').fill(guid);
      await form.locator('#deviceName').fill(name);
      const addCall = login.waitForResponse((response) => response.url().includes('/api/device/Device/add'));
      await login.locator('.ant-modal').getByRole('button', { name: label(text(lang, 'device', 'action.save')) }).click();
      const addAnswer = await (await addCall).json();
      assert.equal(addAnswer.code, 0, JSON.stringify(addAnswer));
      const entry = entryOf(login.getByTestId('device-list'), name);
      await entry.waitFor();

      // Its readings arrive over MQTT and show on the site's device list.
      publishReadings(guid, [{ ts: Date.now(), readings: { 1: 4.6, 2: 52 }, battery: 95 }]);
      await waitReloading(login, entry.getByTestId('device-values').getByText(/4\.6\s*°C/).first());
      await screenshot(login, `journey-reseller-devices-${lang}-${viewport.width}`);
      assert.deepEqual(siteErrors.filter(NOT_FOUND), []);
      await reseller.close();
    });
  }

  for (const { lang, viewport, tag } of SETTINGS) {
    test(`the operator: GUIDs issued on the back-office form, one found in its batch, online in the fleet view once added and reporting (${lang}, ${viewport.width} px)`, async () => {
      const order = `JB-${tag.toUpperCase()}-${Date.now() % 100_000}`;
      const context = await contextFor(browser, 'localhost', lang, viewport);
      const page = await context.newPage();
      const errors = collectErrors(page);
      await signIn(page, 'localhost', 'operator');

      // Three GUIDs of the demo's 0x8002 model, on the issuing form.
      await page.goto(siteUrl('localhost', '/operation/device/guid/content'));
      await closeMobileMenu(page);
      const batches = page.getByTestId('guid-batch-list');
      await batches.waitFor();
      await page.getByTestId('guid-issue').click();
      const drawer = page.locator('.ant-drawer-open .ant-drawer-section');
      await drawer.locator('#orderCode').fill(order);
      await drawer.locator('#num').fill('3');
      await chooseOption(page, drawer.locator('.ant-form-item', { hasText: text(lang, 'product', 'field.deviceType') }).locator('.ant-select').first(), '(0x8002)');
      const issued = page.waitForResponse((response) => response.url().includes('/GuidBatch/insert'));
      await page.getByTestId('drawer-submit').click();
      const issueAnswer = await (await issued).json();
      assert.equal(issueAnswer.code, 0, JSON.stringify(issueAnswer));
      await drawer.waitFor({ state: 'detached' });

      // The batch, found by its order number; its GUIDs under it.
      await batches.getByPlaceholder(text(lang, 'product', 'field.orderCode')).fill(order);
      await listedOnly(page, 'guid-batch-list', order);
      const batch = entryOf(batches, order);
      await batch.locator('.ant-table-row-expand-icon, [data-testid="list-card-expand"]').first().click();
      await page.locator('.issued-guid').nth(2).waitFor();
      const guids = (await page.locator('.issued-guid').allTextContents()).map((guid) => guid.trim());
      assert.equal(guids.length, 3, JSON.stringify(guids));
      const guid = guids[1];
      await screenshot(page, `journey-operator-guids-${lang}-${viewport.width}`);

      // A customer adds a logger with one of them; it reports over MQTT.
      const customer = await apiLogin('localhost', 'demouser');
      cleanups.push(() => deleteDevice('localhost', customer, guid));
      const added = await api('localhost', 'POST', '/device/Device/add', { token: customer, body: { deviceGuid: guid, deviceName: `Fleet ${tag}`, timeZone: 'Asia/Shanghai' } });
      assert.equal(added.body?.code, 0, JSON.stringify(added.body));
      publishReadings(guid, [{ ts: Date.now(), readings: { 1: 5.2, 2: 50 }, battery: 90 }]);

      // The operator finds it online in the fleet view.
      await page.goto(siteUrl('localhost', '/operation/device/list'));
      await closeMobileMenu(page);
      const fleet = page.getByTestId('fleet-device-list');
      await fleet.waitFor();
      const online = entryOf(fleet, guid).getByText(text(lang, 'device', 'status.online'), { exact: true });
      const deadline = Date.now() + 60_000;
      for (;;) {
        await page.getByPlaceholder(text(lang, 'product', 'fleet.keyword')).fill(guid);
        await listedOnly(page, 'fleet-device-list', guid); // the keyword found it, and only it
        if (await online.waitFor({ timeout: 8_000 }).then(() => true, () => false)) break;
        if (Date.now() > deadline) await online.waitFor({ timeout: 1_000 });
        await page.reload();
        await closeMobileMenu(page);
      }
      await entryOf(fleet, guid).getByText(`Fleet ${tag}`).waitFor();
      await screenshot(page, `journey-operator-fleet-${lang}-${viewport.width}`);
      assert.deepEqual(errors.filter(NOT_FOUND), []);
      await context.close();
    });
  }
});
