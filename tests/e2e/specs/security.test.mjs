// Issue 10 in the browser: the pages carry their security headers (CSP, frame-ancestors, nosniff,
// referrer policy) and still work under that CSP: antd and styled-components styles apply, the
// chart draws, and the browser reports no CSP violation on the way.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { contextFor, launch, screenshot, signInWithForm, siteUrl } from './browser.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

function violations(page) {
  const found = [];
  page.on('console', (message) => {
    const text = message.text();
    if (/Content Security Policy|Refused to/i.test(text)) found.push(text);
  });
  return found;
}

describe('security headers (issue 10)', () => {
  test('the pages send CSP, frame-ancestors, nosniff and a referrer policy', async () => {
    const context = await contextFor(browser, 'localhost', 'en-US');
    const page = await context.newPage();
    const answer = await page.goto(siteUrl('localhost', '/user/login'));
    const headers = answer.headers();
    assert.match(headers['content-security-policy'], /frame-ancestors 'none'/);
    assert.match(headers['content-security-policy'], /script-src 'self'/);
    assert.equal(headers['x-content-type-options'], 'nosniff');
    assert.equal(headers['x-frame-options'], 'DENY');
    assert.equal(headers['referrer-policy'], 'strict-origin-when-cross-origin');
    const apiAnswer = await page.request.get(siteUrl('localhost', '/api/base/BaseCustomPage/queryByTopDomain?topDomain=localhost'));
    assert.match(apiAnswer.headers()['content-security-policy'], /default-src 'none'/);
    assert.equal(apiAnswer.headers()['x-content-type-options'], 'nosniff');
    await context.close();
  });

  test('under the CSP the console signs in, is styled and draws a chart, with no violation', async () => {
    const context = await contextFor(browser, 'localhost', 'en-US');
    const page = await context.newPage();
    const found = violations(page);
    await page.goto(siteUrl('localhost', '/user/login'));
    // antd's css-in-js styles apply: the primary button has the theme's orange, not the browser's grey.
    const submit = page.getByTestId('login-submit');
    await submit.waitFor();
    const background = await submit.evaluate((element) => getComputedStyle(element).backgroundColor);
    assert.equal(background, 'rgb(236, 108, 0)');
    await signInWithForm(page, 'demouser');
    await page.waitForURL((url) => url.pathname === '/home');
    await page.goto(siteUrl('localhost', '/device/list'));
    await page.getByTestId('device-table').getByText('Cold Room 1').click();
    await page.waitForURL((url) => /^\/device\/detail\/\d+$/.test(url.pathname));
    await page.getByRole('tab', { name: 'Data chart' }).click();
    await page.getByTestId('sensor-chart').locator('.apexcharts-series path').first().waitFor();
    await screenshot(page, 'security-csp-device-detail');
    assert.deepEqual(found, []);
    await context.close();
  });

  test('another site cannot frame the console', async () => {
    const context = await contextFor(browser, 'localhost', 'en-US');
    const page = await context.newPage();
    const found = violations(page);
    await page.setContent(`<iframe id="f" src="${siteUrl('localhost', '/user/login')}"></iframe>`);
    await page.waitForTimeout(1500);
    const framed = page.frames().find((frame) => frame.url().includes('/user/login'));
    const loaded = framed ? await framed.evaluate(() => document.body?.innerText.length ?? 0).catch(() => 0) : 0;
    assert.equal(loaded, 0);
    assert.ok(found.some((text) => /frame-ancestors|X-Frame-Options/i.test(text)) || !framed);
    await context.close();
  });
});
