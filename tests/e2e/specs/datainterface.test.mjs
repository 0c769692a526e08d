// Issue 26 in the browser: a provincial connector configured on /dataInterface/index (endpoint, app
// id, write-only secret, equipment codes), then its delivery log filling as the intervals are sent
// to a local fake supervision platform that checks every request's HMAC-SHA256 signature; at 1440 px
// in Chinese and 390 px in English.
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { chooseOption, api, apiLogin, closeMobileMenu, collectErrors, contextFor, launch, screenshot, siteUrl, useToken } from './browser.mjs';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const PYTHON = path.join(ROOT, '.venv/bin/python');
const FLASK = path.join(ROOT, '.venv/bin/flask');
const DATABASE_URL = process.env.E2E_DATABASE_URL || 'postgresql+psycopg://postgres@127.0.0.1:5432/coldchain_e2e';
const REDIS_URL = process.env.E2E_REDIS_URL || 'redis://127.0.0.1:6379/15';
const APP_ID = 'ZJ-E2E-0001';
const SECRET = 'e2e-province-secret';
const NAME = 'E2E province';

/** The province: checks app id, timestamp and X-Signature = HMAC-SHA256(secret, "timestamp.body"); dedupes batches. */
function startProvince() {
  const province = { batches: new Map(), posts: [], badSignatures: 0 };
  province.server = http.createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      const timestamp = request.headers['x-timestamp'] ?? '';
      const expected = crypto.createHmac('sha256', SECRET).update(Buffer.concat([Buffer.from(`${timestamp}.`), body])).digest('hex');
      const answer = (payload) => {
        response.writeHead(200, { 'Content-Type': 'application/json' });
        response.end(JSON.stringify(payload));
      };
      if (request.headers['x-app-id'] !== APP_ID || request.headers['x-signature'] !== expected || Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) {
        province.badSignatures += 1;
        answer({ code: 1003, msg: 'signature mismatch' });
        return;
      }
      const upload = JSON.parse(body.toString('utf8'));
      province.posts.push(upload.batchNo);
      if (province.batches.has(upload.batchNo)) return answer({ code: 0, msg: 'duplicate batch, already received' });
      province.batches.set(upload.batchNo, upload);
      answer({ code: 0, msg: 'ok' });
    });
  });
  return new Promise((resolve) => province.server.listen(0, '127.0.0.1', () => resolve(province)));
}

// Three intervals pass in a moment: the connector's log is moved to start 15 minutes earlier, as if
// it had been switched on then.
const BACKDATE = `
import sys, sqlalchemy as sa
engine = sa.create_engine(sys.argv[1])
with engine.begin() as connection:
    connection.execute(sa.text("UPDATE data_connector SET cursor = cursor - interval '15 minutes' WHERE name = :n"), {"n": sys.argv[2]})
`;

async function passIntervals({ backdate = true } = {}) {
  if (backdate) {
    const backdated = spawnSync(PYTHON, ['-c', BACKDATE, DATABASE_URL, NAME], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(backdated.status, 0, backdated.stderr);
  }
  // What the cron tick and the workers do, here (the fake province listens on loopback). Not
  // spawnSync: this process must keep answering as the province while the command sends.
  const env = { ...process.env, DATABASE_URL, REDIS_URL, OUTBOUND_ALLOWED_HOSTS: '127.0.0.1', FLASK_DEBUG: '0' };
  return new Promise((resolve, reject) => {
    execFile(FLASK, ['--app', 'api', 'data-interface-send'], { cwd: ROOT, env, encoding: 'utf8' }, (error, stdout, stderr) =>
      error ? reject(new Error(`data-interface-send failed: ${stderr}`)) : resolve(stdout),
    );
  });
}

let browser;
let token;
let province;
before(async () => {
  browser = await launch();
  token = await apiLogin('localhost', 'demouser');
  province = await startProvince();
});
after(async () => {
  const listed = await api('localhost', 'GET', '/dataInterface/Connector/list', { token });
  for (const connector of listed.body?.data ?? []) {
    if (connector.name === NAME) await api('localhost', 'POST', '/dataInterface/Connector/delete', { token, body: { connectorId: connector.connectorId } });
  }
  province?.server.close();
  await browser?.close();
});

describe('provincial data interface (issue 26)', () => {
  test('1440 px, zh-CN: configure a connector and its equipment codes; the delivery log fills, each interval once and signed', async () => {
    const context = await contextFor(browser, 'localhost', 'zh-CN');
    const page = await context.newPage();
    const errors = collectErrors(page);
    await useToken(page, 'localhost', token);
    await page.goto(siteUrl('localhost', '/dataInterface/index'));
    await page.getByTestId('di-connectors').getByText('浙江省疫苗冷链监管平台').waitFor(); // the demo's, switched off
    await page.getByTestId('di-add').click();
    const drawer = page.locator('.ant-drawer-open');
    await drawer.locator('#name').fill(NAME);
    await drawer.locator('#endpoint').fill(`http://127.0.0.1:${province.server.address().port}/api/coldchain/upload`);
    await drawer.locator('#appId').fill(APP_ID);
    await drawer.locator('#secret').fill(SECRET);
    await drawer.getByTestId('drawer-submit').click();
    await drawer.waitFor({ state: 'hidden' });
    const selected = page.getByTestId('di-selected');
    await selected.getByText(NAME).waitFor();

    const listed = await api('localhost', 'GET', '/dataInterface/Connector/list', { token });
    const mine = listed.body.data.find((c) => c.name === NAME);
    assert.equal(mine.secretSet, true);
    assert.equal(mine.enabled, true);
    assert.equal(JSON.stringify(listed.body).includes(SECRET), false, 'the secret is never answered');

    await selected.getByTestId('di-mapping-add').click();
    await chooseOption(page, selected.locator('.ant-select[data-testid="di-mapping-target"], .ant-select:has([data-testid="di-mapping-target"])').last(), '设备 · Vaccine Fridge');
    await selected.getByTestId('di-mapping-code').last().fill('ZJ-E2E-FRG-01');
    await selected.getByTestId('di-mapping-save').click();
    await selected.getByText('已保存').waitFor();
    await screenshot(page, 'data-interface-mapping-1440-zh-CN');

    const output = await passIntervals();
    assert.match(output, /accepted: \d+/);
    await selected.getByRole('tab', { name: '推送日志' }).click();
    await selected.getByTestId('di-log-refresh').click();
    const accepted = selected.locator('[data-status="accepted"]');
    await accepted.first().waitFor();
    const rows = await accepted.count();
    assert.ok(rows >= 2, `${rows} intervals accepted`);
    await selected.getByText('已接收').first().waitFor();
    assert.equal(province.badSignatures, 0);
    assert.equal(province.batches.size, rows);
    assert.equal(province.posts.length, rows, 'each interval reached the province once');
    const records = [...province.batches.values()].flatMap((upload) => upload.records);
    assert.ok(records.length > 0 && records.every((record) => record.equipmentCode === 'ZJ-E2E-FRG-01'));
    // Again at once: the intervals sent are not sent twice (a new one may just have ended).
    await passIntervals({ backdate: false });
    assert.equal(province.posts.length, province.batches.size, 'no batch reached the province twice');
    await screenshot(page, 'data-interface-log-1440-zh-CN');
    // as in device.test.mjs: a 404 of a static resource (the demo's images) is not an error of these pages
    assert.deepEqual(errors.filter((text) => !text.includes('404 (Not Found)')), []);
    await context.close();
  });

  test('390 px, en-US: the connector and its delivery log as cards', async () => {
    const context = await contextFor(browser, 'localhost', 'en-US', { width: 390, height: 844 });
    const page = await context.newPage();
    const errors = collectErrors(page);
    await useToken(page, 'localhost', token);
    await page.goto(siteUrl('localhost', '/dataInterface/index'));
    await closeMobileMenu(page);
    await page.getByTestId('di-connectors').getByText(NAME).click();
    const selected = page.getByTestId('di-selected');
    await selected.getByText(NAME).waitFor();
    await selected.getByRole('tab', { name: 'Delivery log' }).click();
    await selected.locator('[data-status="accepted"]').first().waitFor();
    await selected.getByText('Accepted').first().waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 1, `the page scrolls sideways by ${overflow}px`);
    await screenshot(page, 'data-interface-log-390-en-US');
    // as in device.test.mjs: a 404 of a static resource (the demo's images) is not an error of these pages
    assert.deepEqual(errors.filter((text) => !text.includes('404 (Not Found)')), []);
    await context.close();
  });
});
