// Issue 47, whole jobs as their users do them, through the pages, in zh-CN at 1440 px and en-US at
// 390 px, with readings fed over MQTT as loggers send them. The warehouse QA lead: signs in, adds a
// new logger by its GUID, sets its limits and who is told, watches its first reading arrive, sees the
// excursion on the message list and in the mailbox, gets the "back in range" notice, processes the
// alarm with a result and finds it processed on the device. What the user reads is checked in the
// page's own language (the texts come from the web's locale files, the mails from the api's).
// The dispatcher: creates a waybill for the truck with an alarm contact, starts it, the truck drives
// and warms up (over MQTT), the contact is told during the trip, the dispatcher follows the trip on
// its page and completes it; the contact then gets the trip report.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { api, apiLogin, chooseOption, closeMobileMenu, collectErrors, contextFor, launch, screenshot, selectOf, selectTab, signInWithForm, siteUrl } from './browser.mjs';
import { issueGuid, publishReadings } from './fleet.mjs';
import { label, text, waitForMail } from './journey.mjs';

const TRUCK = 'Truck SH-HZ';

const SETTINGS = [
  { lang: 'zh-CN', viewport: { width: 1440, height: 900 }, name: 'QA 冷柜 1440', mail: 'qa.lead.zh@example.com' },
  { lang: 'en-US', viewport: { width: 390, height: 844 }, name: 'QA Fridge 390', mail: 'qa.lead.en@example.com' },
];
// What the api's mails say (api/alarm/texts.py and its zh_Hans_CN catalogue).
const BACK_IN_RANGE = { 'zh-CN': '已恢复正常', 'en-US': 'Back in range' };

let browser;
let operatorToken;
const cleanups = [];
before(async () => {
  browser = await launch();
  operatorToken = await apiLogin('localhost', 'operator');
});
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()();
});
after(async () => {
  await browser?.close();
});

describe('journeys (issue 47)', () => {
  for (const setting of SETTINGS) {
    const { lang, viewport, name, mail } = setting;
    test(`the warehouse QA lead: a new logger, its limits, an excursion over MQTT, the notices, the alarm processed (${lang}, ${viewport.width} px)`, async () => {
      const since = Date.now();
      const context = await contextFor(browser, 'localhost', lang, viewport);
      const page = await context.newPage();
      const errors = collectErrors(page);

      // Sign in with the form, as the user does.
      await page.goto(siteUrl('localhost', '/user/login'));
      await signInWithForm(page, 'operator');
      await page.waitForURL((url) => !url.pathname.startsWith('/user/login'));
      await closeMobileMenu(page);

      // Add the logger the operator issued, by its GUID.
      const guid = issueGuid('8002');
      cleanups.push(async () => {
        const { body } = await api('localhost', 'POST', '/device/Device/page', { token: operatorToken, body: { start: 1, pageSize: 100 } });
        const added = body.data.list.find((row) => row.deviceGuid === guid);
        if (added) await api('localhost', 'POST', '/device/Device/batch', { token: operatorToken, body: { action: 'delete', deviceIds: [added.id] } });
      });
      await page.goto(siteUrl('localhost', '/device/list'));
      await closeMobileMenu(page);
      await page.getByTestId('device-add').click();
      const form = page.getByTestId('device-form');
      await form.locator('#deviceGuid').fill(guid);
      await form.locator('#deviceName').fill(name);
      const addCall = page.waitForResponse((response) => response.url().includes('/api/device/Device/add'), { timeout: 15_000 }).catch((error) => error);
      await page.locator('.ant-modal').getByRole('button', { name: label(text(lang, 'device', 'action.save')) }).click();
      const added = await addCall;
      if (added instanceof Error) {
        await screenshot(page, `journey-qa-lead-add-${lang}-${viewport.width}`);
        const shown = await form.locator('.ant-form-item-explain-error').allTextContents();
        throw new Error(`the add form sent nothing (errors shown: ${JSON.stringify(shown)}): ${added.message}`);
      }
      const addAnswer = await added.json();
      assert.equal(addAnswer.code, 0, JSON.stringify(addAnswer));
      const deviceId = addAnswer.data.id;
      await page.getByTestId('device-table').getByText(name).first().waitFor();

      // Its limits and who is told, on the device's notification tab.
      await page.goto(siteUrl('localhost', `/device/detail/${deviceId}`));
      await closeMobileMenu(page);
      await selectTab(page, text(lang, 'device', 'tabs.push'));
      const limits = page.getByTestId('limits-card');
      await limits.getByTestId('limit-upper-1').fill('8');
      await limits.getByTestId('limit-lower-1').fill('2');
      const limitsSaved = page.waitForResponse((response) => response.url().includes('/api/alarm/SensorLimit/save'));
      await limits.getByTestId('limits-save').click();
      assert.equal((await (await limitsSaved).json()).code, 0);
      const push = page.getByTestId('push-card');
      await push.getByTestId('push-enabled').click();
      await push.getByTestId('push-channels').getByText(text(lang, 'alarm', 'channel.email')).click();
      await push.getByTestId('recipient-name-1-1').fill('QA lead');
      await push.getByTestId('recipient-email-1-1').fill(mail);
      const pushSaved = page.waitForResponse((response) => response.url().includes('/api/alarm/PushSetting/save'));
      await push.getByTestId('push-save').click();
      const pushAnswer = await (await pushSaved).json();
      assert.equal(pushAnswer.code, 0, JSON.stringify(pushAnswer));

      // The first reading arrives over MQTT and shows on the device, with its unit.
      publishReadings(guid, [{ ts: Date.now(), readings: { 1: 5.0, 2: 55 }, battery: 90 }]);
      // The device opens on its real-time tab (on a phone the tab bar has scrolled past it).
      await page.goto(siteUrl('localhost', `/device/detail/${deviceId}`));
      await closeMobileMenu(page);
      await page.getByTestId('realtime').getByText(/5\.0\s*°C/).first().waitFor({ timeout: 30_000 });

      // An excursion: the message list shows it by itself, and the QA lead's mail names the logger.
      await page.goto(siteUrl('localhost', '/message/list'));
      await closeMobileMenu(page);
      await page.getByTestId('message-list').waitFor();
      publishReadings(guid, [{ ts: Date.now(), readings: { 1: 14.5, 2: 55 }, battery: 90 }]);
      const entry = page.getByTestId('message-list').locator('tr, [data-testid="list-card"]', { hasText: name }).first();
      await entry.waitFor({ timeout: 30_000 });
      await entry.getByText(/14\.5\s*°C/).first().waitFor();
      const alarmMail = await waitForMail(mail, since, (item) => item.text.includes(name));
      assert.match(alarmMail.text, /14\.5\s*°C/, 'the alarm mail carries the value with its unit');
      await screenshot(page, `journey-qa-lead-alarm-${lang}-${viewport.width}`);

      // Back in range: the notice says so.
      publishReadings(guid, [{ ts: Date.now(), readings: { 1: 6.0, 2: 55 }, battery: 90 }]);
      const backMail = await waitForMail(mail, since, (item) => item.subject.includes(BACK_IN_RANGE[lang]));
      assert.ok(backMail.text.includes(name), backMail.text);

      // Processed with a result, then found processed on the device's alarm tab.
      await entry.locator('.ant-checkbox-input').check();
      await page.getByTestId('message-batch-process').click();
      await page.getByTestId('process-form').getByText(text(lang, 'alarm', 'state.agreed')).click();
      await page.getByTestId('process-result').fill('Door closed, product checked');
      await page.getByTestId('process-submit').click();
      await entry.getByTestId('message-state').filter({ hasText: text(lang, 'alarm', 'state.agreed') }).waitFor();
      await page.goto(siteUrl('localhost', `/device/detail/${deviceId}`));
      await closeMobileMenu(page);
      await selectTab(page, text(lang, 'device', 'tabs.alarm'));
      await page.getByTestId('alarm-history').getByText(text(lang, 'alarm', 'state.agreed')).first().waitFor();
      await screenshot(page, `journey-qa-lead-done-${lang}-${viewport.width}`);

      assert.deepEqual(
        errors.filter((item) => !item.includes('404 (Not Found)')),
        [],
      );
      await context.close();
    });
  }

  for (const [index, setting] of SETTINGS.entries()) {
    const { lang, viewport } = setting;
    const contact = `dispatch.${lang.toLowerCase()}@example.com`;
    const goods = `Vaccine lot ${index + 1}`;
    test(`the dispatcher: a waybill with an alarm contact, told during the trip, completed, its report mailed (${lang}, ${viewport.width} px)`, async () => {
      const since = Date.now();
      const context = await contextFor(browser, 'localhost', lang, viewport);
      const page = await context.newPage();
      const errors = collectErrors(page);
      await page.goto(siteUrl('localhost', '/user/login'));
      await signInWithForm(page, 'demouser');
      await page.waitForURL((url) => !url.pathname.startsWith('/user/login'));
      const token = await apiLogin('localhost', 'demouser');
      const { body: devices } = await api('localhost', 'POST', '/device/Device/page', { token, body: { start: 1, pageSize: 50 } });
      const truck = devices.data.list.find((device) => device.deviceName === TRUCK);

      // The waybill, with whom to tell of alarms on the way.
      await page.goto(siteUrl('localhost', '/waybill/list'));
      await closeMobileMenu(page);
      await page.getByTestId('waybill-add').click();
      await page.locator('#orderNum').fill(`PO-JOURNEY-${index + 1}`);
      await page.locator('#goodsName').fill(goods);
      await page.locator('#expressNumber').fill(`SFJOURNEY${index + 1}`);
      await page.locator('#deviceId').click();
      await page.locator('#deviceId').fill('Truck');
      await chooseOption(page, selectOf(page, '#deviceId'), TRUCK);
      await page.locator('#senderName').fill('Li Wei');
      await page.locator('#senderPhone').fill('13800138000');
      await page.locator('#receiverName').fill('Zhang Min');
      await page.locator('#receiverPhone').fill('13900139000');
      await page.locator('#ignoreMinutes').fill('0');
      await page.locator('#alarmName').fill('Receiving QA');
      await page.locator('#alarmEmail').fill(contact);
      const created = page.waitForResponse((response) => response.url().includes('/api/waybill/Waybill/insert'));
      await page.getByRole('button', { name: label(text(lang, 'waybill', 'action.save')) }).click();
      assert.equal((await (await created).json()).code, 0);
      const entry = page.getByTestId('waybill-table').locator('tr, [data-testid="list-card"]', { hasText: goods }).first();
      await entry.waitFor();

      // Started: the truck drives east from the depot, and its load warms past the waybill's 8 °C.
      await entry.getByTestId('waybill-start').click();
      const offline = page.locator('.ant-modal-confirm .ant-btn-primary');
      if (await offline.isVisible({ timeout: 1500 }).catch(() => false)) await offline.click();
      await entry.getByText(text(lang, 'waybill', 'state.in_progress')).waitFor();
      const start = Date.now();
      publishReadings(truck.deviceGuid, [0, 0.01, 0.02].map((east, step) => ({ ts: start + step * 1000, readings: { 1: 4.5 }, location: { lat: 31.2304, lng: 121.4737 + east } })));
      publishReadings(truck.deviceGuid, [{ ts: Date.now(), readings: { 1: 12.5 }, location: { lat: 31.2304, lng: 121.5037 } }]);
      const told = await waitForMail(contact, since, (item) => item.text.includes(TRUCK) && /12\.5\s*°C/.test(item.text));
      assert.ok(told.subject, 'the contact was told during the trip');

      // The dispatcher follows the trip: it moved, and its alarm is on the waybill.
      await entry.getByTestId('waybill-open').click();
      await page.getByTestId('waybill-status').waitFor();
      const distance = await page.getByTestId('waybill-distance').textContent();
      assert.match(distance, /\d+(\.\d)? ?(m|km|米|公里)/);
      await selectTab(page, text(lang, 'waybill', 'tab.alarm'));
      await page.getByTestId('waybill-alarms').getByText(/12\.5\s*°C/).first().waitFor({ timeout: 30_000 });
      await screenshot(page, `journey-dispatcher-trip-${lang}-${viewport.width}`);
      await page.keyboard.press('Escape');

      // Completed: its report goes to the contact.
      await entry.getByTestId('waybill-stop').click();
      await page.locator('.ant-popover:not(.ant-popover-hidden) .ant-btn-primary').click();
      await entry.getByText(text(lang, 'waybill', 'state.completed')).waitFor();
      const report = await waitForMail(contact, since, (item) => (item.attachments ?? []).length > 0, 90_000);
      assert.ok(report.attachments.some((file) => /\.pdf$/i.test(file.filename ?? file.name ?? '')), JSON.stringify(report.attachments));

      assert.deepEqual(
        errors.filter((item) => !item.includes('404 (Not Found)')),
        [],
      );
      await context.close();
    });
  }
});
