// Issue 47, the pages as their users read them: times in the device's zone whatever the browser's
// (a New York browser against a Shanghai device), said with their offset; chart limits on their
// sensor's axis; the command history and operation log in words with who acted; the settings form
// opened with its values; each device tab its own title; storage pages in zh-CN without English
// catalogue names, month words on the chart's dates or "on/off" state channels.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { api, apiLogin, collectErrors, launch, screenshot, selectTab, siteUrl, useToken } from './browser.mjs';

let browser;
let token;
before(async () => {
  browser = await launch();
  token = await apiLogin('localhost', 'demouser');
});
after(async () => {
  await browser?.close();
});

/** A context in a browser time zone (what a user abroad has), in one language. */
async function zonedContext(lang, timezoneId, viewport = { width: 1440, height: 900 }) {
  const context = await browser.newContext({ viewport, timezoneId });
  await context.addCookies([{ name: 'lang', value: lang, domain: 'localhost', path: '/' }]);
  return context;
}

async function demoDevice(name) {
  const { body } = await api('localhost', 'POST', '/device/Device/page', { token, body: { start: 1, pageSize: 50 } });
  const device = body.data.list.find((row) => row.deviceName === name);
  assert.ok(device, `seed-demo creates ${name}`);
  return device;
}

const SHOWN = /(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2}) UTC\+08:00/;

/** The instant a shown "YYYY-MM-DD HH:mm:ss UTC+08:00" stands for. */
function shownInstant(text) {
  const match = SHOWN.exec(text);
  assert.ok(match, `a time with its zone offset: ${text}`);
  const [, y, mo, d, h, mi, s] = match.map(Number);
  return Date.UTC(y, mo - 1, d, h - 8, mi, s);
}

describe('pages of issue 47', () => {
  test('a New York browser reads a Shanghai device in Shanghai time, limits on their axes, log and settings in words', async () => {
    const fridge = await demoDevice('Pharmacy Fridge');
    assert.equal(fridge.timeZone, 'Asia/Shanghai');
    const context = await zonedContext('en-US', 'America/New_York');
    const page = await context.newPage();
    const errors = collectErrors(page);
    await useToken(page, 'localhost', token);
    assert.equal(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone), 'America/New_York');

    // The list: the last data time in the device's zone, with its offset (not New York's wall time).
    await page.goto(siteUrl('localhost', '/device/list'));
    const row = page.getByTestId('device-table').locator('tr', { hasText: 'Pharmacy Fridge' });
    await row.waitFor();
    const listed = shownInstant(await row.innerText());
    const latest = await demoDevice('Pharmacy Fridge');
    const truth = Date.parse(latest.lastDataTime);
    assert.ok(Math.abs(listed - truth) <= 15 * 60_000, `list time ${new Date(listed).toISOString()} vs ${latest.lastDataTime}`);

    // The detail: every tab titled by itself; the info in the device's zone.
    await page.goto(siteUrl('localhost', `/device/detail/${fridge.id}`));
    await page.getByTestId('device-detail').waitFor();
    await page.waitForFunction(() => document.title.includes('Real-time data'));
    await selectTab(page, 'Basic info');
    await page.waitForFunction(() => document.title.includes('Pharmacy Fridge · Basic info'));
    const info = await page.getByTestId('device-info').innerText();
    assert.ok(Math.abs(shownInstant(info) - truth) <= 15 * 60_000, info);

    // The chart: the time axis reads in Shanghai and says so; the %RH limits (30 / 80) sit on the
    // %RH axis, so the °C axis stays at the fridge's temperatures.
    await selectTab(page, 'Data chart');
    await page.waitForFunction(() => document.title.includes('Pharmacy Fridge · Data chart'));
    const chart = page.getByTestId('sensor-chart');
    await chart.locator('.apexcharts-series path').first().waitFor();
    assert.equal(await chart.getAttribute('data-zone'), 'Asia/Shanghai');
    assert.match(await chart.locator('.apexcharts-xaxis-title').textContent(), /Asia\/Shanghai \(UTC\+08:00\)/);
    const axes = await chart.locator('.apexcharts-yaxis').evaluateAll((nodes) =>
      nodes.map((node) => ({
        title: node.querySelector('.apexcharts-yaxis-title')?.textContent ?? '',
        // A label is a <text> holding its value in a <tspan> (and a <title> with the same text).
        labels: [...node.querySelectorAll('.apexcharts-yaxis-label')].map((label) =>
          Number((label.querySelector('tspan') ?? label).textContent.replace('−', '-')),
        ),
      })),
    );
    const celsius = axes.find((axis) => axis.title.includes('°C'));
    const humidity = axes.find((axis) => axis.title.includes('%RH'));
    assert.ok(celsius && humidity, JSON.stringify(axes));
    assert.ok(Math.max(...celsius.labels) < 40, `the °C axis is not stretched by %RH limits: ${celsius.labels}`);
    assert.ok(Math.max(...humidity.labels) >= 80, `the %RH axis holds its 80 %RH limit: ${humidity.labels}`);
    assert.match(await chart.getAttribute('data-limit-axes'), /%RH@\d+/);
    await screenshot(page, 'issue47-chart-new-york');

    // Parameter settings: the logging interval opens with its value; the history reads in words.
    await selectTab(page, 'Parameter settings');
    const interval = page.getByTestId('param-0101');
    await interval.waitFor();
    await page.waitForFunction(
      (minutes) => document.querySelector('[data-testid="param-0101"]')?.value === String(minutes),
      Math.round(fridge.intervalSeconds / 60),
    );
    const history = await page.getByTestId('command-list').innerText();
    assert.doesNotMatch(history, /\[object Object\]/);

    // The operation log: localized actions, who acted, details without JSON.
    await selectTab(page, 'Operation log');
    const log = page.getByTestId('device-log');
    await log.locator('thead').getByText('Operator').waitFor();
    const logText = await log.innerText();
    assert.doesNotMatch(logText, /[{}"]|\[object Object\]/);
    assert.doesNotMatch(logText, /\b(setParams|stopUsing|waybillStart)\b/);
    assert.deepEqual(
      errors.filter((text) => !text.includes('Failed to load resource')),
      [],
    );
    await context.close();
  });

  test('storage pages in zh-CN: translated probe names, chart dates without month words, running / stopped', async () => {
    const { body } = await api('localhost', 'POST', '/storage/ColdStorage/page', { token, body: { pageSize: 50 } });
    const room = body.data.list.find((row) => row.storageName === 'Cold Storage A');
    assert.ok(room);
    const context = await zonedContext('zh-CN', 'America/New_York');
    const page = await context.newPage();
    await useToken(page, 'localhost', token);
    await page.goto(siteUrl('localhost', `/storage/detail/${room.id}`));
    const probes = page.getByTestId('storage-probe');
    await probes.first().waitFor();
    for (const text of await probes.allInnerTexts()) {
      const name = text.split('\n')[0].split('·')[1]?.trim() ?? '';
      assert.doesNotMatch(name, /[A-Za-z]{3,}/, `a probe name in Chinese: ${name}`);
    }
    assert.match(await page.getByTestId('storage-overview').innerText(), /UTC\+08:00/);

    await page.getByRole('tab', { name: '参数' }).click();
    const params = page.getByTestId('storage-params');
    await params.locator('tbody tr.ant-table-row').first().waitFor();
    const paramText = await params.innerText();
    assert.doesNotMatch(paramText, /on\/off|开\/关/);
    assert.match(paramText, /运行|停止/);

    await page.getByRole('tab', { name: '数据图表' }).click();
    const chart = page.getByTestId('sensor-chart');
    await chart.locator('.apexcharts-series path').first().waitFor({ timeout: 30_000 });
    const dates = await chart.locator('.apexcharts-xaxis-label').allTextContents();
    assert.ok(dates.length > 0);
    for (const date of dates) assert.doesNotMatch(date, /[一二三四五六七八九十]+月/, `a zh-CN chart date: ${date}`);
    assert.match(await chart.locator('.apexcharts-xaxis-title').textContent(), /UTC\+08:00/);
    await screenshot(page, 'issue47-storage-zh');
    await context.close();
  });

  test('pay links and the receipt opened signed out, or without an order number, say what to do (390 px)', async () => {
    const { body } = await api('localhost', 'POST', '/billing/Order/page', { token, body: { start: 1, pageSize: 5 } });
    const orderCode = body?.data?.list?.[0]?.orderCode ?? 'P000000000000';
    const context = await zonedContext('en-US', 'Asia/Shanghai', { width: 390, height: 844 });
    const page = await context.newPage();
    for (const pathname of ['/receipt', '/mobilePay/pay', '/mobilePay/success']) {
      await page.goto(siteUrl('localhost', pathname));
      await page.getByTestId('public-missing-id').waitFor();
      assert.match(await page.getByTestId('public-missing-id').innerText(), /No order given/);
      assert.notEqual(await page.title(), '', `${pathname} has a title`);
    }
    for (const pathname of ['/receipt', '/mobilePay/pay', '/mobilePay/success']) {
      await page.goto(siteUrl('localhost', `${pathname}?orderCode=${orderCode}`));
      await page.getByTestId('public-sign-in').waitFor();
      const text = await page.locator('body').innerText();
      assert.doesNotMatch(text, /Logon timeout|Waiting for the payment/, `${pathname} signed out`);
      assert.notEqual(await page.title(), '', `${pathname} has a title`);
      // The sign-in link comes back to the same pay page.
      const href = await page.getByTestId('public-sign-in').locator('a').getAttribute('href');
      assert.ok(href.includes(encodeURIComponent(pathname)), href);
    }
    await context.close();
  });

  test('desktop calibration pages fit a 390 px phone, "Log out" on screen', async () => {
    for (const [user, paths] of [
      ['demouser', ['/calibration/home', '/calibration/form', '/calibration/quickly', '/calibration/orders']],
      ['labadmin', ['/calibration/admin/orders', '/calibration/admin/quick']],
    ]) {
      const userToken = await apiLogin('localhost', user);
      for (const lang of ['zh-CN', 'en-US']) {
        const context = await zonedContext(lang, 'Asia/Shanghai', { width: 390, height: 844 });
        const page = await context.newPage();
        await useToken(page, 'localhost', userToken);
        for (const pathname of paths) {
          await page.goto(siteUrl('localhost', pathname));
          await page.locator('main').first().waitFor();
          await page.waitForLoadState('networkidle');
          const wide = await page.evaluate(() => document.documentElement.scrollWidth);
          assert.ok(wide <= 391, `${pathname} (${user}, ${lang}) is ${wide} px wide at 390 px`);
          const logout = page.getByTestId('calibration-logout');
          if (await logout.count()) {
            const box = await logout.boundingBox();
            assert.ok(box && box.x >= 0 && box.x + box.width <= 391, `${pathname}: "Log out" on screen (${JSON.stringify(box)})`);
          }
        }
        await context.close();
      }
    }
  });
});
