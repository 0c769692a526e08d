// The branded sign-in page per host and language: title, theme colour, language of the server
// render, and screenshots in tests/e2e/artifacts/<host>-<lang>.png.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { WEB_PORT, contextFor, launch, screenshot, siteUrl } from './browser.mjs';

const SITES = [
  {
    host: 'localhost',
    colour: 'rgb(236, 108, 0)', // #ec6c00
    titles: { 'zh-CN': '冷迹云监测平台 - 登录', 'en-US': 'ColdTrace Monitoring - Sign In' },
    headings: { 'zh-CN': '冷迹云监测平台', 'en-US': 'ColdTrace Monitoring' },
    register: true,
  },
  {
    host: 'junjia.localhost',
    colour: 'rgb(15, 138, 95)', // #0f8a5f
    titles: { 'zh-CN': '骏佳冷链监控 - 登录', 'en-US': 'Junjia Cold Chain - Sign In' },
    headings: { 'zh-CN': '骏佳冷链监控', 'en-US': 'Junjia Cold Chain' },
    register: false, // enableRegister: the register route leads back to sign-in, so no link
  },
];
const TABS = { 'zh-CN': ['账号登录', '邮箱登录', '快捷查询'], 'en-US': ['Sign In', 'Email Sign In', 'Quick Query'] };

/** The raw server render (no JavaScript), as a given Host with a given language cookie. */
function serverRender(host, pathname, lang) {
  return new Promise((resolve, reject) => {
    const request = http.get(
      { host: '127.0.0.1', port: WEB_PORT, path: pathname, headers: { Host: `${host}:${WEB_PORT}`, Cookie: lang ? `lang=${lang}` : '' } },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode, body }));
      },
    );
    request.on('error', reject);
  });
}

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

describe('branded sign-in page', () => {
  for (const site of SITES) {
    for (const lang of ['zh-CN', 'en-US']) {
      test(`${site.host} in ${lang}`, async () => {
        const context = await contextFor(browser, site.host, lang);
        const page = await context.newPage();
        const errors = [];
        page.on('pageerror', (error) => errors.push(error.message));
        page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
        const response = await page.goto(siteUrl(site.host, '/user/login'), { waitUntil: 'networkidle' });
        assert.equal(response.status(), 200);
        assert.equal(new URL(page.url()).pathname, '/user/login', 'no locale prefix in the path');

        assert.equal(await page.title(), site.titles[lang]);
        assert.equal(await page.getAttribute('html', 'lang'), lang);
        assert.equal((await page.locator('h1').textContent()).trim(), site.headings[lang]);
        assert.deepEqual(
          (await page.getByRole('tab').allTextContents()).map((text) => text.trim()),
          TABS[lang],
        );

        const submit = page.getByTestId('login-submit');
        assert.equal(await submit.evaluate((el) => getComputedStyle(el).backgroundColor), site.colour);
        const activeTab = page.locator('.ant-tabs-tab-active .ant-tabs-tab-btn');
        // The ink bar and colour animate in: wait for the settled colour.
        await page.waitForFunction(
          ([selector, colour]) => getComputedStyle(document.querySelector(selector)).color.replace(/^rgba\((\d+), (\d+), (\d+), 1\)$/, 'rgb($1, $2, $3)') === colour,
          ['.ant-tabs-tab-active .ant-tabs-tab-btn', site.colour],
        );
        assert.ok(await activeTab.isVisible());

        const logo = page.locator('main img').first();
        assert.ok(await logo.evaluate((img) => img.complete && img.naturalWidth > 0), 'the login logo loads');
        const icon = await page.getAttribute('link[rel="icon"]', 'href');
        assert.match(icon, /^\/api\/base\/BaseCustomPage\/file\/.+\/browser-logo\.svg$/);
        const iconStatus = await page.evaluate(async (href) => (await fetch(href)).status, icon);
        assert.equal(iconStatus, 200, 'the favicon is served through the /api rewrite');
        assert.equal(await page.getByRole('link', { name: lang === 'zh-CN' ? '注册账号' : 'Create an account' }).count(), site.register ? 1 : 0);
        assert.deepEqual(errors, []);

        await screenshot(page, `${site.host}-${lang}`);
        await context.close();
      });
    }

    test(`${site.host}: the server render already has the branded title and icon`, async () => {
      for (const lang of ['zh-CN', 'en-US']) {
        const { status, body } = await serverRender(site.host, '/user/login', lang);
        assert.equal(status, 200);
        assert.ok(body.includes(`>${site.titles[lang]}</title>`), `title in the SSR HTML (${lang})`);
        assert.match(body, /<link rel="icon" href="\/api\/base\/BaseCustomPage\/file\/[^"]+"/);
        assert.match(body, new RegExp(`<html lang="${lang}"`));
        assert.ok(body.includes('id="antd-ssr"') && body.includes('data-styled'), 'styles are in the first paint');
      }
    });
  }

  test('the language switch stores the choice and reloads the page in it', async () => {
    const context = await contextFor(browser, 'localhost', 'zh-CN');
    const page = await context.newPage();
    await page.goto(siteUrl('localhost', '/user/login'));
    await page.getByRole('button', { name: '切换语言' }).click();
    await Promise.all([page.waitForEvent('load'), page.getByRole('menuitem', { name: 'English' }).click()]);
    assert.equal(await page.title(), 'ColdTrace Monitoring - Sign In');
    assert.equal(new URL(page.url()).pathname, '/user/login');
    const cookies = await context.cookies();
    assert.equal(cookies.find((cookie) => cookie.name === 'lang')?.value, 'en-US');
    await context.close();
  });

  test('quick query validates a complete ID', async () => {
    const context = await contextFor(browser, 'junjia.localhost', 'en-US');
    const page = await context.newPage();
    await page.goto(siteUrl('junjia.localhost', '/user/login'));
    await page.getByRole('tab', { name: 'Quick Query' }).click();
    const input = page.getByPlaceholder('Enter the complete device GUID');
    await page.getByRole('button', { name: 'Query' }).click();
    await page.getByText('Please enter the device GUID').waitFor();
    await input.fill('12ab');
    await page.getByText('The device GUID contains digits only').waitFor();
    await input.fill('1'.repeat(21));
    await page.getByText('The device GUID has at most 20 digits').waitFor();
    await context.close();
  });

  test('a phone-sized screen shows the whole form without sideways scrolling', async () => {
    const context = await contextFor(browser, 'junjia.localhost', 'zh-CN', { width: 375, height: 740 });
    const page = await context.newPage();
    await page.goto(siteUrl('junjia.localhost', '/user/login'), { waitUntil: 'networkidle' });
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth));
    const box = await page.getByTestId('login-submit').boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= 375);
    await screenshot(page, 'junjia.localhost-zh-CN-mobile');
    await context.close();
  });
});

describe('hosts and paths without a page', () => {
  test('an unknown host gets a neutral "not configured" page, not a crash', async () => {
    const context = await contextFor(browser, 'nowhere.localhost', 'en-US');
    const page = await context.newPage();
    const response = await page.goto(siteUrl('nowhere.localhost', '/user/login'));
    assert.equal(response.status(), 421);
    await page.getByText('Site not configured').waitFor();
    assert.match(await page.locator('.ant-result-subtitle').textContent(), /nowhere\.localhost/);
    await screenshot(page, 'nowhere.localhost-en-US');
    await context.close();
  });

  test('/ opens sign-in; unknown paths lead to /; a public page (the help centre) needs no sign-in', async () => {
    const context = await contextFor(browser, 'localhost', 'zh-CN');
    const page = await context.newPage();
    await page.goto(siteUrl('localhost', '/'));
    await page.waitForURL((url) => url.pathname === '/user/login' && url.searchParams.get('redirect') === '/home');
    await page.goto(siteUrl('localhost', '/device/lists'));
    await page.waitForURL((url) => url.pathname === '/user/login' && url.searchParams.get('redirect') === '/home');
    const response = await page.goto(siteUrl('localhost', '/help/center'));
    assert.equal(response.status(), 200);
    await page.getByTestId('help-center').waitFor();
    assert.equal(await page.title(), '冷迹云监测平台 - 帮助中心');
    await context.close();
  });

  test('the static /404 page takes the stored language and the branding in the browser', async () => {
    const context = await contextFor(browser, 'junjia.localhost', 'en-US');
    const page = await context.newPage();
    await page.goto(siteUrl('junjia.localhost', '/404'));
    await page.getByText('The page is missing or still in development').waitFor();
    await page.waitForFunction(() => document.title === 'Junjia Cold Chain - Page Not Found');
    // The theme colour arrives with the branding (after a short colour transition).
    await page.waitForFunction(
      () => getComputedStyle(document.querySelector('.ant-result a.ant-btn')).backgroundColor === 'rgb(15, 138, 95)',
    );
    await context.close();
  });
});
