// Issue 48 in the browser: data that knows its calibration. The demo's Cold Room 1 gets an outside
// lab's certificate that fell due yesterday: the device detail's Calibration tab says since when its
// probe is overdue, a new certificate is added through the tab's form, and the data chart shades the
// overdue span. English, 1440 px; the certificates added are deleted afterwards.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { api, apiLogin, collectErrors, contextFor, launch, screenshot, selectTab, siteUrl, useToken } from './browser.mjs';

let browser;
let token;
const added = [];
before(async () => {
  browser = await launch();
  token = await apiLogin('localhost', 'demouser');
});
after(async () => {
  for (const id of added) await api('localhost', 'DELETE', `/calibration/ProbeCertificate/delete/${id}`, { token });
  await browser?.close();
});

const day = (offset) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

describe('probe calibration', () => {
  test('the Calibration tab lists an overdue probe, adds a certificate, and the chart shades the overdue span', async () => {
    const { body: devices } = await api('localhost', 'POST', '/device/Device/page', { token, body: { start: 1, pageSize: 50 } });
    const room = devices.data.list.find((device) => device.deviceName === 'Cold Room 1');
    const certificate = {
      deviceId: room.id,
      sensors: [1],
      number: 'EXT-E2E-1',
      issuer: 'Outside Lab',
      calibratedAt: day(-400),
      dueAt: day(-1),
      points: [{ reference: 0, measured: 0.2 }],
    };
    const { body } = await api('localhost', 'POST', '/calibration/ProbeCertificate/add', { token, body: certificate });
    assert.equal(body.code, 0, JSON.stringify(body));
    added.push(body.data.id);

    const context = await contextFor(browser, 'localhost', 'en-US');
    const page = await context.newPage();
    const errors = collectErrors(page);
    await useToken(page, 'localhost', token);
    await page.goto(siteUrl('localhost', `/device/detail/${room.id}`));
    await page.getByTestId('realtime').waitFor();
    await selectTab(page, 'Calibration');
    const probe = page.getByTestId('probe-calibration-1');
    await probe.getByText('EXT-E2E-1').waitFor();
    await probe.getByText(/Overdue since \d{4}-\d\d-\d\d/).waitFor();

    // An outside lab's new certificate through the form.
    await page.getByTestId('probe-certificate-add').click();
    const form = page.getByTestId('probe-certificate-form');
    await form.getByTestId('probe-certificate-number').fill('EXT-E2E-2');
    await form.getByLabel('Issued by').fill('Outside Lab');
    await form.getByLabel('Calibrated on').fill(day(0));
    await form.getByLabel('Calibrated on').press('Enter');
    await form.getByLabel('Due date').fill(day(363));
    await form.getByLabel('Due date').press('Enter');
    await page.locator('.ant-modal-footer').getByRole('button', { name: 'Save' }).click();
    await probe.getByText('EXT-E2E-2').waitFor();
    const { body: listed } = await api('localhost', 'GET', `/calibration/ProbeCertificate/list?deviceId=${room.id}`, { token });
    const mine = listed.data.probes.find((p) => p.sensor === 1).certificates.find((c) => c.number === 'EXT-E2E-2');
    added.push(mine.id);
    await screenshot(page, 'device-calibration-1440');

    // The chart of the last 7 days shades the span the probe was overdue (from yesterday, its due date, to today, its next calibration).
    // Anew: the tab bar scrolled to its last tab keeps the first ones out of view.
    await page.goto(siteUrl('localhost', `/device/detail/${room.id}`));
    await page.getByTestId('realtime').waitFor();
    await selectTab(page, 'Data chart');
    await page.getByTestId('chart-range').getByText('7 days').click();
    await page.getByTestId('sensor-chart').locator('.apexcharts-series path').first().waitFor();
    await page.getByTestId('sensor-chart').getByText('Calibration overdue').first().waitFor();
    assert.deepEqual(errors.filter((text) => !text.includes('404 (Not Found)')), []);
    await context.close();
  });
});
