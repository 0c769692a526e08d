// Issue 26 in the browser: the operator's site settings every visitor sees. While unset, the home
// page shows no cloud-control promotion and the menu no PLC entry; once the operator sets the yearly
// price and the SCADA address, both appear (the price in the page's language and currency format).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { api, apiLogin, collectErrors, contextFor, launch, screenshot, siteUrl, useToken } from './browser.mjs';

let browser;
let operator;
let demo;
let platformId;

async function saveSettings(values) {
  const saved = await api('localhost', 'PUT', '/operation/SystemSetting/save', { token: operator, body: { platformId, ...values } });
  assert.equal(saved.body?.code, 0, JSON.stringify(saved.body));
}

before(async () => {
  browser = await launch();
  operator = await apiLogin('localhost', 'operator');
  demo = await apiLogin('localhost', 'demouser');
  const branding = await api('localhost', 'GET', '/base/BaseCustomPage/queryByTopDomain?topDomain=localhost');
  platformId = branding.body.data.id;
});
after(async () => {
  if (operator && platformId) await saveSettings({ plcUrl: null, calibrationUrl: null, cloudControlYearlyPrice: null });
  await browser?.close();
});

describe('site settings on the home page and in the menu (issue 26)', () => {
  test('the promotion and the PLC entry appear only once the operator set them', async () => {
    const context = await contextFor(browser, 'localhost', 'zh-CN', { width: 1440, height: 900 });
    const page = await context.newPage();
    const errors = collectErrors(page);
    await useToken(page, 'localhost', demo);
    await page.goto(siteUrl('localhost', '/home'));
    await page.getByTestId('home').waitFor();
    assert.equal(await page.getByTestId('home-cloud-control').count(), 0);
    assert.equal(await page.getByTestId('side-menu').getByText('PLC 监控').count(), 0);

    await saveSettings({ plcUrl: 'https://scada.example.com/login', cloudControlYearlyPrice: 299900 });
    await page.reload();
    await page.getByTestId('home-cloud-control-price').getByText('¥2,999.00 / 年').waitFor();
    await page.getByTestId('side-menu').getByText('PLC 监控').waitFor();
    assert.equal(await page.getByTestId('side-menu').getByText('校准服务').count(), 0, 'no calibration address: no entry');
    await screenshot(page, 'home-cloud-control-1440-zh-CN', false);
    // as in device.test.mjs: a 404 of a static resource (the demo's images) is not an error of these pages
    assert.deepEqual(errors.filter((text) => !text.includes('404 (Not Found)')), []);
    await context.close();
  });
});
