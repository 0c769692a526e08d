// Issue 48 in the browser: an alarm's email carries a signed acknowledgement link; opened from the mail
// sink, the public page /alarm/ack shows the alarm and an Acknowledge button; acknowledging records it
// (by the email address, via the link) and the page then shows it acknowledged; a forged link gets the
// localized "not valid" message.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { api, apiLogin, collectErrors, contextFor, launch, screenshot, siteUrl } from './browser.mjs';
import { issueGuid, uploadNow } from './fleet.mjs';
import { waitForMail } from './journey.mjs';

const RECIPIENT = 'ack.recipient@example.com';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

describe('alarm acknowledgement by the email link (issue 48)', () => {
  test('the link from the mail opens the page, acknowledges the alarm and shows it acknowledged', async () => {
    const since = Date.now();
    const guid = issueGuid('8002'); // a TH-2 logger
    const token = await apiLogin('localhost', 'operator');
    const added = await api('localhost', 'POST', '/device/Device/add', {
      token,
      body: { deviceGuid: guid, deviceName: 'E2E Ack Fridge', timeZone: 'Asia/Shanghai' },
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
    await uploadNow(guid, { 1: 5.0, 2: 55 });
    await uploadNow(guid, { 1: 14.5, 2: 55 });

    const mail = await waitForMail(RECIPIENT, since, () => true);
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
