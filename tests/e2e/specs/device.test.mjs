// Issue 6 in the browser: the demo account's devices on the device list (list, card, board and map
// modes), the add-device form refusing an unknown GUID, a device's detail with its chart switching
// ranges and units, and the public quick query by GUID.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { apiLogin, collectErrors, contextFor, launch, screenshot, siteUrl, useToken } from './browser.mjs';

const DEMO_DEVICES = ['Truck SH-HZ', 'Lab Freezer -80', 'Cold Room 1', 'Vaccine Fridge', 'Pharmacy Fridge'];

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

async function signedIn(viewport) {
  const context = await contextFor(browser, 'localhost', 'en-US', viewport);
  const page = await context.newPage();
  const errors = collectErrors(page);
  await useToken(page, 'localhost', await apiLogin('localhost', 'demouser'));
  return { context, page, errors: () => errors.filter((text) => !text.includes('404 (Not Found)')) };
}

/** Wait until a chart's answer for the current range arrived and ApexCharts drew it. */
async function chartDrawn(page) {
  await page.getByTestId('sensor-chart').locator('.apexcharts-series path').first().waitFor();
}

describe('device list (issue 6)', () => {
  test('demouser sees its 5 devices in every mode, filters by name, and an unknown GUID is refused', async () => {
    const { context, page, errors } = await signedIn();
    await page.goto(siteUrl('localhost', '/device/list'));
    const table = page.getByTestId('device-table');
    await table.getByTestId('device-name').first().waitFor();
    const names = (await table.getByTestId('device-name').allTextContents()).map((name) => name.trim());
    assert.deepEqual([...names].sort(), [...DEMO_DEVICES].sort());
    assert.ok((await table.getByTestId('device-values').count()) >= 5, 'latest values shown');
    await page.getByText('10 pcs/page').waitFor();
    await screenshot(page, 'device-list-1440');

    const mode = page.getByTestId('device-mode');
    await mode.getByText('Card').click();
    await page.getByTestId('device-cards').getByText('Cold Room 1').waitFor();
    await mode.getByText('Board').click();
    await page.getByTestId('device-board').getByText('Cold Room 1').waitFor();
    await mode.getByText('Map').click();
    await page.getByTestId('device-map').getByText('Truck SH-HZ').waitFor();
    await mode.getByText('List').click();

    // The name filter (debounced) narrows the list.
    await page.getByPlaceholder('Device name').fill('Cold Room');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="device-table"] [data-testid="device-name"]').length === 1);

    // The deviceName of the address pre-fills the filter.
    await page.goto(siteUrl('localhost', '/device/list?deviceName=Vaccine'));
    await page.waitForFunction(() => {
      const rows = [...document.querySelectorAll('[data-testid="device-table"] [data-testid="device-name"]')];
      return rows.length === 1 && rows[0].textContent.includes('Vaccine Fridge');
    });

    await page.getByTestId('device-add').click();
    const form = page.getByTestId('device-form');
    await form.locator('#deviceGuid').fill('99999999999999999');
    await form.locator('#deviceName').fill('Nowhere');
    await page.locator('.ant-modal').getByRole('button', { name: 'Save' }).click();
    await form.getByText('The device cannot be found, please confirm and re-enter').waitFor();
    await form.locator('#deviceGuid').fill('12ab');
    await form.getByText('The GUID contains digits only').waitFor();
    assert.deepEqual(errors(), []);
    await context.close();
  });

  test('a device opens with its chart, which switches ranges and units', async () => {
    const { context, page, errors } = await signedIn();
    await page.goto(siteUrl('localhost', '/device/list'));
    await page.getByTestId('device-table').getByText('Cold Room 1').click();
    await page.waitForURL((url) => /^\/device\/detail\/\d+$/.test(url.pathname));
    assert.equal((await page.getByTestId('device-title').textContent()).trim(), 'Cold Room 1');
    await page.getByTestId('realtime').getByText('Probe 1').waitFor();

    await page.getByRole('tab', { name: 'Data chart' }).click();
    await chartDrawn(page);
    await screenshot(page, 'device-detail-1440');
    const chartCall = (match) => page.waitForResponse((response) => response.url().includes('/DeviceData/chart') && match(new URL(response.url())));

    let answer = chartCall(() => true);
    await page.getByTestId('chart-range').getByText('7 days').click();
    const week = await (await answer).json();
    assert.equal(week.code, 0);
    assert.ok(week.data.bucketSeconds > 0, 'seven days come back bucketed (min / max band)');
    await chartDrawn(page);

    answer = chartCall((url) => url.searchParams.get('unit') === 'F');
    await page.getByTestId('chart-unit').getByText('°F').click();
    const fahrenheit = await (await answer).json();
    assert.equal(fahrenheit.data.unit, 'F');
    await chartDrawn(page);

    await page.getByTestId('chart-range').getByText('Half hour').click();
    await chartDrawn(page);
    assert.deepEqual(errors(), []);
    await context.close();
  });
});

describe('quick query (issue 6)', () => {
  test('a GUID from the login page shows the latest values and the last 24 h without signing in', async () => {
    const context = await contextFor(browser, 'localhost', 'en-US');
    const page = await context.newPage();
    const errors = collectErrors(page);
    await page.goto(siteUrl('localhost', '/user/login'));
    await page.getByRole('tab', { name: 'Quick Query' }).click();
    await page.locator('#id').fill('3277100000001');
    await page.locator('#id').press('Enter');
    await page.waitForURL((url) => url.pathname === '/quick/query' && url.searchParams.get('guid') === '3277100000001');
    await page.getByTestId('quick-values').getByText('Probe 1').waitFor();
    await page.getByTestId('sensor-chart').locator('.apexcharts-series path').first().waitFor();
    assert.equal(await page.evaluate(() => localStorage.getItem('Access-Token')), null, 'still signed out');
    await screenshot(page, 'quick-query-1440');

    await page.goto(siteUrl('localhost', '/quick/query?guid=99999999999999999'));
    await page.getByTestId('quick-not-found').waitFor();
    assert.deepEqual(errors.filter((text) => !/status of 4\d\d/.test(text)), []);
    await context.close();
  });
});
