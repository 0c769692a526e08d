// Issue 8 in the browser: exports requested from the device detail reach "generated" in the
// download centre without a reload and download (the CSV read here, the XLSX opened with openpyxl);
// a scheduled report refuses a duplicate receiver, and "send now" emails its PDF to the SMTP sink.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chooseOption, apiLogin, collectErrors, contextFor, launch, MAILBOX, screenshot, siteUrl, useToken, closeMobileMenu, selectOf } from './browser.mjs';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const PYTHON = path.join(ROOT, '.venv/bin/python');
const DEVICE = 'Vaccine Fridge'; // a one-probe logger with 30 days of five-minute history

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

async function signedIn(viewport) {
  const context = await contextFor(browser, 'localhost', 'en-US', viewport);
  const page = await context.newPage();
  const errors = collectErrors(page);
  await useToken(page, 'localhost', await apiLogin('localhost', 'demouser'));
  return { context, page, errors: () => errors.filter((text) => !text.includes('404 (Not Found)')) };
}

async function openDevice(page) {
  await page.goto(siteUrl('localhost', '/device/list'));
  await page.getByTestId('device-table').getByText(DEVICE).click();
  await page.waitForURL((url) => /^\/device\/detail\/\d+$/.test(url.pathname));
  await page.getByTestId('device-title').getByText(DEVICE).waitFor();
}

async function requestExport(page, format) {
  await page.getByTestId('export-open').click();
  const form = page.getByTestId('export-form');
  await form.waitFor();
  await form.getByTestId('export-format').getByText(format).click();
  await page.getByTestId('export-submit').click();
  await page.getByTestId('export-queued').waitFor();
}

/** The download centre's newest row reaches "generated" while the page stays loaded; its file is downloaded. */
async function downloadNewest(page) {
  await page.goto(siteUrl('localhost', '/consumer/download'));
  const row = page.getByTestId('file-table').locator('tbody tr[data-file-id]').first();
  await row.waitFor();
  await page.evaluate(() => {
    window.__sameDocument = true;
  });
  await row.locator('[data-testid="file-status"][data-status="generated"]').waitFor({ timeout: 60_000 });
  assert.equal(await page.evaluate(() => window.__sameDocument), true, 'the row changed without a reload');
  const [download] = await Promise.all([page.waitForEvent('download'), row.getByTestId('file-download').click()]);
  const file = await download.path();
  return { name: download.suggestedFilename(), bytes: fs.readFileSync(file), file };
}

describe('exports and the download centre (issue 8)', () => {
  test('a CSV and an XLSX export of the demo device are generated and downloaded', async () => {
    const { context, page, errors } = await signedIn();
    await openDevice(page);
    await requestExport(page, 'CSV');
    const csv = await downloadNewest(page);
    assert.match(csv.name, /^Vaccine Fridge_\d{8}-\d{8}\.csv$/);
    assert.deepEqual([...csv.bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'UTF-8 BOM');
    const lines = csv.bytes.toString('utf8').slice(1).trim().split('\r\n');
    assert.match(lines[0], /^Device name,GUID,Time \(.+\),Temperature \(°C\),Back-filled,Calibration overdue$/);
    // The readings, then a blank line and the per-sensor summary (limits, excursions, MKT, completeness).
    const blank = lines.indexOf('');
    const readings = lines.slice(1, blank === -1 ? undefined : blank);
    assert.ok(blank > 0, 'a summary follows the readings');
    assert.ok(readings.length > 250 && readings.length < 300, `a day of five-minute readings, got ${readings.length}`);
    assert.ok(readings.every((line) => line.startsWith('Vaccine Fridge,')));
    await screenshot(page, 'download-center-1440');

    await openDevice(page);
    await requestExport(page, 'Excel (XLSX)');
    const xlsx = await downloadNewest(page);
    assert.match(xlsx.name, /\.xlsx$/);
    const opened = spawnSync(
      PYTHON,
      [
        '-c',
        // The download is saved without an extension, so the workbook is opened from its bytes.
        'import io, sys, json; from openpyxl import load_workbook; ' +
          'b = load_workbook(io.BytesIO(open(sys.argv[1], "rb").read()), read_only=True); ' +
          's = b[b.sheetnames[1]]; rows = list(s.iter_rows(values_only=True)); ' +
          'print(json.dumps({"sheets": b.sheetnames, "rows": len(rows) - 1, "header": [str(c) for c in rows[0]], "first": rows[1][2]}))',
        xlsx.file,
      ],
      { encoding: 'utf8' },
    );
    assert.equal(opened.status, 0, opened.stderr);
    const book = JSON.parse(opened.stdout);
    assert.deepEqual(book.sheets, ['Summary', DEVICE, 'Calibration', 'Alarms']); // each probe's certificate, then the alarm list, as the PDF has them
    assert.ok(book.rows > 250 && book.rows < 300, `rows ${book.rows}`);
    // Time, its UTC offset (a DST hour is never ambiguous), then the readings.
    assert.equal(book.header[1], 'UTC offset');
    assert.equal(book.header[2], 'Temperature (°C)');
    assert.equal(typeof book.first, 'number');
    assert.deepEqual(errors(), []);
    await context.close();
  });

  test('the download centre works at 390 px', async () => {
    const { context, page, errors } = await signedIn({ width: 390, height: 844 });
    await page.goto(siteUrl('localhost', '/consumer/download'));
    await closeMobileMenu(page);
    // Cards below the tablet breakpoint (the shared list component).
    await page.getByTestId('file-table').locator('[data-testid="list-card"][data-file-id]').first().waitFor();
    await screenshot(page, 'download-center-390');
    assert.deepEqual(errors(), []);
    await context.close();
  });

  test('a scheduled report refuses a duplicate receiver and emails its PDF', async () => {
    const { context, page, errors } = await signedIn();
    const email = `qa-${Date.now()}@example.com`;
    await page.goto(siteUrl('localhost', '/consumer/download'));
    await page.getByRole('tab', { name: 'Scheduled reports' }).click();
    await page.getByTestId('report-add').click();
    const form = page.getByTestId('report-form');
    await form.locator('#reportName').fill('Weekly vaccine');
    await chooseOption(page, selectOf(form, '[data-testid="report-frequency"]'), 'Weekly', { exact: true });
    // A multiple select stays open after a pick: clicking the name field closes it (Escape would close the form).
    await form.getByTestId('report-devices').click();
    const device = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').getByText(DEVICE);
    await device.waitFor();
    await page.waitForTimeout(300); // the dropdown's opening motion: a click during it is lost
    await device.click();
    await form.locator('#reportName').click();
    const receivers = form.getByTestId('report-receivers');
    await receivers.getByPlaceholder('Name').first().fill('QA');
    await receivers.getByPlaceholder('Email').first().fill(email);
    await receivers.getByText('Add receiver').click();
    await receivers.getByPlaceholder('Name').nth(1).fill('QA again');
    await receivers.getByPlaceholder('Email').nth(1).fill(email.toUpperCase());
    await page.locator('.ant-modal').getByRole('button', { name: 'Save' }).click();
    await form.getByText('Duplicate receiver phone or email').waitFor();
    await receivers.getByRole('button', { name: 'Delete' }).last().click();
    await page.locator('.ant-modal').getByRole('button', { name: 'Save' }).click();
    const row = page.getByTestId('report-table').locator('tbody tr', { hasText: 'Weekly vaccine' });
    await row.waitFor();
    await screenshot(page, 'scheduled-reports-1440');

    const since = Date.now();
    await row.getByTestId('report-send-now').click();
    const deadline = Date.now() + 60_000;
    let mail;
    while (!mail && Date.now() < deadline) {
      const lines = fs.existsSync(MAILBOX) ? fs.readFileSync(MAILBOX, 'utf8').split('\n').filter(Boolean) : [];
      mail = lines.map((line) => JSON.parse(line)).find((item) => item.to === email && item.at >= since);
      if (!mail) await new Promise((resolve) => setTimeout(resolve, 500));
    }
    assert.ok(mail, `no report mail to ${email}`);
    assert.match(mail.subject, /Weekly vaccine/);
    assert.equal(mail.attachments.length, 1);
    assert.equal(mail.attachments[0].type, 'application/pdf');
    assert.ok(mail.attachments[0].head.startsWith('%PDF'), 'a PDF is attached');
    assert.ok(mail.attachments[0].size > 10_000);

    // The report's file is in the download centre too.
    await page.getByRole('tab', { name: 'Files' }).click();
    await page.getByTestId('file-table').getByText(/^Weekly vaccine_/).first().waitFor();
    assert.deepEqual(errors(), []);
    await context.close();
  });
});
