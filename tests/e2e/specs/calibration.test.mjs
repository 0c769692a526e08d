// Issue 25 in the browser: the calibration service. A customer (demouser) applies on the phone
// layout and pays through the payment area against the local WeChat Pay fake (English: the desktop
// order page's dialog; Chinese: the phone's pay page, back to the order), the lab admin (labadmin,
// seed-demo) records results per point and confirms the calibration, the customer downloads the certificate PDF (file name from content-disposition) on
// the phone and on the desktop; a cancelled order's download shows 'this order has been cancelled'.
// At 390 and 1440 px, in both languages.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { api, apiLogin, collectErrors, contextFor, launch, openDropdown, screenshot, signInWithForm, siteUrl, useToken, API_PORT } from './browser.mjs';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const FAKE_PORT = Number(API_PORT) + 710; // WeChat Pay (Alipay and PayPal on the next two); billing's spec uses +700
const PHONE = { width: 390, height: 844 };
const APP = '/calibration/Application';

let browser;
let fakes;
before(async () => {
  fakes = spawn(path.join(ROOT, '.venv/bin/python'), ['-m', 'tests.payment_fakes', String(FAKE_PORT)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: fakes.stdout });
  const configs = await new Promise((resolve, reject) => {
    lines.once('line', (line) => resolve(JSON.parse(line)));
    fakes.once('exit', (code) => reject(new Error(`payment fakes exited with ${code}`)));
  });
  const operator = await apiLogin('localhost', 'operator');
  const config = { ...configs.wechat, notifyBase: `http://127.0.0.1:${API_PORT}` };
  const { body } = await api('localhost', 'PUT', '/billing/PaymentMerchant/save', { token: operator, body: { provider: 'wechat', config } });
  assert.equal(body.code, 0, JSON.stringify(body));
  browser = await launch();
});
after(async () => {
  await browser?.close();
  fakes?.kill();
});

/** The payer scans the QR code: the fake signs its notification and posts it to the api. */
async function scan(qr) {
  const orderCode = await qr.getAttribute('data-order-code');
  const scanned = await fetch(`http://127.0.0.1:${FAKE_PORT}/fake/scan/${orderCode}`);
  assert.equal(scanned.status, 200);
  return orderCode;
}

async function ok(answer) {
  assert.equal(answer.body?.code, 0, JSON.stringify(answer.body));
  return answer.body.data;
}

async function confirmPopover(page) {
  const button = page.locator('.ant-popover:not(.ant-popover-hidden) .ant-btn-primary');
  await button.waitFor();
  await page.waitForTimeout(200);
  await button.click();
}

function realErrors(errors) {
  return errors.filter((e) => !e.includes('Failed to load resource'));
}

describe('calibration service (issue 25)', () => {
  for (const [lang, labels] of [
    ['en-US', { title: 'Calibration Service', cancelled: 'this order has been cancelled', completed: 'Completed' }],
    ['zh-CN', { title: '校准服务', cancelled: '该订单已取消', completed: '已完成' }],
  ]) {
    test(`apply on the phone, lab records and confirms, certificate downloaded (${lang}, 390 + 1440 px)`, async () => {
      const serial = `SN-E2E-${lang}-${Date.now() % 100000}`;
      // 1. The customer signs in on the phone and applies.
      const phone = await contextFor(browser, 'localhost', lang, PHONE);
      const page = await phone.newPage();
      const errors = collectErrors(page);
      await page.goto(siteUrl('localhost', '/mobile/calibration/login'));
      await page.getByTestId('calibration-login-mobile').waitFor();
      assert.equal(await page.title(), labels.title);
      await signInWithForm(page, 'demouser');
      await page.waitForURL(/\/mobile\/calibration\/home/);
      await page.getByTestId('calibration-mobile-orders').waitFor();
      await page.getByTestId('calibration-search').waitFor();
      await screenshot(page, `calibration-mobile-home-${lang}-390`);
      await page.getByTestId('calibration-new-order').click();
      await openDropdown(page).locator('.ant-dropdown-menu-item').first().click();
      await page.waitForURL(/\/mobile\/calibration\/apply/);
      // An empty item list is refused in the form.
      await page.getByTestId('calibration-remove-item-0').click();
      await page.getByTestId('calibration-company').fill('Demo Cold Chain Co.');
      await page.getByTestId('calibration-contact').fill('Demo User');
      await page.getByTestId('calibration-phone').fill('13800000000');
      await page.getByTestId('calibration-preview').click();
      await page.locator('.ant-form-item-explain-error').first().waitFor();
      await page.getByTestId('calibration-add-item').click();
      await page.getByTestId('calibration-model-0').fill('TH-20');
      await page.getByTestId('calibration-serial-0').fill(serial);
      await page.getByTestId('calibration-points-0').fill('-20, 0, 25');
      await screenshot(page, `calibration-mobile-apply-${lang}-390`);
      await page.getByTestId('calibration-preview').click();
      await page.getByTestId('calibration-preview-page').waitFor();
      await page.getByTestId('calibration-total').waitFor();
      await screenshot(page, `calibration-mobile-preview-${lang}-390`);
      await page.getByTestId('calibration-submit').click();
      await page.getByTestId('calibration-apply-success').waitFor();
      const applicationId = Number(new URL(page.url()).searchParams.get('id'));
      assert.ok(applicationId > 0, page.url());
      await screenshot(page, `calibration-mobile-success-${lang}-390`);

      // 2. The customer pays online; the verified payment confirms the order; the customer ships on the phone.
      const labToken = await apiLogin('localhost', 'labadmin');
      const customerToken = await apiLogin('localhost', 'demouser');
      const submitted = await ok(await api('localhost', 'GET', `${APP}/get/applicationInfo?applicationId=${applicationId}`, { token: customerToken }));
      assert.ok(submitted.totalPrice > 0 && submitted.calibrationStatus === 1);
      let orderCode;
      if (lang === 'en-US') {
        const payDesk = await contextFor(browser, 'localhost', lang);
        const payer = await payDesk.newPage();
        await useToken(payer, 'localhost', customerToken);
        await payer.goto(siteUrl('localhost', `/calibration/order/${applicationId}`));
        await payer.getByTestId('calibration-pay').click();
        await payer.getByTestId('calibration-pay-dialog').waitFor();
        assert.equal(await payer.getByTestId('calibration-pay-amount').getAttribute('data-cents'), String(submitted.totalPrice));
        await payer.getByTestId('calibration-pay-start').click();
        const qr = payer.getByTestId('wechat-qr');
        await qr.waitFor();
        await screenshot(payer, `calibration-pay-qr-${lang}-1440`);
        orderCode = await scan(qr);
        await payer.locator('[data-testid="calibration-payment"][data-pay-status="paid"]').waitFor({ timeout: 20_000 });
        await payer.getByTestId('calibration-history-payment').filter({ hasText: orderCode }).waitFor();
        await screenshot(payer, `calibration-paid-${lang}-1440`);
        await payDesk.close();
        await page.goto(siteUrl('localhost', `/mobile/calibration/order/${applicationId}`));
      } else {
        await page.goto(siteUrl('localhost', `/mobile/calibration/order/${applicationId}`));
        await page.getByTestId('calibration-pay').click();
        await page.waitForURL(/\/mobilePay\/pay\?/);
        await page.getByTestId('mobile-pay-wechat').click();
        const qr = page.getByTestId('wechat-qr');
        await qr.waitFor();
        orderCode = await scan(qr);
        await page.getByTestId('pay-result').waitFor({ timeout: 20_000 });
        await screenshot(page, `calibration-mobile-paid-${lang}-390`);
        await page.getByTestId('pay-return').click();
        await page.waitForURL(new RegExp(`/mobile/calibration/order/${applicationId}`));
      }
      const paid = await ok(await api('localhost', 'GET', `${APP}/get/applicationInfo?applicationId=${applicationId}`, { token: customerToken }));
      assert.equal(paid.calibrationStatus, 2);
      assert.equal(paid.payment.orderCode, orderCode);
      assert.equal(paid.payment.payFee, submitted.totalPrice);
      await page.getByTestId('calibration-tracking-form').waitFor();
      await page.locator('#trackingCompany').fill('SF Express');
      await page.getByTestId('calibration-tracking-number').fill('SF1234567890');
      await page.getByTestId('calibration-tracking-submit').click();
      await page.getByTestId('calibration-tracking-form').waitFor({ state: 'detached' });

      // 3. The lab admin signs in on the desktop, receives, records results per point and confirms.
      const desk = await contextFor(browser, 'localhost', lang);
      const lab = await desk.newPage();
      const labErrors = collectErrors(lab);
      await lab.goto(siteUrl('localhost', `/calibration/admin/order/${applicationId}`));
      await lab.waitForURL(/\/calibration\/admin\/login/);
      await signInWithForm(lab, 'labadmin');
      await lab.waitForURL(new RegExp(`/calibration/admin/order/${applicationId}`));
      await lab.getByTestId('calibration-admin-actions').waitFor();
      await lab.getByTestId('calibration-enter-certificate').waitFor();
      await lab.getByTestId('calibration-quick-list-link').waitFor();
      await lab.getByTestId('calibration-move-4').click();
      await confirmPopover(lab);
      await lab.getByTestId('calibration-move-5').waitFor();
      const detail = await ok(await api('localhost', 'GET', `${APP}/get/applicationInfo?applicationId=${applicationId}`, { token: labToken }));
      const itemId = detail.items[0].itemId;
      const form = lab.getByTestId(`calibration-results-${itemId}`);
      const inputs = form.locator('input.ant-input-number-input');
      const readings = [
        ['-20.08', '0.08'],
        ['0.03', '0.06'],
        ['25.11', '0.07'],
      ];
      for (const [row, [reading, uncertainty]] of readings.entries()) {
        await inputs.nth(row * 3 + 1).fill(reading);
        await inputs.nth(row * 3 + 2).fill(uncertainty);
      }
      await screenshot(lab, `calibration-admin-results-${lang}-1440`);
      await lab.getByTestId(`calibration-save-results-${itemId}`).click();
      await lab.getByTestId('calibration-confirm').waitFor();
      await lab.getByTestId('calibration-confirm').click();
      await confirmPopover(lab);
      await lab.getByTestId('calibration-status').filter({ hasText: labels.completed }).first().waitFor();
      await lab.getByTestId('calibration-verify-link').first().waitFor();
      await screenshot(lab, `calibration-admin-confirmed-${lang}-1440`);
      const results = await ok(await api('localhost', 'GET', `/calibration/ResultInfo/queryResultList?applicationId=${applicationId}`, { token: labToken }));
      assert.deepEqual(
        results[0].results.map((r) => r.reading),
        [-20.08, 0.03, 25.11],
      );

      // 4. The customer downloads the certificate on the phone and on the desktop.
      await page.goto(siteUrl('localhost', `/mobile/calibration/order/${applicationId}`));
      const [phoneDownload] = await Promise.all([page.waitForEvent('download'), page.getByTestId('calibration-download').click()]);
      assert.match(phoneDownload.suggestedFilename(), /^certificate-CA\d+\.pdf$|^[A-Z]+-\d{4}-\d+\.pdf$/);
      await screenshot(page, `calibration-mobile-detail-${lang}-390`);
      const customerDesk = await contextFor(browser, 'localhost', lang);
      const customer = await customerDesk.newPage();
      const customerErrors = collectErrors(customer);
      await useToken(customer, 'localhost', customerToken);
      await customer.goto(siteUrl('localhost', `/calibration/order/${applicationId}`));
      await customer.getByTestId('calibration-history').waitFor();
      const [deskDownload] = await Promise.all([customer.waitForEvent('download'), customer.getByTestId('calibration-download').click()]);
      assert.ok(deskDownload.suggestedFilename().endsWith('.pdf'), deskDownload.suggestedFilename());
      await screenshot(customer, `calibration-detail-${lang}-1440`);

      assert.deepEqual(realErrors(errors), []);
      assert.deepEqual(realErrors(labErrors), []);
      assert.deepEqual(realErrors(customerErrors), []);
      await phone.close();
      await desk.close();
      await customerDesk.close();
    });

    for (const [width, viewport] of [
      [1440, undefined],
      [390, PHONE],
    ]) {
      test(`a cancelled order's download shows the message (${lang}, ${width} px)`, async () => {
        const token = await apiLogin('localhost', 'demouser');
        const page_ = await ok(await api('localhost', 'POST', `${APP}/page/ApplicationOrder`, { token, body: { status: 7, pageSize: 10 } }));
        const cancelled = page_.list[0];
        assert.ok(cancelled, 'seed-demo gives demouser a cancelled order');
        const context = await contextFor(browser, 'localhost', lang, viewport);
        const page = await context.newPage();
        const errors = collectErrors(page);
        await useToken(page, 'localhost', token);
        if (width === 1440) {
          await page.goto(siteUrl('localhost', '/calibration/orders'));
          await page.getByTestId('calibration-orders').waitFor();
        } else {
          await page.goto(siteUrl('localhost', `/mobile/calibration/home?orderNo=${cancelled.orderNo}`));
          await page.getByTestId('calibration-mobile-orders').waitFor();
        }
        let downloads = 0;
        page.on('download', () => {
          downloads += 1;
        });
        await page.getByTestId(`calibration-download-${cancelled.orderNo}`).click();
        await page.locator('.ant-message').getByText(labels.cancelled).waitFor();
        await screenshot(page, `calibration-cancelled-${lang}-${width}`);
        assert.equal(downloads, 0);
        assert.deepEqual(realErrors(errors), []);
        await context.close();
      });
    }
  }
});

describe('the phone order list scrolls on (spec 9: infinite scroll within 50 px)', () => {
  test('more orders than one page: the next page comes when the end is reached (390 px)', async () => {
    const token = await apiLogin('localhost', 'demouser');
    const before_ = await ok(await api('localhost', 'POST', `${APP}/page/ApplicationOrder`, { token, body: { start: 1, pageSize: 10 } }));
    for (let made = before_.total; made < 12; made += 1) {
      const item = { deviceModel: 'TH-20', serial: `SN-SCROLL-${made}`, quantity: 1, points: [0, 25], range: '-40~85 °C', unit: '°C', level: 'standard' };
      await ok(await api('localhost', 'POST', `${APP}/apply`, { token, body: { company: 'Acme', contact: 'Li Wei', phone: '13800000000', email: 'li@example.com', address: 'Road 1', items: [item] } }));
    }
    const total = (await ok(await api('localhost', 'POST', `${APP}/page/ApplicationOrder`, { token, body: { start: 1, pageSize: 10 } }))).total;
    const context = await contextFor(browser, 'localhost', 'en-US', PHONE);
    const page = await context.newPage();
    const errors = collectErrors(page);
    await useToken(page, 'localhost', token);
    await page.goto(siteUrl('localhost', '/mobile/calibration/home'));
    const list = page.getByTestId('calibration-mobile-order-list');
    const rows = list.locator('.ant-list-item');
    await rows.nth(9).waitFor();
    await page.getByTestId('infinite-list-end').scrollIntoViewIfNeeded();
    await rows.nth(Math.min(total, 20) - 1).waitFor();
    assert.equal(await rows.count(), Math.min(total, 20));
    assert.equal(await list.getAttribute('data-pages'), '2');
    assert.deepEqual(realErrors(errors), []);
    await context.close();
  });
});
