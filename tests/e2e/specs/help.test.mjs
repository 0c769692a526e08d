// Issue 26 in the browser: the public help centre on desktop (/help/center) and on a phone
// (/mobile/help/list, /mobile/help/center) in both languages, with the seeded demo articles, search,
// a phone sent from the desktop path to the mobile one, and a script in an article body that never runs.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { api, apiLogin, collectErrors, contextFor, launch, screenshot, siteUrl } from './browser.mjs';

const PHONE_AGENT = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const DEMO = {
  'zh-CN': { title: '冷迹云监测平台 - 帮助中心', first: '添加设备', other: '导出数据与报告', search: '推送', found: '告警推送设置', back: '全部文章' },
  'en-US': { title: 'ColdTrace Monitoring - Help Center', first: 'Adding a device', other: 'Exporting data and reports', search: 'escalation', found: 'Alarm push settings', back: 'All articles' },
};

let browser;
const cleanups = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()();
});
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

async function noSidewaysScroll(page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 1, `the page scrolls sideways by ${overflow}px`);
}

describe('help centre (issue 26)', () => {
  for (const lang of ['zh-CN', 'en-US']) {
    const words = DEMO[lang];

    test(`desktop at 1440 px in ${lang}: categories, the first article, another one, search`, async () => {
      const context = await contextFor(browser, 'localhost', lang);
      const page = await context.newPage();
      const errors = collectErrors(page);
      await page.goto(siteUrl('localhost', '/help/center'));
      await page.getByTestId('help-article').getByRole('heading', { name: words.first }).waitFor();
      assert.equal(await page.title(), words.title);
      await page.getByTestId('help-menu').getByText(words.other).click();
      await page.getByTestId('help-article').getByRole('heading', { name: words.other }).waitFor();
      assert.match(new URL(page.url()).search, /id=\d+/);
      await noSidewaysScroll(page);
      await screenshot(page, `help-center-1440-${lang}`);
      await page.getByTestId('help-search').locator('input').fill(words.search);
      await page.getByTestId('help-search').locator('input').press('Enter');
      const result = page.getByTestId('help-result').filter({ hasText: words.found });
      await result.waitFor();
      await result.click();
      await page.getByTestId('help-article').getByRole('heading', { name: words.found }).waitFor();
      assert.deepEqual(errors, []);
      await context.close();
    });

    test(`phone at 390 px in ${lang}: /help/center goes to the list, an article opens and leads back`, async () => {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, userAgent: PHONE_AGENT, isMobile: true, hasTouch: true });
      await context.addCookies([{ name: 'lang', value: lang, domain: 'localhost', path: '/' }]);
      const page = await context.newPage();
      const errors = collectErrors(page);
      await page.goto(siteUrl('localhost', '/help/center'));
      await page.waitForURL((url) => url.pathname === '/mobile/help/list');
      await page.getByTestId('help-list-item').filter({ hasText: words.other }).click();
      await page.waitForURL((url) => url.pathname === '/mobile/help/center' && /^\d+$/.test(url.searchParams.get('id') ?? ''));
      await page.getByTestId('help-article').getByRole('heading', { name: words.other }).waitFor();
      await noSidewaysScroll(page);
      await screenshot(page, `help-mobile-article-390-${lang}`);
      await page.getByRole('link', { name: words.back }).click();
      await page.waitForURL((url) => url.pathname === '/mobile/help/list');
      await page.getByTestId('help-list-item').filter({ hasText: words.first }).waitFor();
      await noSidewaysScroll(page);
      await screenshot(page, `help-mobile-list-390-${lang}`);
      assert.deepEqual(errors, []);
      await context.close();
    });
  }

  test('a script written into an article never runs on the page; drafts stay hidden', async () => {
    const token = await apiLogin('localhost', 'operator');
    const categories = await api('localhost', 'POST', '/base/BaseHelpCategory/list', { token, body: { language: 'en-US' } });
    const categoryId = categories.body.data[0].categoryId;
    const body = '<p>Safe text</p><script>window.__pwned = 1</script><img src="/nothing.png" onerror="window.__pwned = 2" alt="label"><a href="javascript:window.__pwned=3">x</a>';
    const written = await api('localhost', 'POST', '/base/BaseHelpArticle/insert', { token, body: { categoryId, title: 'E2E sanitised', content: body, published: true, sortOrder: 99 } });
    assert.equal(written.body.code, 0, JSON.stringify(written.body));
    const draft = await api('localhost', 'POST', '/base/BaseHelpArticle/insert', { token, body: { categoryId, title: 'E2E draft', content: '<p>draft</p>' } });
    cleanups.push(async () => {
      for (const id of [written.body.data.articleId, draft.body.data.articleId]) await api('localhost', 'POST', '/base/BaseHelpArticle/delete', { token, body: { articleId: id } });
    });
    const context = await contextFor(browser, 'localhost', 'en-US');
    const page = await context.newPage();
    await page.goto(siteUrl('localhost', `/help/center?id=${written.body.data.articleId}`));
    await page.getByTestId('help-article').getByText('Safe text').waitFor();
    await page.getByTestId('help-article').locator('img[alt="label"]').waitFor({ state: 'attached' });
    assert.equal(await page.evaluate(() => window.__pwned), undefined);
    assert.equal(await page.getByTestId('help-article').locator('script, [onerror]').count(), 0);
    assert.equal(await page.getByTestId('help-menu').getByText('E2E draft').count(), 0);
    await page.getByTestId('help-menu').getByText('E2E sanitised').waitFor();
    await context.close();
  });
});
