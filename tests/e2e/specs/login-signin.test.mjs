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
  test('social sign-in with the demo WeChat app: cancel, bind once to an account, then sign in directly (zh-CN)', async () => {
    const leave = async (page) => {
      await page.goto(siteUrl('localhost', '/user/login'));
      await page.waitForLoadState('networkidle'); // hydrated: the button's click handler is attached
      await page.getByTestId('social-wechat').click();
      await page.waitForURL((url) => url.pathname === '/authorize'); // the provider's own page
    };
    const context = await contextFor(browser, 'localhost', 'zh-CN');
    const page = await context.newPage();
    await leave(page);
    await page.locator('#cancel').click();
    await page.waitForURL((url) => url.pathname === '/user/login-result');
    await page.getByRole('link', { name: '返回登录' }).or(page.getByRole('button', { name: '返回登录' })).first().waitFor();
    await leave(page);
    await page.locator('#allow').click();
    await page.waitForURL((url) => url.pathname === '/user/login-result');
    await page.locator('input[autocomplete="username"]').fill('demouser');
    await page.locator('input[autocomplete="current-password"]').fill(DEMO_PASSWORD);
    await page.locator('button[type="submit"]').click();
    await page.waitForURL((url) => url.pathname === '/home');
    assert.ok((await storedToken(page)).value);
    await context.close();

    const again = await contextFor(browser, 'localhost', 'zh-CN');
    const second = await again.newPage();
    await leave(second);
    await second.locator('#allow').click();
    await second.waitForURL((url) => url.pathname === '/home'); // bound: no question asked
    assert.ok((await storedToken(second)).value);
    await again.close();
  });

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
