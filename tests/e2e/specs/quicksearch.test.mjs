// Issue 15 in the browser: the quick query answers only for a device whose owner turned its
// quick-search flag on (the switch of the device edit form), shows no device name, and a device
// name typed with emoji is saved without them.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { api, apiLogin, collectErrors, contextFor, launch, screenshot, siteUrl, useToken } from './browser.mjs';

let browser;
let token;
const cleanups = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()();
});
before(async () => {
  browser = await launch();
  token = await apiLogin('localhost', 'demouser');
});
after(async () => {
  await browser?.close();
});

async function demoDevice(name) {
  const { body } = await api('localhost', 'POST', '/device/Device/page', { token, body: { start: 1, pageSize: 50 } });
  return body.data.list.find((device) => device.deviceName === name);
}

describe('quick search flag (issue 15)', () => {
  test('the owner turns quick search on in the edit form; only then does the public quick query answer', async () => {
    const fridge = await demoDevice('Pharmacy Fridge');
    assert.equal(fridge.quickSearch, false, 'off in the demo');
    cleanups.push(async () => {
      await api('localhost', 'PUT', '/device/Device/update', { token, body: { deviceId: fridge.id, deviceName: 'Pharmacy Fridge', quickSearch: false } });
    });
    const visitor = await contextFor(browser, 'localhost', 'en-US');
    const lookup = await visitor.newPage();
    await lookup.goto(siteUrl('localhost', `/quick/query?guid=${fridge.deviceGuid}`));
    await lookup.getByTestId('quick-not-found').getByText('The device cannot be found, please confirm and re-enter').waitFor();

    const context = await contextFor(browser, 'localhost', 'en-US');
    const page = await context.newPage();
    const errors = collectErrors(page);
    await useToken(page, 'localhost', token);
    await page.goto(siteUrl('localhost', '/device/list?deviceName=Pharmacy'));
    const row = page.getByTestId('device-table').locator('tr', { hasText: 'Pharmacy Fridge' });
    await row.getByTestId('device-edit').click();
    const form = page.getByTestId('device-form');
    const toggle = form.getByTestId('quick-search-switch');
    assert.equal(await toggle.getAttribute('aria-checked'), 'false');
    await toggle.click();
    await form.locator('#deviceName').fill('Pharmacy Fridge🧊');
    await form.locator('#deviceName').blur();
    assert.equal(await form.locator('#deviceName').inputValue(), 'Pharmacy Fridge', 'emoji cleared in the browser');
    await screenshot(page, 'quick-search-switch-1440');
    await page.locator('.ant-modal').getByRole('button', { name: 'Save' }).click();
    await page.locator('.ant-modal').waitFor({ state: 'hidden' });
    assert.equal((await demoDevice('Pharmacy Fridge')).quickSearch, true);

    await lookup.reload();
    await lookup.getByTestId('quick-values').getByText('Temperature').waitFor();
    assert.equal(await lookup.getByText('Pharmacy Fridge').count(), 0, 'no device name for a visitor');
    // as in device.test.mjs: a 404 of a static resource is not an error of these pages
    assert.deepEqual(errors.filter((text) => !text.includes('404 (Not Found)')), []);
    await context.close();
    await visitor.close();
  });
});
