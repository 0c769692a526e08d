// Issue 18 in the browser: every console page at 1440, 1000 and 390 px in zh-CN and en-US, signed in
// as the demo account (which has data on every page; the back-office pages as the operator). A page
// fails when the document is wider than the window, or when a list's key columns (time, state,
// latest values, actions: `.list-key`) or its cards are not inside the window. At 1440 px the same walk reads the page's text: in zh-CN no
// Latin-only word outside the allow-list (units, brands, GUIDs) and the account's own data; in
// en-US no Chinese. Screenshots: tests/e2e/artifacts/width-<lang>-<width>-<page>.png.
// Then: a second account on the same browser never sees the first one's lists (the SWR cache is
// cleared on sign-out and sign-in), and the device chart draws humidity on its own %RH axis.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { api, apiLogin, chooseMenuItem, closeMobileMenu, collectErrors, contextFor, launch, screenshot, signInWithForm, siteUrl, useToken } from './browser.mjs';

const HOST = 'localhost';
const WIDTHS = [
  { width: 1440, height: 900 },
  { width: 1000, height: 800 },
  { width: 390, height: 844 },
];
// Units, brands, protocol and file names that are the same in every language.
const ALLOWED = new Set(
  'GUID GUIDs SMS PDF CSV XLSX ZIP MQTT HTTP HTTPS SMTP STARTTLS API PLC SCADA IMEI ICCID SIM GPS RH kWh dBm UTC GMT MKT FDA CFR Part Google Maps WeChat QQ Facebook PayPal Alipay Email ID IP SVG PNG ApexCharts OK am pm example com'.split(' '),
);
// Time-zone names shown with devices (Asia/Shanghai ...).
const ZONE = /\b(?:Africa|America|Asia|Atlantic|Australia|Europe|Indian|Pacific|Etc)\/[A-Za-z_]+/g;
const EMAIL = /[\w.+-]+@[\w.-]+/g;
// Web addresses (placeholders such as https://, links) are not words of a language.
const URL_TEXT = /\bhttps?:\/\/\S*/g;
// Model codes of the catalogue (TH-2, CS-4 ...).
const MODEL = /\b[A-Z]{2}-\d+\b/g;

let browser;
let token;
let operatorToken;
let pages;
let ownWords;

/** Every string of an answer under a name-like key (names, remarks, addresses ...), at any depth. */
function dataTexts(value, collect, key = '') {
  if (Array.isArray(value)) return value.forEach((item) => dataTexts(item, collect, key));
  if (value && typeof value === 'object') return Object.entries(value).forEach(([name, item]) => dataTexts(item, collect, name));
  if (typeof value === 'string' && /(?:name|Name|remark|Remark|title|Title|address|content|Content|compressor|airCooler|electricBox|volume|area|brand|model|domain|Domain|orderNum|waybillNum|expressNumber|coolerCode|userName|email|slug)s?$/.test(key)) collect(value);
}

before(async () => {
  browser = await launch();
  token = await apiLogin(HOST, 'demouser');
  operatorToken = await apiLogin(HOST, 'operator');
  const firstId = async (path) => (await api(HOST, 'POST', path, { token, body: { start: 1, pageSize: 1 } })).body.data.list[0].id;
  const storage = await firstId('/storage/ColdStorage/page');
  const freezer = await firstId('/storage/Freezer/page');
  const asset = await firstId('/base/BaseAsset/page');
  const devices = (await api(HOST, 'POST', '/device/Device/page', { token, body: { start: 1, pageSize: 100 } })).body.data.list;
  const detail = devices.find((device) => device.typeName.startsWith('TH-2')) ?? devices[0];
  pages = [
    ['/home', 'home'],
    ['/home/organization', 'home-organization'],
    ['/message/list', 'messages'],
    ['/device/list', 'devices'],
    [`/device/detail/${detail.id}`, 'device-detail'],
    ['/organization/list', 'organizations'],
    ['/consumer/list', 'members'],
    ['/asset/list', 'assets'],
    ['/project/list', 'projects'],
    ['/consumer/role', 'roles'],
    ['/consumer/download', 'downloads'],
    ['/operation/log', 'operation-log'],
    ['/consumer/sharer', 'sharer'],
    ['/consumer/info', 'info'],
    [`/asset/detail/${asset}`, 'asset-detail'],
    ['/storage/list', 'storages'],
    [`/storage/detail/${storage}`, 'storage-detail'],
    [`/cloudControl/storage/detail/${storage}`, 'cloud-control'],
    ['/freezer/list', 'freezers'],
    [`/freezer/detail/${freezer}`, 'freezer-detail'],
    ['/waybill/list', 'waybills'],
    ['/waybill/geofence', 'geofences'],
    // The back-office, as the platform operator.
    ['/service/scheduledBackup', 'scheduled-backups', 'operator'],
    ['/operation/consumer/list', 'operation-users', 'operator'],
    ['/operation/system/manage', 'operation-system', 'operator'],
    ['/customized/list', 'customized', 'operator'],
    ['/notice/list', 'notices', 'operator'],
  ];
  // The account's own data (device, organisation, member, template names) may be in any script.
  const texts = [];
  const collect = (value) => typeof value === 'string' && value && texts.push(value);
  devices.forEach((device) => [device.deviceName, device.deviceGuid, device.remark].forEach(collect));
  const walk = (nodes) => nodes.forEach((node) => (collect(node.name), collect(node.creatorName), walk(node.children ?? [])));
  walk((await api(HOST, 'GET', '/base/BaseOrganization/tree', { token })).body.data ?? []);
  const members = (await api(HOST, 'POST', '/base/BaseAccount/queryUserByCondition', { token, body: { start: 1, pageSize: 100 } })).body.data?.list ?? [];
  members.forEach((member) => [member.userName, member.realName, member.email, member.organizationName, member.companyName].forEach(collect));
  for (const [path, key] of [
    ['/device/DevicePermissionTemplate/list', 'name'],
  ]) ((await api(HOST, 'GET', path, { token })).body.data ?? []).forEach((row) => collect(row[key]));
  // Roles someone named (the demo's quality assurance) stay as named; the presets read in the language.
  const roles = (await api(HOST, 'POST', '/base/BaseRole/page', { token, body: { start: 1, pageSize: 100 } })).body.data?.list ?? [];
  roles.filter((role) => !role.preset).forEach((role) => [role.roleName, role.description].forEach(collect));
  for (const path of ['/base/BaseProject/page', '/base/BaseAsset/page', '/device/DeviceShare/page', '/report/ScheduledReport/page', '/report/ExportFile/page']) {
    ((await api(HOST, 'POST', path, { token, body: { start: 1, pageSize: 100 } })).body.data?.list ?? []).forEach((row) =>
      Object.values(row).forEach((value) => (typeof value === 'string' && !/^\d{4}-\d\d-\d\d/.test(value) ? collect(value) : null)),
    );
  }
  for (const path of ['/storage/ColdStorage/page', '/storage/Freezer/page', '/waybill/Waybill/page', '/waybill/Fence/page']) {
    dataTexts((await api(HOST, 'POST', path, { token, body: { start: 1, pageSize: 100 } })).body.data?.list ?? [], collect);
  }
  dataTexts((await api(HOST, 'GET', `/base/BaseAsset/detail/${asset}`, { token })).body.data, collect);
  // The operator's back-office data: accounts, customised sites, announcements.
  for (const path of ['/base/BaseAccount/get/list', '/base/BaseCustomPage/get/page', '/base/BaseNotice/queryNoticePage', '/report/ScheduledReport/page']) {
    dataTexts((await api(HOST, 'POST', path, { token: operatorToken, body: { start: 1, pageSize: 100 } })).body.data?.list ?? [], collect);
  }
  collect('operator');
  // Alarm processing results and message texts typed by the demo account.
  // Where an alarm's probe is (room · zone · probe): the room and probe names are data; the zone is translated.
  ((await api(HOST, 'POST', '/alarm/AlarmMessage/page', { token, body: { start: 1, pageSize: 100 } })).body.data?.list ?? []).forEach((row) => {
    collect(row.alarm?.result);
    (row.alarm?.place ?? '').split(' · ').forEach(collect);
    collect(row.alarm?.sensorName);
  });
  collect('demouser');
  collect('Demo');
  ownWords = texts.sort((a, b) => b.length - a.length);
});
after(async () => {
  await browser?.close();
});

/** Wait until the page's data is in (no spinner, no skeleton, no loading table). */
async function settled(page) {
  await page.getByTestId('page-content').waitFor();
  await page.waitForFunction(
    () => !document.querySelector('.ant-spin-spinning, .ant-skeleton-active'),
    null,
    { timeout: 20_000 },
  );
}

// Pages whose main content is a list: it is the shared list component (table or cards by width).
const LIST_PAGES = new Set(
  'messages devices organizations members assets projects roles downloads scheduled-reports scheduled-backups operation-log sharer storages freezers waybills geofences operation-users customized notices'.split(' '),
);

/** What is wrong with the page at this width (empty when nothing). */
function layoutProblems(page) {
  return page.evaluate(() => {
    const problems = [];
    const width = window.innerWidth;
    if (document.documentElement.scrollWidth > width + 1) problems.push(`document ${document.documentElement.scrollWidth}px wide in a ${width}px window`);
    const inside = (element) => {
      const box = element.getBoundingClientRect();
      return box.width > 0 && box.left >= -1 && box.right <= width + 1;
    };
    for (const list of document.querySelectorAll('[data-list-mode]')) {
      if (list.closest('.ant-tabs-tabpane-hidden, [hidden]')) continue;
      if (list.dataset.listMode === 'table') {
        for (const cell of list.querySelectorAll('thead th.list-key')) if (!inside(cell)) problems.push(`key column "${cell.textContent.trim()}" outside the window`);
        const row = list.querySelector('tbody tr.ant-table-row');
        if (row) for (const cell of row.querySelectorAll('td.list-key')) if (!inside(cell)) problems.push(`key cell "${cell.textContent.trim().slice(0, 30)}" outside the window`);
        // Seen without scrolling the table: a key column (at 1440 px every column) lies between the
        // table's left edge and the fixed action column, and its title is not cut.
        const scroller = list.querySelector('.ant-table-content, .ant-table-body');
        if (scroller) {
          const area = scroller.getBoundingClientRect();
          const fixed = [...list.querySelectorAll('thead th.ant-table-cell-fix-right, thead th.ant-table-cell-fix-end')].map((cell) => cell.getBoundingClientRect().left);
          const right = Math.min(area.right, ...fixed);
          const heads = [...list.querySelectorAll('thead th')].filter(
            (cell) =>
              !cell.matches('.ant-table-cell-fix-right, .ant-table-cell-fix-left, .ant-table-cell-fix-end, .ant-table-cell-fix-start, .ant-table-selection-column, .ant-table-row-expand-icon-cell, .ant-table-cell-scrollbar') &&
              cell.textContent.trim() &&
              (width >= 1440 || cell.classList.contains('list-key')),
          );
          const rows = [...list.querySelectorAll('tbody tr.ant-table-row')].slice(0, 5);
          for (const cell of heads) {
            const box = cell.getBoundingClientRect();
            const title = cell.textContent.trim();
            if (box.left < area.left - 1 || box.right > right + 1) problems.push(`column "${title}" is hidden until the table is scrolled`);
            // Its values: whole inside the cell, unless the column shows long text with an ellipsis and a tooltip.
            const index = [...cell.parentElement.children].indexOf(cell);
            for (const row of rows) {
              const value = row.children[index];
              if (!value || value.querySelector('.ant-typography-ellipsis, .ant-table-cell-ellipsis') || value.matches('.ant-table-cell-ellipsis')) continue;
              if (value.scrollWidth > value.clientWidth + 1) {
                problems.push(`column "${title}": "${value.textContent.trim().slice(0, 30)}" is cut`);
                break;
              }
            }
          }
        }
      } else {
        for (const card of list.querySelectorAll('[data-testid="list-card"]')) if (!inside(card)) problems.push('a card outside the window');
        for (const part of list.querySelectorAll('[data-testid="list-card"] .list-key')) if (!inside(part)) problems.push('a card key value outside the window');
      }
    }
    return problems;
  });
}

/** Words of the page that are not in the page's language. */
async function foreignWords(page, lang) {
  let text = await page.evaluate(() => {
    // Commands shown as code (`flask backup restore`) are not text of a language.
    const hidden = (element) => element.closest('script, style, noscript, code, [aria-hidden="true"], .ant-tabs-tabpane-hidden, .apexcharts-canvas defs');
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const parts = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node.parentElement;
      if (!element || hidden(element) || !element.checkVisibility?.()) continue;
      parts.push(node.textContent);
    }
    const attributes = [...document.querySelectorAll('input[placeholder], [title]:not(svg [title])')]
      .filter((element) => element.checkVisibility?.())
      .map((element) => element.getAttribute('placeholder') ?? element.getAttribute('title'));
    return [...parts, ...attributes].join('\n');
  });
  for (const own of ownWords) text = text.split(own).join(' ');
  text = text.replace(URL_TEXT, ' ').replace(ZONE, ' ').replace(EMAIL, ' ').replace(MODEL, ' ');
  if (lang === 'zh-CN') return [...new Set(text.match(/\b[A-Za-z][A-Za-z'-]{2,}\b/g) ?? [])].filter((word) => !ALLOWED.has(word));
  // A language is named in its own language (the default-language select shows 简体中文 in en-US too).
  return [...new Set(text.match(/[\u4e00-\u9fff]+/g) ?? [])].filter((word) => word !== '简体中文');
}

describe('every console page at every width, in both languages', () => {
  for (const lang of ['zh-CN', 'en-US']) {
    for (const viewport of WIDTHS) {
      test(`${lang} at ${viewport.width} px`, async () => {
        const context = await contextFor(browser, HOST, lang, viewport);
        const page = await context.newPage();
        const errors = collectErrors(page);
        await useToken(page, HOST, token);
        await page.evaluate((value) => localStorage.setItem('lang', value), lang);
        const found = [];
        let signedIn = 'demouser';
        for (const [pathname, name, account = 'demouser'] of pages) {
          if (account !== signedIn) {
            await useToken(page, HOST, account === 'operator' ? operatorToken : token);
            signedIn = account;
          }
          await page.goto(siteUrl(HOST, pathname));
          if (viewport.width < 576) await closeMobileMenu(page);
          await settled(page);
          for (const problem of await layoutProblems(page)) found.push(`${pathname}: ${problem}`);
          if (LIST_PAGES.has(name) && !(await page.locator('[data-list-mode]').count())) found.push(`${pathname}: not the shared list`);
          if (viewport.width === 1440) for (const word of await foreignWords(page, lang)) found.push(`${pathname}: "${word}" is not ${lang}`);
          await screenshot(page, `width-${lang}-${viewport.width}-${name}`, false);
        }
        assert.deepEqual(found, []);
        assert.deepEqual(
          errors.filter((message) => !message.includes('404 (Not Found)')),
          [],
        );
        await context.close();
      });
    }
  }
});

describe('error pages', () => {
  // [description, the illustration's name] of each page
  const TEXTS = {
    'zh-CN': { 404: ['页面不存在或正在开发中', '页面不存在'], 500: ['抱歉，服务器出错了', '服务器错误'] },
    'en-US': { 404: ['The page is missing or still in development', 'Page Not Found'], 500: ['Sorry, the server ran into an error', 'Server Error'] },
  };
  for (const lang of ['zh-CN', 'en-US']) {
    test(`the 404 and 500 pages, illustrations included, speak ${lang}`, async () => {
      const context = await contextFor(browser, HOST, lang, WIDTHS[0]);
      const page = await context.newPage();
      for (const status of [404, 500]) {
        const [description, name] = TEXTS[lang][status];
        await page.goto(siteUrl(HOST, `/${status}`));
        await page.getByTestId(`error-${status}`).locator('.ant-result-subtitle', { hasText: description }).waitFor();
        // antd's illustration says "No Found" / "Server Error" in its <title> unless the page renames it.
        await page.waitForFunction(
          ([selector, text]) => document.querySelector(selector)?.textContent === text,
          [`[data-testid="error-${status}"] svg > title`, name],
        );
      }
      await context.close();
    });
  }
});

describe('charts and accounts', () => {
  test('a chart with temperature and humidity has two axes with their units', async () => {
    const context = await contextFor(browser, HOST, 'en-US', WIDTHS[0]);
    const page = await context.newPage();
    await useToken(page, HOST, token);
    await page.goto(siteUrl(HOST, pages[4][0]));
    await page.getByRole('tab', { name: 'Data chart' }).click();
    const chart = page.getByTestId('sensor-chart');
    await chart.locator('.apexcharts-series path').first().waitFor();
    assert.equal(await chart.getAttribute('data-units'), '°C %RH');
    // Temperature on the left, humidity on the right: the titles by where they are drawn, not by DOM order.
    const titles = await chart.locator('.apexcharts-yaxis-title text').evaluateAll((nodes) =>
      nodes.map((node) => [node.getBoundingClientRect().x, node.textContent]).sort((a, b) => a[0] - b[0]).map(([, text]) => text),
    );
    assert.deepEqual(titles, ['°C', '%RH']);
    const legends = await chart.locator('.apexcharts-legend-text').allTextContents();
    assert.ok(legends.some((text) => text.includes('(%RH)')) && legends.some((text) => text.includes('(°C)')), legends.join(', '));
    await screenshot(page, 'chart-two-axes', false);
    await context.close();
  });

  test("a second account on the same browser never sees the first one's lists", async () => {
    const viewer = await apiLogin(HOST, 'demoviewer');
    const theirs = (await api(HOST, 'POST', '/device/Device/page', { token: viewer, body: { start: 1, pageSize: 100 } })).body.data.list.map((d) => d.deviceName);
    const mine = (await api(HOST, 'POST', '/device/Device/page', { token, body: { start: 1, pageSize: 100 } })).body.data.list.map((d) => d.deviceName);
    const onlyMine = mine.filter((name) => !theirs.includes(name));
    assert.ok(onlyMine.length > 0, 'the demo accounts must differ');
    const context = await contextFor(browser, HOST, 'en-US', WIDTHS[0]);
    // Every device name the page ever shows, from the first frame on.
    await context.addInitScript(() => {
      window.__seenDevices = new Set();
      new MutationObserver(() => {
        for (const element of document.querySelectorAll('[data-testid="device-name"]')) window.__seenDevices.add(element.textContent.trim());
      }).observe(document, { subtree: true, childList: true, characterData: true });
    });
    const page = await context.newPage();
    await page.goto(siteUrl(HOST, '/user/login'));
    await signInWithForm(page, 'demouser');
    await page.getByTestId('side-menu').getByText('Device List').click();
    await page.waitForURL((url) => url.pathname === '/device/list');
    await page.getByTestId('device-table').getByText(onlyMine[0]).first().waitFor();
    // The hardest case: the first account's list is being refreshed while the accounts change, and
    // its answer arrives after the second account opened the same list. Hold that refresh (SWR
    // revalidates on focus) until then.
    let releaseRefresh;
    const released = new Promise((release) => {
      releaseRefresh = release;
    });
    let holding = true;
    const refreshHeld = new Promise((resolve) => {
      void page.route('**/api/device/Device/page', async (route) => {
        if (holding) {
          holding = false; // only the first one: everything after it goes straight through
          resolve();
          await released;
        }
        await route.continue().catch(() => undefined); // the page may be gone by then
      });
    });
    let held = false;
    void refreshHeld.then(() => {
      held = true;
    });
    for (let tries = 0; !held && tries < 20; tries += 1) {
      await page.evaluate(() => window.dispatchEvent(new Event('focus')));
      await Promise.race([refreshHeld, new Promise((resolve) => setTimeout(resolve, 1_000))]);
    }
    assert.ok(held, 'the list refreshes when the window gets the focus');
    // Sign out and in as the other account without reloading: the same JavaScript, the same cache.
    await page.getByTestId('user-menu').click();
    await chooseMenuItem(page, 'Log out');
    await page.waitForURL((url) => url.pathname === '/user/login');
    await page.evaluate(() => window.__seenDevices.clear());
    await signInWithForm(page, 'demoviewer');
    await page.getByTestId('side-menu').getByText('Device List').click();
    await page.waitForURL((url) => url.pathname === '/device/list');
    await page.getByTestId('device-table').waitFor();
    // Only now the first account's refresh may answer.
    releaseRefresh();
    await page.getByTestId('device-table').getByTestId('device-name').first().waitFor({ timeout: 10_000 });
    const seen = await page.evaluate(() => [...window.__seenDevices]);
    assert.deepEqual(seen.filter((name) => onlyMine.includes(name)), [], `demoviewer was shown demouser's devices: ${seen.join(', ')}`);
    assert.ok(seen.length > 0 && seen.every((name) => theirs.includes(name)), seen.join(', '));
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await context.close();
  });
});
