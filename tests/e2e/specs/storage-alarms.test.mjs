// Issue 47 in the browser: a storage's "Push setting" tab saved unchanged keeps every level, repeat,
// delay and schedule of every device of the storage (it rewrote them to one level-1 recipient), and the
// storage's alarm record processes an alarm as the device's alarm list does.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { API_PORT, WEB_PORT, api, apiLogin, collectErrors, contextFor, launch, screenshot, selectTab, siteUrl, useToken } from './browser.mjs';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const DATABASE_URL = process.env.E2E_DATABASE_URL || 'postgresql+psycopg://postgres@127.0.0.1:5432/coldchain_e2e';
const REDIS_URL = process.env.E2E_REDIS_URL || 'redis://127.0.0.1:6379/15';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** A new CS-4 cold-room controller issued by the operator CLI: its GUID and device key. */
function issueController() {
  const result = spawnSync(path.join(ROOT, '.venv/bin/flask'), ['--app', 'api', 'issue-guids', '--type-code', '8003', '--num', '1', '--order-code', 'E2EROOM'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL, REDIS_URL, DEVICE_KEY_SECRET: process.env.E2E_DEVICE_KEY_SECRET || 'e2e-device-key-secret' },
    encoding: 'utf8',
  });
  assert.equal(result.status, 0, result.stderr);
  const [guid, key] = result.stdout.trim().split('\n').at(-1).split('\t');
  return { guid, key };
}

async function upload(device, readings) {
  const response = await fetch(`http://127.0.0.1:${API_PORT}/api/device/DeviceData/upload`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Device-Id': device.guid, 'X-Device-Key': device.key, 'X-Forwarded-Host': `localhost:${WEB_PORT}` },
    body: JSON.stringify({ guid: device.guid, records: [{ ts: Date.now(), readings }] }),
  });
  const body = await response.json();
  assert.equal(body.code, 0, JSON.stringify(body));
}

const person = (name) => ({ name, phone: null, email: `${name.toLowerCase()}@example.com`, lang: 'en-US' });
const SETTING = {
  enabled: true,
  multiLevel: true,
  levels: [
    { level: 1, minutes: 0, recipients: [person('Night')] },
    { level: 2, minutes: 10, recipients: [person('Lead')] },
    { level: 3, minutes: 30, recipients: [person('Director')] },
  ],
  channels: ['email'],
  repeatCount: 2,
  intervalMinutes: 15,
  delayMinutes: 3,
  scheduleStart: '07:00',
  scheduleEnd: '22:00',
  urgentKinds: ['offline'],
};
const STORED = ['enabled', 'multiLevel', 'levels', 'channels', 'repeatCount', 'intervalMinutes', 'delayMinutes', 'scheduleStart', 'scheduleEnd', 'urgentKinds'];

async function storedSetting(token, deviceId) {
  const answer = await api('localhost', 'GET', `/alarm/PushSetting/get?deviceId=${deviceId}`, { token });
  assert.equal(answer.body.code, 0, JSON.stringify(answer.body));
  return Object.fromEntries(STORED.map((key) => [key, answer.body.data[key]]));
}

describe('storage alarms and push settings (issue 47)', () => {
  test('the push tab saved unchanged keeps every level; the alarm record processes an alarm', async () => {
    const device = issueController();
    const token = await apiLogin('localhost', 'operator');
    const added = await api('localhost', 'POST', '/device/Device/add', {
      token,
      body: { deviceGuid: device.guid, deviceName: 'E2E Room', timeZone: 'Asia/Shanghai' },
    });
    assert.equal(added.body?.code, 0, JSON.stringify(added.body));
    const deviceId = added.body.data.id;
    await upload(device, { 1: -18, 2: -18, 3: -20, 4: -17, 5: 1, 6: 1, 7: 0, 8: 0, 10: -18, 11: 0 });
    const created = await api('localhost', 'POST', '/storage/ColdStorage/insert', {
      token,
      body: { storageName: 'E2E Cold Room', controllerGuid: device.guid },
    });
    assert.equal(created.body?.code, 0, JSON.stringify(created.body));
    const storageId = created.body.data.id;
    const saved = await api('localhost', 'POST', '/alarm/PushSetting/save', { token, body: { deviceId, ...SETTING } });
    assert.equal(saved.body?.code, 0, JSON.stringify(saved.body));
    const before = await storedSetting(token, deviceId);

    const context = await contextFor(browser, 'localhost', 'en-US');
    const page = await context.newPage();
    const errors = collectErrors(page);
    await useToken(page, 'localhost', token);
    await page.goto(siteUrl('localhost', `/storage/detail/${storageId}`));
    await selectTab(page, 'Push setting');
    const push = page.getByTestId('storage-push');
    await push.getByTestId('push-level-3').waitFor();
    const answered = page.waitForResponse((response) => response.url().includes('/pushSetting/save'));
    await push.getByTestId('push-save').click();
    assert.equal((await (await answered).json()).code, 0);
    assert.deepEqual(await storedSetting(token, deviceId), before, 'saved unchanged: nothing lost');
    await screenshot(page, 'storage-push-setting');

    // An excursion of the middle probe, processed from the storage's alarm record.
    const limits = [{ sensor: 2, upperLimit: -10, lowerLimit: -30 }];
    const limited = await api('localhost', 'POST', '/alarm/SensorLimit/save', { token, body: { deviceId, limits } });
    assert.equal(limited.body?.code, 0, JSON.stringify(limited.body));
    await upload(device, { 1: -18, 2: -4.5, 3: -20, 4: -17, 5: 1, 6: 1, 7: 0, 8: 0, 10: -18, 11: 0 });
    await selectTab(page, 'Alarm record');
    const record = page.getByTestId('storage-alarms');
    await record.getByText('°C').first().waitFor();
    await record.getByTestId('storage-alarm-process').first().click();
    await page.getByTestId('process-form').getByText('Agreed').click();
    await page.getByTestId('process-result').fill('Door closed');
    await page.getByTestId('process-submit').click();
    await record.getByText('Door closed').waitFor();
    await screenshot(page, 'storage-alarm-processed');
    assert.deepEqual(
      errors.filter((e) => !e.includes('Failed to load resource')),
      [],
    );
    await context.close();
  });
});
