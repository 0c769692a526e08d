// Signing in on the branded page against the api (demo accounts of `flask seed-demo`, captcha
// not required in e2e): the token is kept for 7 days and only same-site redirects are followed.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { contextFor, launch, siteUrl } from './browser.mjs';

const DEMO = { userName: 'demouser', password: 'Cold#2026' }; // published demo login (api/cli.py)
const SEVEN_DAYS_MS = 604_800_000;

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

async function signIn(page, password) {
  await page.getByPlaceholder('User name / phone / email').fill(DEMO.userName);
  await page.getByPlaceholder('Password').fill(password);
  await page.getByPlaceholder('Image code').fill('0000');
  await page.getByTestId('login-submit').click();
}

const storedToken = (page) => page.evaluate(() => JSON.parse(localStorage.getItem('Access-Token') ?? 'null'));

describe('sign-in', () => {
  test('stores the token for 7 days and follows a same-site redirect', async () => {
    const context = await contextFor(browser, 'localhost', 'en-US');
    const page = await context.newPage();
    await page.goto(siteUrl('localhost', `/user/login?redirect=${encodeURIComponent('/device/list?deviceName=a b')}`));
    const before = Date.now();
    await signIn(page, DEMO.password);
    await page.waitForURL((url) => url.pathname === '/device/list');
    assert.equal(new URL(page.url()).searchParams.get('deviceName'), 'a b');
    const token = await storedToken(page);
    assert.ok(typeof token.value === 'string' && token.value.length > 0);
    assert.ok(Math.abs(token.expire - before - SEVEN_DAYS_MS) < 60_000, 'expires in 7 days');
    await context.close();
  });

  test('ignores a redirect to another site and opens /home', async () => {
    const context = await contextFor(browser, 'localhost', 'en-US');
    const page = await context.newPage();
    await page.goto(siteUrl('localhost', `/user/login?redirect=${encodeURIComponent('//evil.example/x')}`));
    await signIn(page, DEMO.password);
    await page.waitForURL((url) => url.pathname === '/home');
    assert.equal(new URL(page.url()).host, `localhost:${new URL(siteUrl('localhost', '/')).port}`);
    await context.close();
  });

  test('a wrong password shows the server message and stores nothing', async () => {
    const context = await contextFor(browser, 'localhost', 'en-US');
    const page = await context.newPage();
    await page.goto(siteUrl('localhost', '/user/login'));
    await signIn(page, 'not-the-password');
    const notice = page.locator('.ant-message-error');
    await notice.waitFor();
    assert.match(await notice.textContent(), /Incorrect account or password/);
    assert.equal(new URL(page.url()).pathname, '/user/login');
    assert.equal(await storedToken(page), null);
    await context.close();
  });
});
