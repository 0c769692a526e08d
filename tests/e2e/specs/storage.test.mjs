// Issue 20 in the browser: demouser's cold storage overview with live values per probe, a defrost
// sent from cloud control, confirmed and applied by the simulated controller (the demo fleet's
// simulator polls and applies commands), and the virtual storage charted; at 1440 and 390 px, in
// both languages.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { api, apiLogin, collectErrors, contextFor, launch, screenshot, siteUrl, useToken } from './browser.mjs';

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

async function demoStorages(token) {
  const find = async (entity) => {
    const answer = await api('localhost', 'POST', `/storage/${entity}/page`, { token, body: { pageSize: 50 } });
    assert.equal(answer.body?.code, 0, JSON.stringify(answer.body));
    return answer.body.data.list;
  };
  const [room] = (await find('ColdStorage')).filter((s) => s.storageName === 'Cold Storage A');
  const [virtual] = (await find('VirtualStorage')).filter((s) => s.storageName === 'Pharmacy Warehouse');
  assert.ok(room && virtual, 'seed-demo creates the demo storages');
  return { room, virtual };
}

describe('cold storages (issue 20)', () => {
  for (const [lang, labels] of [
    ['en-US', { defrost: 'Defrost now', applied: 'Applied', on: 'On', overview: 'System overview', chart: 'Data chart' }],
    ['zh-CN', { defrost: '立即化霜', applied: '已执行', on: '开', overview: '系统概览', chart: '数据图表' }],
  ]) {
    test(`overview live, a defrost applied, a virtual storage charted (${lang}, 1440 px)`, async () => {
      const token = await apiLogin('localhost', 'demouser');
      const { room, virtual } = await demoStorages(token);
      const context = await contextFor(browser, 'localhost', lang);
      const page = await context.newPage();
      const errors = collectErrors(page);
      await useToken(page, 'localhost', token);

      await page.goto(siteUrl('localhost', '/storage/list'));
      await page.getByTestId('storage-table').getByText('Cold Storage A').waitFor();
      await screenshot(page, `storage-list-${lang}-1440`);

      await page.goto(siteUrl('localhost', `/storage/detail/${room.id}`));
      await page.getByTestId('storage-overview').waitFor();
      const probes = page.getByTestId('storage-probe');
      await probes.first().waitFor();
      assert.equal(await probes.count(), 4);
      const text = await page.getByTestId('storage-overview').innerText();
      assert.match(text, /-?\d+\.\d °C/, 'live values per probe');
      await screenshot(page, `storage-overview-${lang}-1440`);

      // Cloud control: a defrost, confirmed, pending, then applied by the controller
      await page.goto(siteUrl('localhost', `/cloudControl/storage/detail/${room.id}`));
      await page.getByTestId('control-defrost').click();
      const sending = () => page.waitForResponse((response) => response.url().includes('/api/storage/CloudControl/send'));
      let sent = sending();
      await page.getByTestId('control-confirm-ok').click();
      let answer = await (await sent).json();
      if (answer.code === 3010) {
        sent = sending();
        await page.getByTestId('control-offline-ok').click();
        answer = await (await sent).json();
      }
      assert.equal(answer.code, 0, JSON.stringify(answer));
      // This command's row (an earlier run's defrost, applied, may be listed too, and first for a moment)
      const row = `[data-row-key="${answer.data.id}"] [data-testid="control-command-status"]`;
      const status = page.locator(row);
      await page.waitForFunction((selector) => document.querySelector(selector)?.getAttribute('data-status') === 'applied', row, {
        timeout: 30_000,
      });
      assert.equal((await status.innerText()).trim(), labels.applied);
      await page.waitForFunction((on) => document.querySelector('[data-testid="state-defrost"]')?.getAttribute('data-value') === on, labels.on, { timeout: 40_000 });
      await screenshot(page, `storage-cloud-control-${lang}-1440`);

      // The virtual storage: every probe on one chart
      await page.goto(siteUrl('localhost', `/storage/detail/${virtual.id}?kind=virtual`));
      await page.getByRole('tab', { name: labels.chart }).click();
      await page.getByTestId('sensor-chart').waitFor({ timeout: 30_000 });
      await screenshot(page, `storage-virtual-chart-${lang}-1440`);
      assert.deepEqual(
        errors.filter((e) => !e.includes('Failed to load resource')),
        [],
      );
      await context.close();
    });
  }

  test('the list and the overview on a phone (390 px)', async () => {
    const token = await apiLogin('localhost', 'demouser');
    const { room } = await demoStorages(token);
    const context = await contextFor(browser, 'localhost', 'zh-CN', { width: 390, height: 844 });
    const page = await context.newPage();
    await useToken(page, 'localhost', token);
    await page.goto(siteUrl('localhost', '/storage/list'));
    await page.getByTestId('storage-cards').getByText('Cold Storage A').waitFor();
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(wide <= 392, `no sideways scrolling (${wide} px)`);
    await screenshot(page, 'storage-list-zh-CN-390');
    await page.goto(siteUrl('localhost', `/storage/detail/${room.id}`));
    await page.getByTestId('storage-probe').first().waitFor();
    await screenshot(page, 'storage-overview-zh-CN-390');
    await context.close();
  });
});
