// Issue 26 in the browser: a scheduled backup configured on /service/scheduledBackup (range,
// frequency, archives kept), backed up now by the real worker, and its archive downloaded through the
// page and verified (every entry's SHA-256 against the manifest); at 1440 px in Chinese and 390 px in
// English.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { api, apiLogin, closeMobileMenu, collectErrors, contextFor, launch, screenshot, siteUrl, useToken } from './browser.mjs';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const PYTHON = path.join(ROOT, '.venv/bin/python');
const NAME = 'E2E backup';

// Every entry of the archive against the manifest's checksum; prints "<entries> <devices> <readings>".
const VERIFY = `
import hashlib, json, sys, zipfile
archive = zipfile.ZipFile(sys.argv[1])
manifest = json.loads(archive.read("manifest.json"))
for entry in manifest["files"]:
    content = archive.read(entry["path"])
    assert hashlib.sha256(content).hexdigest() == entry["sha256"], entry["path"]
    assert len(content) == entry["bytes"], entry["path"]
print(len(manifest["files"]), len(manifest["devices"]), sum(d["readings"] for d in manifest["devices"]))
`;

let browser;
let token;
before(async () => {
  browser = await launch();
  token = await apiLogin('localhost', 'demouser');
});
after(async () => {
  const listed = await api('localhost', 'POST', '/report/BackupSchedule/page', { token, body: { start: 1, pageSize: 50 } });
  for (const schedule of listed.body?.data?.list ?? []) {
    if (schedule.name === NAME) await api('localhost', 'DELETE', `/report/BackupSchedule/delete/${schedule.id}`, { token });
  }
  await browser?.close();
});

describe('scheduled backup (issue 26)', () => {
  test('1440 px, zh-CN: configure a backup, back up now, download the archive and verify its checksums', async () => {
    const context = await contextFor(browser, 'localhost', 'zh-CN');
    const page = await context.newPage();
    const errors = collectErrors(page);
    await useToken(page, 'localhost', token);
    await page.goto(siteUrl('localhost', '/service/scheduledBackup'));
    await page.getByTestId('scheduled-backups').waitFor();
    await page.getByTestId('backup-add').click();
    const form = page.getByTestId('backup-form');
    await form.locator('#name').fill(NAME);
    await form.locator('#rangeDays').fill('3');
    await form.locator('#keepCount').fill('2');
    await page.getByTestId('backup-save').click();
    const row = page.getByTestId('backup-table').locator('[data-backup-id]', { hasText: NAME });
    await row.waitFor();
    await row.getByText('最近 3 天').waitFor();

    await row.getByTestId('backup-run-now').click();
    const archives = page.getByTestId('backup-archives');
    const generated = archives.locator('[data-status="generated"]');
    await generated.first().waitFor({ timeout: 90_000 });
    await archives.getByText(/^E2E backup_\d{8}-\d{4}\.zip$/).first().waitFor();
    await screenshot(page, 'backup-1440-zh-CN');

    const [download] = await Promise.all([page.waitForEvent('download'), archives.getByTestId('file-download').first().click()]);
    assert.match(download.suggestedFilename(), /^E2E backup_.*\.zip$/);
    const file = await download.path();
    const verified = spawnSync(PYTHON, ['-c', VERIFY, file], { cwd: ROOT, encoding: 'utf8' });
    assert.equal(verified.status, 0, verified.stderr);
    const [entries, devices, readings] = verified.stdout.trim().split(' ').map(Number);
    assert.ok(devices >= 1 && entries === devices + 1, verified.stdout);
    assert.ok(readings > 0, 'the demo devices have readings in the last 3 days');

    // The same archive is in the download centre.
    const files = await api('localhost', 'POST', '/report/ExportFile/page', { token, body: { start: 1, pageSize: 50 } });
    assert.ok(files.body.data.list.some((item) => item.fileType === 'zip' && item.fileName.startsWith(NAME)));
    assert.deepEqual(errors.filter((text) => !text.includes('404 (Not Found)')), []);
    await context.close();
  });

  test('390 px, en-US: the schedule and its archives as cards', async () => {
    const context = await contextFor(browser, 'localhost', 'en-US', { width: 390, height: 844 });
    const page = await context.newPage();
    const errors = collectErrors(page);
    await useToken(page, 'localhost', token);
    await page.goto(siteUrl('localhost', '/service/scheduledBackup'));
    await closeMobileMenu(page);
    const card = page.getByTestId('backup-table').locator('[data-backup-id]', { hasText: NAME });
    await card.waitFor();
    await card.getByText('Last 3 days').waitFor();
    await card.getByTestId('backup-show-archives').click();
    await page.getByTestId('backup-archives').locator('[data-status="generated"]').first().waitFor();
    await page.getByText(`Archives of ${NAME} (the newest 2 are kept)`).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 1, `the page scrolls sideways by ${overflow}px`);
    await screenshot(page, 'backup-390-en-US');
    assert.deepEqual(errors.filter((text) => !text.includes('404 (Not Found)')), []);
    await context.close();
  });
});
