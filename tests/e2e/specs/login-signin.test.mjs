// Signing in on the branded page against the api (demo accounts of `flask seed-demo`, captcha
// not required in e2e): the token is kept for 7 days and only same-site redirects are followed.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DEMO_PASSWORD, apiLogin, contextFor, launch, signInWithForm, siteUrl, storedToken, useToken } from './browser.mjs';

const SEVEN_DAYS_MS = 604_800_000;

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

describe('sign-in', () => {
  test('stores the token for 7 days and follows a same-site redirect', async () => {
    const context = await contextFor(browser, 'localhost', 'en-US');
    const page = await context.newPage();
    await page.goto(siteUrl('localhost', `/user/login?redirect=${encodeURIComponent('/device/list?deviceName=a b')}`));
    const before = Date.now();
    await signInWithForm(page, 'demouser', DEMO_PASSWORD);
    await page.waitForURL((url) => url.pathname === '/device/list');
    assert.equal(new URL(page.url()).searchParams.get('deviceName'), 'a b');
    const token = await storedToken(page);
    assert.ok(typeof token.value === 'string' && token.value.length > 0);
    assert.ok(Math.abs(token.expire - before - SEVEN_DAYS_MS) < 60_000, 'expires in 7 days');
    await context.close();
  });

  test('ignores a redirect to another site after signing in and opens /home', async () => {
    const context = await contextFor(browser, 'localhost', 'en-US');
    const page = await context.newPage();
    await page.goto(siteUrl('localhost', `/user/login?redirect=${encodeURIComponent('//evil.example/x')}`));
    await signInWithForm(page, 'demouser', DEMO_PASSWORD);
    await page.waitForURL((url) => url.pathname === '/home');
    assert.equal(new URL(page.url()).host, `localhost:${new URL(siteUrl('localhost', '/')).port}`);
    await context.close();
  });

  test('a signed-in entry with a redirect lands on a safe page for every open-redirect payload', async () => {
    const context = await contextFor(browser, 'localhost', 'en-US');
    const page = await context.newPage();
    await useToken(page, 'localhost', await apiLogin('localhost', 'demouser'));
    for (const payload of ['//evil.com', '/\\evil.com', 'javascript:alert(document.domain)', 'https://evil.com/home']) {
      await page.goto(siteUrl('localhost', `/device/list?redirect=${encodeURIComponent(payload)}`));
      await page.waitForURL((url) => url.pathname === '/home' && !url.searchParams.has('redirect'));
      assert.equal(new URL(page.url()).origin, new URL(siteUrl('localhost', '/')).origin, payload);
    }
    await page.goto(siteUrl('localhost', `/home?redirect=${encodeURIComponent('/consumer/info')}`));
    await page.waitForURL((url) => url.pathname === '/consumer/info');
    await context.close();
  });

  test('a wrong password shows the server message and stores nothing', async () => {
    const context = await contextFor(browser, 'localhost', 'en-US');
    const page = await context.newPage();
    await page.goto(siteUrl('localhost', '/user/login'));
    await signInWithForm(page, 'demouser', 'not-the-password');
    const notice = page.locator('.ant-message-error');
    await notice.waitFor();
    assert.match(await notice.textContent(), /Incorrect account or password/);
    assert.equal(new URL(page.url()).pathname, '/user/login');
    assert.equal(await storedToken(page), null);
    await context.close();
  });
});
