// Issue 48 in the browser: an alarm's email carries a signed acknowledgement link; opened from the mail
// sink, the public page /alarm/ack shows the alarm and an Acknowledge button; acknowledging records it
// (by the email address, via the link) and the page then shows it acknowledged; a forged link gets the
// localized "not valid" message.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { API_PORT, MAILBOX, WEB_PORT, api, apiLogin, collectErrors, contextFor, launch, screenshot, siteUrl } from './browser.mjs';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const DATABASE_URL = process.env.E2E_DATABASE_URL || 'postgresql+psycopg://postgres@127.0.0.1:5432/coldchain_e2e';
const REDIS_URL = process.env.E2E_REDIS_URL || 'redis://127.0.0.1:6379/15';
const RECIPIENT = 'ack.recipient@example.com';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

function issueDevice() {
  const result = spawnSync(path.join(ROOT, '.venv/bin/flask'), ['--app', 'api', 'issue-guids', '--type-code', '8002', '--num', '1', '--order-code', 'E2EACK'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL, REDIS_URL, DEVICE_KEY_SECRET: process.env.E2E_DEVICE_KEY_SECRET || `e2e-device-key-secret-${WEB_PORT}` },
    encoding: 'utf8',
  });
  assert.equal(result.status, 0, result.stderr);
  const [guid, key] = result.stdout.trim().split('\n').at(-1).split('\t');
  return { guid, key };
}

async function upload(device, temperature) {
  const response = await fetch(`http://127.0.0.1:${API_PORT}/api/device/DeviceData/upload`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Device-Id': device.guid, 'X-Device-Key': device.key, 'X-Forwarded-Host': `localhost:${WEB_PORT}` },
    body: JSON.stringify({ guid: device.guid, records: [{ ts: Date.now(), readings: { 1: temperature, 2: 55 }, battery: 90 }] }),
  });
  const body = await response.json();
  assert.equal(body.code, 0, JSON.stringify(body));
}

async function mailTo(address, since, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const lines = fs.existsSync(MAILBOX) ? fs.readFileSync(MAILBOX, 'utf8').split('\n').filter(Boolean) : [];
    const mail = lines.map((line) => JSON.parse(line)).find((m) => m.to === address && m.at >= since);
    if (mail) return mail;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no mail to ${address}`);
}

describe('alarm acknowledgement by the email link (issue 48)', () => {
  test('the link from the mail opens the page, acknowledges the alarm and shows it acknowledged', async () => {
    const since = Date.now();
    const device = issueDevice();
    const token = await apiLogin('localhost', 'operator');
    const added = await api('localhost', 'POST', '/device/Device/add', {
      token,
      body: { deviceGuid: device.guid, deviceName: 'E2E Ack Fridge', timeZone: 'Asia/Shanghai' },
    });
    assert.equal(added.body?.code, 0, JSON.stringify(added.body));
    const deviceId = added.body.data.id;
    const limits = await api('localhost', 'POST', '/alarm/SensorLimit/save', {
      token,
      body: { deviceId, limits: [{ sensor: 1, upperLimit: 8, lowerLimit: 2 }] },
    });
    assert.equal(limits.body?.code, 0, JSON.stringify(limits.body));
    const push = await api('localhost', 'POST', '/alarm/PushSetting/save', {
      token,
      body: {
        deviceId,
        channels: ['email'],
        repeatUntilAck: true,
        levels: [{ level: 1, minutes: 0, recipients: [{ name: 'Ack', email: RECIPIENT, lang: 'en-US' }] }],
      },
    });
    assert.equal(push.body?.code, 0, JSON.stringify(push.body));
    await upload(device, 5.0);
    await upload(device, 14.5);

    const mail = await mailTo(RECIPIENT, since);
    const link = mail.text.match(/https?:\/\/\S+\/alarm\/ack\?code=\S+/);
    assert.ok(link, mail.text);
    const url = new URL(link[0]);

    const context = await contextFor(browser, 'localhost', 'en-US');
    const page = await context.newPage();
    const errors = collectErrors(page);
    await page.goto(siteUrl('localhost', `${url.pathname}${url.search}`));
    const card = page.getByTestId('alarm-ack-page');
    await card.getByText('E2E Ack Fridge').waitFor();
    await card.getByText('Above the upper limit').waitFor();
    await screenshot(page, 'alarm-ack-link');
    const confirmed = page.waitForResponse((response) => response.url().includes('/api/alarm/AlarmAck/confirm'));
    await card.getByTestId('alarm-ack-confirm').click();
    assert.equal((await (await confirmed).json()).code, 0);
    await card.getByTestId('alarm-ack-done').filter({ hasText: RECIPIENT }).waitFor();

    // A used link: the page shows the alarm acknowledged, no button.
    await page.reload();
    await card.getByTestId('alarm-ack-done').waitFor();
    assert.equal(await card.getByTestId('alarm-ack-confirm').count(), 0);
    const status = await api('localhost', 'GET', `/alarm/Alarm/deviceStatus?deviceId=${deviceId}`, { token });
    const [alarm] = status.body.data.open;
    assert.equal(alarm.ackVia, 'email');
    assert.equal(alarm.ackBy, RECIPIENT);

    // A forged link: the localized message.
    await page.goto(siteUrl('localhost', '/alarm/ack?code=forged.token.value'));
    await page.getByTestId('alarm-ack-problem').getByText('This acknowledgement link is not valid.').waitFor();
    assert.deepEqual(
      errors.filter((text) => !text.includes('404 (Not Found)') && !text.includes('403 (FORBIDDEN)') && !text.includes('status of 403')),
      [],
    );
    await context.close();
  });
});
