// Issue 47, the calibration service as whole jobs, through the pages, with texts from the web's locale
// files. The calibration customer (demouser): on a phone (en-US, 390 px, a phone's user agent) and at
// the desk (zh-CN, 1440 px). One of their loggers reports over MQTT; they sign in with the form, order
// its calibration (its GUID as the serial, which ties the order to the device), pay against the local
// WeChat Pay fake (the phone: WeChat H5 on the payment area's page; the desk: the order page's QR
// dialog), ship it, follow the order's state on its page; the lab's side is done through the api as
// set-up; the customer downloads the certificate PDF, and the device's page shows its calibration.
// The lab admin (labadmin): at the desk (zh-CN, 1440 px) and on a phone (en-US, 390 px). A customer's
// order is made through the api; the lab admin signs in to the calibration admin pages, finds it in
// all orders, confirms it (paid by bank transfer), records the instruments received once the customer
// has shipped, enters readings and uncertainties per point in the results form (the deviations are
// shown as the api computed them), issues the certificate and sees the order completed; the customer's
// side (the api) then holds the certificate and its PDF.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, afterEach, before, describe, test } from 'node:test';
import { API_PORT, WEB_PORT, api, apiLogin, closeMobileMenu, collectErrors, contextFor, launch, openDropdown, screenshot, signInWithForm, siteUrl } from './browser.mjs';
import { startPaymentFakes } from './payments.mjs';
import { issueGuid, publishReadings } from './fleet.mjs';
import { text } from './journey.mjs';

const FAKE_PORT = Number(API_PORT) + 720; // WeChat Pay, Alipay and PayPal on the next two (billing +700, calibration +710)
const APP = '/calibration/Application';
const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const PHONE = { lang: 'en-US', viewport: { width: 390, height: 844 }, phone: true };
const DESK = { lang: 'zh-CN', viewport: { width: 1440, height: 900 }, phone: false };
const { SUBMITTED, CONFIRMED, SHIPPED, RECEIVED, CALIBRATING, COMPLETED } = { SUBMITTED: 1, CONFIRMED: 2, SHIPPED: 3, RECEIVED: 4, CALIBRATING: 5, COMPLETED: 6 };

async function ok(answer) {
  assert.equal(answer.body?.code, 0, JSON.stringify(answer.body));
  return answer.body.data;
}

const orderInfo = async (token, applicationId) => ok(await api('localhost', 'GET', `${APP}/get/applicationInfo?applicationId=${applicationId}`, { token }));

/** The certificate PDF as the customer's browser asks for it (the api helper reads JSON only). */
async function certificatePdf(token, applicationId) {
  const response = await fetch(`http://127.0.0.1:${API_PORT}/api${APP}/download/order?applicationId=${applicationId}`, {
    headers: { Authorization: `Bearer ${token}`, 'X-Forwarded-Host': `localhost:${WEB_PORT}`, 'X-Forwarded-For': `198.19.${process.pid % 250}.7` },
  });
  return { status: response.status, type: response.headers.get('content-type'), body: Buffer.from(await response.arrayBuffer()) };
}

/** The status tag of the order's own page, showing `status` in the page's language. */
function orderStatus(page, lang, status) {
  return page.getByTestId('calibration-order-detail').getByTestId('calibration-status').filter({ hasText: text(lang, 'calibration', `status.${status}`) }).first();
}

async function confirmPopover(page) {
  const button = page.locator('.ant-popover:not(.ant-popover-hidden) .ant-btn-primary');
  await button.waitFor();
  await page.waitForTimeout(300); // its opening motion: a click during it is lost
  await button.click();
}

function realErrors(errors) {
  return errors.filter((e) => !e.includes('Failed to load resource') && !e.includes('404 (Not Found)'));
}

let browser;
let fakes;
const cleanups = [];
before(async () => {
  fakes = await startPaymentFakes(FAKE_PORT);
  browser = await launch();
});
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()();
});
after(async () => {
  await browser?.close();
  fakes?.kill();
});

/** The lab's side of an order, through the api: received, results at every point, certificate issued. */
async function labCalibrates(applicationId) {
  const lab = await apiLogin('localhost', 'labadmin');
  await ok(await api('localhost', 'PUT', `${APP}/applicationStatus`, { token: lab, body: { applicationId, status: RECEIVED } }));
  const detail = await orderInfo(lab, applicationId);
  for (const item of detail.items) {
    const results = item.points.map((reference, index) => ({ pointNo: index + 1, reference, reading: reference + 0.05, uncertainty: 0.1, passed: true }));
    await ok(await api('localhost', 'POST', '/calibration/ResultInfo/insert', { token: lab, body: { itemId: item.itemId, results } }));
  }
  await ok(await api('localhost', 'PUT', `${APP}/confirmCalibration`, { token: lab, body: { applicationId, validMonths: 12 } }));
}

describe('calibration journeys (issue 47)', () => {
  for (const setting of [PHONE, DESK]) {
    const { lang, viewport, phone } = setting;
    const width = viewport.width;
    test(`the calibration customer: a logger reporting over MQTT, its calibration ordered, paid, shipped, followed, the certificate downloaded and on the device (${lang}, ${width} px${phone ? ', phone' : ''})`, async () => {
      const token = await apiLogin('localhost', 'demouser');
      // Set-up: a logger of the customer's that reports over MQTT (removed again at the end).
      const guid = issueGuid('8002');
      const deviceName = phone ? 'Calib 390' : '校准记录仪 1440';
      const device = await ok(await api('localhost', 'POST', '/device/Device/add', { token, body: { deviceGuid: guid, deviceName, timeZone: 'Asia/Shanghai' } }));
      cleanups.push(async () => {
        await api('localhost', 'POST', '/device/Device/batch', { token, body: { action: 'delete', deviceIds: [device.id] } });
      });
      publishReadings(guid, [{ ts: Date.now(), readings: { 1: 4.2, 2: 48 }, battery: 95 }]);

      const context = await contextFor(browser, 'localhost', lang, viewport, phone ? { userAgent: IPHONE_UA, isMobile: true, hasTouch: true } : {});
      const page = await context.newPage();
      const errors = collectErrors(page);
      let applicationId;
      if (phone) {
        // On the phone: the calibration service's own sign-in, its order list, a new order.
        await page.goto(siteUrl('localhost', '/mobile/calibration/login'));
        await page.getByTestId('calibration-login-mobile').waitFor();
        await signInWithForm(page, 'demouser');
        await page.waitForURL(/\/mobile\/calibration\/home/);
        await page.getByTestId('calibration-mobile-orders').waitFor();
        await page.getByTestId('calibration-new-order').click();
        await openDropdown(page).locator('.ant-dropdown-menu-item').first().click();
        await page.waitForURL(/\/mobile\/calibration\/apply/);
      } else {
        // At the desk: the console's sign-in; the logger's page shows its reading and offers a calibration.
        await page.goto(siteUrl('localhost', '/user/login'));
        await signInWithForm(page, 'demouser');
        await page.waitForURL((url) => !url.pathname.startsWith('/user/login'));
        await page.goto(siteUrl('localhost', `/device/detail/${device.id}`));
        await page.getByTestId('realtime').getByText(/4\.2\s*°C/).first().waitFor({ timeout: 30_000 });
        const order = page.getByTestId('device-calibration-order');
        assert.match(await order.textContent(), new RegExp(text(lang, 'calibration', 'certificate.order')));
        await order.click();
        await page.waitForURL(/\/calibration\/form/);
      }

      // The application: the logger's GUID as the serial, three points.
      await page.getByTestId('calibration-form').waitFor();
      await page.getByTestId('calibration-company').fill('Demo Cold Chain Co.');
      await page.getByTestId('calibration-contact').fill('Demo User');
      await page.getByTestId('calibration-phone').fill('13800000000');
      await page.getByTestId('calibration-model-0').fill('TH-20');
      await page.getByTestId('calibration-serial-0').fill(guid);
      await page.getByTestId('calibration-points-0').fill('-20, 0, 25');
      await page.getByTestId('calibration-preview').click();
      await page.getByTestId('calibration-preview-page').getByText(guid).waitFor();
      await page.getByTestId('calibration-total').waitFor();
      const applied = page.waitForResponse((response) => response.url().includes(`/api${APP}/apply`) && response.request().method() === 'POST');
      await page.getByTestId('calibration-submit').click();
      const appliedAnswer = await (await applied).json();
      assert.equal(appliedAnswer.code, 0, JSON.stringify(appliedAnswer));
      applicationId = appliedAnswer.data.applicationId;
      const orderPage = siteUrl('localhost', `${phone ? '/mobile' : ''}/calibration/order/${applicationId}`);
      if (phone) {
        await page.getByTestId('calibration-apply-success').waitFor();
        await page.goto(orderPage);
      } else {
        await page.waitForURL(new RegExp(`/calibration/order/${applicationId}`));
      }
      await orderStatus(page, lang, SUBMITTED).waitFor();
      const submitted = await orderInfo(token, applicationId);
      assert.equal(submitted.items[0].serial, guid);
      assert.equal(submitted.items[0].deviceId, device.id, 'the order is tied to the logger by its GUID');
      await screenshot(page, `journey-calibration-customer-submitted-${lang}-${width}`);

      // Paid: the phone on the payment area's page (WeChat H5 cashier of the fake), the desk in the dialog (QR code).
      await page.getByTestId('calibration-pay').click();
      if (phone) {
        await page.waitForURL(/\/mobilePay\/pay\?/);
        assert.equal(await page.getByTestId('mobile-pay').getAttribute('data-flow'), 'h5');
        await page.getByTestId('mobile-pay-wechat').click();
        await page.waitForURL((url) => url.port === String(FAKE_PORT));
        await page.locator('#pay').click();
        await page.waitForURL((url) => url.pathname === '/mobilePay/success');
        await page.getByTestId('pay-result').locator('.ant-result-success').waitFor({ timeout: 20_000 });
        await screenshot(page, `journey-calibration-customer-paid-${lang}-${width}`);
        // Back to the phone's order page, though WeChat's cashier returned with the order number only.
        await page.getByTestId('pay-return').click();
        await page.waitForURL((url) => url.pathname === `/mobile/calibration/order/${applicationId}`);
      } else {
        await page.getByTestId('calibration-pay-dialog').waitFor();
        assert.equal(await page.getByTestId('calibration-pay-amount').getAttribute('data-cents'), String(submitted.totalPrice));
        await page.getByTestId('calibration-pay-start').click();
        const qr = page.getByTestId('wechat-qr');
        await qr.waitFor();
        const scanned = await fetch(`http://127.0.0.1:${FAKE_PORT}/fake/scan/${await qr.getAttribute('data-order-code')}`);
        assert.equal(scanned.status, 200);
        await page.locator('[data-testid="calibration-payment"][data-pay-status="paid"]').waitFor({ timeout: 20_000 });
        await screenshot(page, `journey-calibration-customer-paid-${lang}-${width}`);
        await page.keyboard.press('Escape');
      }
      await orderStatus(page, lang, CONFIRMED).waitFor({ timeout: 20_000 });
      const paid = await orderInfo(token, applicationId);
      assert.equal(paid.payment.payStatus, 'paid');
      assert.equal(paid.payment.payFee, submitted.totalPrice);

      // Shipped with its tracking number; the order says so.
      await page.getByTestId('calibration-tracking-form').waitFor();
      await page.locator('#trackingCompany').fill('SF Express');
      await page.getByTestId('calibration-tracking-number').fill(`SF${applicationId}0047`);
      await page.getByTestId('calibration-tracking-submit').click();
      await page.getByTestId('calibration-tracking-form').waitFor({ state: 'detached' });
      await orderStatus(page, lang, SHIPPED).waitFor();

      // The lab receives, calibrates and issues the certificate (its own journey does this through its pages).
      await labCalibrates(applicationId);
      await page.reload();
      await orderStatus(page, lang, COMPLETED).waitFor();
      const done = await orderInfo(token, applicationId);
      assert.equal(done.certificates.length, 1);
      const certificateNumber = done.certificates[0].certificateNumber;
      await page.getByTestId('calibration-verify-link').filter({ hasText: certificateNumber }).waitFor();
      await page.getByTestId('calibration-history').getByText(text(lang, 'calibration', `status.${COMPLETED}`)).first().waitFor();

      // The certificate downloads: the PDF arrives as a file.
      const pdfAnswer = page.waitForResponse((response) => response.url().includes(`/api${APP}/download/order`));
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('calibration-download').click()]);
      const answer = await pdfAnswer;
      assert.equal(answer.status(), 200);
      assert.match(answer.headers()['content-type'], /application\/pdf/);
      assert.match(download.suggestedFilename(), /\.pdf$/);
      const file = fs.readFileSync(await download.path());
      assert.equal(file.subarray(0, 5).toString('latin1'), '%PDF-');
      await screenshot(page, `journey-calibration-customer-completed-${lang}-${width}`);

      // The logger's page shows its calibration: the next due date and the certificate.
      await page.goto(siteUrl('localhost', `/device/detail/${device.id}`));
      await closeMobileMenu(page);
      const calibration = page.getByTestId('device-calibration');
      await calibration.waitFor();
      assert.ok((await calibration.textContent()).includes(text(lang, 'calibration', 'certificate.due')));
      await calibration.getByText(certificateNumber).waitFor();
      const onDevice = await ok(await api('localhost', 'GET', `/calibration/Certificate/device?deviceId=${device.id}`, { token }));
      assert.equal(onDevice.certificateNumber, certificateNumber);
      assert.equal(onDevice.overdue, false);
      assert.match(await page.getByTestId('device-calibration-due').textContent(), /^\d{4}-\d{2}-\d{2}$/);
      if (phone) await page.getByTestId('realtime').getByText(/4\.2\s*°C/).first().waitFor({ timeout: 30_000 });
      await screenshot(page, `journey-calibration-customer-device-${lang}-${width}`);

      assert.deepEqual(realErrors(errors), []);
      await context.close();
    });
  }

  for (const setting of [DESK, PHONE]) {
    const { lang, viewport } = setting;
    const width = viewport.width;
    test(`the lab admin: a customer's order received, confirmed, the instruments recorded, results per point entered, the certificate issued (${lang}, ${width} px)`, async () => {
      // Set-up: a customer's order, through the api.
      const customer = await apiLogin('localhost', 'demouser');
      const serial = `SN-LAB-${width}-${Date.now() % 100000}`;
      const item = { deviceModel: 'TH-20', serial, quantity: 1, points: [-20, 0, 25], range: '-40~85 °C', unit: '°C', level: 'standard' };
      const order = await ok(
        await api('localhost', 'POST', `${APP}/apply`, {
          token: customer,
          body: { company: `Lab Journey ${width}`, contact: 'Li Wei', phone: '13800000000', email: 'li@example.com', address: 'Road 1', items: [item] },
        }),
      );
      const { applicationId, orderNo } = order;

      const context = await contextFor(browser, 'localhost', lang, viewport);
      const page = await context.newPage();
      const errors = collectErrors(page);
      await page.goto(siteUrl('localhost', '/calibration/admin/login'));
      await page.getByTestId('calibration-login-admin').waitFor();
      await signInWithForm(page, 'labadmin');
      await page.waitForURL((url) => !url.pathname.startsWith('/calibration/admin/login'));

      // All orders: the new one found by its number, opened.
      await page.goto(siteUrl('localhost', '/calibration/admin/orders'));
      const list = page.getByTestId('calibration-admin-orders');
      await list.waitFor();
      await page.getByPlaceholder(text(lang, 'calibration', 'admin.search')).fill(orderNo);
      const entry = list.locator('tr, [data-testid="list-card"]', { hasText: orderNo }).first();
      await entry.waitFor();
      // The search narrows the list to that order.
      await list.locator('tr.ant-table-row, [data-testid="list-card"]').filter({ hasNotText: orderNo }).first().waitFor({ state: 'detached', timeout: 15_000 });
      await entry.getByText(text(lang, 'calibration', `status.${SUBMITTED}`)).first().waitFor();
      await screenshot(page, `journey-calibration-lab-orders-${lang}-${width}`);
      await entry.getByRole('link', { name: orderNo }).click();
      await page.waitForURL(new RegExp(`/calibration/admin/order/${applicationId}`));
      await page.getByTestId('calibration-admin-actions').waitFor();

      // Paid by bank transfer: the lab confirms the order.
      await page.getByTestId(`calibration-move-${CONFIRMED}`).click();
      await confirmPopover(page);
      await orderStatus(page, lang, CONFIRMED).waitFor();

      // The customer ships (set-up); the lab records the instruments received.
      await ok(await api('localhost', 'PUT', `${APP}/trackingNumber`, { token: customer, body: { applicationId, trackingCompany: 'SF Express', trackingNumber: `SF${applicationId}0047` } }));
      await page.reload();
      await orderStatus(page, lang, SHIPPED).waitFor();
      await page.getByTestId(`calibration-move-${RECEIVED}`).click();
      await confirmPopover(page);
      await orderStatus(page, lang, RECEIVED).waitFor();

      // Results per point: readings and uncertainties through the form; the deviations come back.
      const detail = await orderInfo(customer, applicationId);
      const itemId = detail.items[0].itemId;
      const form = page.getByTestId(`calibration-results-${itemId}`);
      await form.waitFor();
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
      await screenshot(page, `journey-calibration-lab-results-${lang}-${width}`);
      const saved = page.waitForResponse((response) => response.url().includes('/api/calibration/ResultInfo/insert'));
      await page.getByTestId(`calibration-save-results-${itemId}`).click();
      assert.equal((await (await saved).json()).code, 0);
      await orderStatus(page, lang, CALIBRATING).waitFor();
      const lab = await apiLogin('localhost', 'labadmin');
      const results = await ok(await api('localhost', 'GET', `/calibration/ResultInfo/queryResultList?applicationId=${applicationId}`, { token: lab }));
      assert.deepEqual(
        results[0].results.map((r) => [r.reference, r.reading, r.uncertainty]),
        [
          [-20, -20.08, 0.08],
          [0, 0.03, 0.06],
          [25, 25.11, 0.07],
        ],
      );
      const savedForm = page.getByTestId(`calibration-results-${itemId}`);
      for (const result of results[0].results) await savedForm.getByText(result.error.toFixed(3), { exact: true }).first().waitFor();

      // The certificate issued: the order is completed and carries it.
      await page.getByTestId('calibration-confirm').click();
      await confirmPopover(page);
      await orderStatus(page, lang, COMPLETED).waitFor();
      const verify = page.getByTestId('calibration-verify-link').first();
      await verify.waitFor();
      await screenshot(page, `journey-calibration-lab-completed-${lang}-${width}`);

      // The customer's side: the order completed with the certificate, and its PDF.
      const mine = await orderInfo(customer, applicationId);
      assert.equal(mine.calibrationStatus, COMPLETED);
      assert.equal(mine.certificates.length, 1);
      assert.equal(await verify.textContent(), mine.certificates[0].certificateNumber);
      const pdf = await certificatePdf(customer, applicationId);
      assert.equal(pdf.status, 200);
      assert.match(pdf.type, /application\/pdf/);
      assert.equal(pdf.body.subarray(0, 5).toString('latin1'), '%PDF-');

      assert.deepEqual(realErrors(errors), []);
      await context.close();
    });
  }
});
