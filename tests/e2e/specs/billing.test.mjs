// Issue 24 in the browser, against the local WeChat Pay fake (tests/payment_fakes.py): buy a year of
// service for two devices (the QR code is shown, the fake delivers its signed notification to the
// api, the devices' expiry moves a year), request an invoice and redeem a recharge card, in English
// at 1440 px and in Chinese at 390 px; on a phone's browser (390 px, issue 47) WeChat H5 and Alipay wap
// open the fakes' cashiers, which notify the api and send the payer back to /mobilePay/success; the
// receipt names seller, buyer and tax.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { api, apiLogin, closeMobileMenu, collectErrors, contextFor, launch, screenshot, siteUrl, useToken, API_PORT } from './browser.mjs';
import { startPaymentFakes } from './payments.mjs';

const FAKE_PORT = Number(API_PORT) + 700; // WeChat Pay; Alipay and PayPal on the next two
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const YEAR_PRICE = 22000; // the demo package's Basic level, one year: 199.00 + 21.00 per device

let browser;
let fakes;

before(async () => {
  fakes = await startPaymentFakes(FAKE_PORT);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  fakes?.kill();
});

async function devicesNamed(token, names) {
  const { body } = await api('localhost', 'POST', '/device/Device/page', { token, body: { start: 1, pageSize: 50 } });
  return names.map((name) => body.data.list.find((d) => d.deviceName === name));
}

async function expiryOf(token, id) {
  const { body } = await api('localhost', 'GET', `/device/Device/detail/${id}`, { token });
  return new Date(body.data.serviceExpiredDate);
}

function aYearLater(date) {
  const next = new Date(date);
  next.setUTCFullYear(next.getUTCFullYear() + 1);
  return next;
}

async function newCard(levelId = 1) {
  const operator = await apiLogin('localhost', 'operator');
  const { body: packages } = await api('localhost', 'POST', '/billing/ServicePackage/page', { token: operator, body: { start: 1, pageSize: 10 } });
  const pkg = packages.data.list.find((p) => p.packageCode === '10000001');
  const validTo = new Date(Date.now() + 30 * 86400_000).toISOString();
  const { body } = await api('localhost', 'POST', '/billing/RechargeCard/generate', {
    token: operator,
    body: { prefix: 'E2E', packageId: pkg.id, levelId, months: 12, count: 1, validTo },
  });
  assert.equal(body.code, 0, JSON.stringify(body));
  return body.data[0].code;
}

async function buyAYear(page, token, devices) {
  const before = await Promise.all(devices.map((d) => expiryOf(token, d.id)));
  await page.goto(siteUrl('localhost', `/consumer/recharge?deviceIds=${devices.map((d) => d.id).join(',')}`));
  if (page.viewportSize().width < 576) await closeMobileMenu(page); // a phone opens on the menu drawer
  const price = page.getByTestId('buy-price');
  await page.waitForFunction((cents) => document.querySelector('[data-testid="buy-price"]')?.getAttribute('data-cents') === String(cents), 2 * YEAR_PRICE);
  assert.match(await price.textContent(), /440\.00/);
  await screenshot(page, `billing-buy-${page.viewportSize().width}`);
  await page.getByTestId('buy-submit').click();
  const qr = page.getByTestId('wechat-qr');
  await qr.waitFor();
  const orderCode = await qr.getAttribute('data-order-code');
  assert.match(await qr.getAttribute('data-code-url'), /^weixin:\/\/wxpay\/bizpayurl\?pr=/);
  assert.ok(await qr.locator('canvas, svg').count(), 'the QR code is drawn');
  await screenshot(page, `billing-qr-${page.viewportSize().width}`);
  // The payer scans and pays: the fake signs its notification with its platform certificate and posts it to the api.
  const scanned = await fetch(`http://127.0.0.1:${FAKE_PORT}/fake/scan/${orderCode}`);
  assert.equal(scanned.status, 200);
  await page.getByTestId('pay-success').waitFor({ timeout: 20_000 });
  const after = await Promise.all(devices.map((d) => expiryOf(token, d.id)));
  after.forEach((value, i) => assert.equal(value.toISOString(), aYearLater(before[i]).toISOString()));
  return orderCode;
}

/** A year for one device, ordered through the api (the phone pays it on /mobilePay/pay). */
async function orderAYear(token, device) {
  const operator = await apiLogin('localhost', 'operator');
  const { body: packages } = await api('localhost', 'POST', '/billing/ServicePackage/page', { token: operator, body: { start: 1, pageSize: 10 } });
  const pkg = packages.data.list.find((p) => p.packageCode === '10000001');
  const order = { deviceIds: [device.id], packageId: pkg.id, levelId: pkg.levels[0].levelId, months: 12 };
  const { body } = await api('localhost', 'POST', '/billing/Order/insert', { token, body: order });
  assert.equal(body.code, 0, JSON.stringify(body));
  return body.data.orderCode;
}

/** On the phone's pay page: the chosen provider's cashier, its pay link, back on the success page, paid. */
async function payOnPhone(page, orderCode, button, cashierHost) {
  await page.goto(siteUrl('localhost', `/mobilePay/pay?orderCode=${orderCode}`));
  await page.getByTestId('mobile-pay').waitFor();
  assert.equal(await page.getByTestId('mobile-pay').getAttribute('data-flow'), 'h5');
  await page.getByTestId(button).click();
  await page.waitForURL((url) => url.port === String(cashierHost));
  await screenshot(page, `billing-${button}-cashier-390`);
  await page.locator('#pay').click();
  await page.waitForURL((url) => url.pathname === '/mobilePay/success' && url.searchParams.get('orderCode') === orderCode);
  await page.getByTestId('pay-result').getByText('支付成功，服务已延长').waitFor({ timeout: 20_000 });
  await screenshot(page, `billing-${button}-success-390`);
}

async function redeem(page, token, device, deviceLabel, tabName) {
  const code = await newCard();
  const before = await expiryOf(token, device.id);
  await page.getByRole('tab', { name: tabName }).click();
  await page.getByTestId('card-code').fill(code);
  await page.locator('#deviceId').click();
  await page.locator('.ant-select-item-option', { hasText: deviceLabel }).first().click();
  await page.getByTestId('card-submit').click();
  await page.getByTestId('card-done').waitFor();
  assert.equal((await expiryOf(token, device.id)).toISOString(), aYearLater(before).toISOString());
}

describe('billing (issue 24)', () => {
  test('buy a year for two devices with WeChat Pay, request an invoice, redeem a card (1440 px, English)', async () => {
    const context = await contextFor(browser, 'localhost', 'en-US', DESKTOP);
    const page = await context.newPage();
    const errors = collectErrors(page);
    const token = await apiLogin('localhost', 'demouser');
    await useToken(page, 'localhost', token);
    const devices = await devicesNamed(token, ['Pharmacy Fridge', 'Vaccine Fridge']);
    const orderCode = await buyAYear(page, token, devices);
    await page.keyboard.press('Escape');

    await page.getByRole('tab', { name: 'My orders' }).click();
    const row = page.getByTestId('order-list').locator(`[data-order-code="${orderCode}"]`);
    await row.getByText('Paid').waitFor();
    await row.locator('input[type="checkbox"]').check();
    await page.getByTestId('invoice-add').click();
    await page.locator('#billName').fill('Demo Cold Chain');
    await page.locator('#personalName').fill('Demo User');
    await page.getByTestId('invoice-save').click();
    await page.getByTestId('invoice-info').getByText('Demo Cold Chain').waitFor();
    await page.getByTestId('invoice-request').click();
    await page.getByTestId('invoice-requests').getByText('Requested').waitFor();
    await row.getByText('Requested').waitFor();
    await screenshot(page, 'billing-orders-1440');

    await redeem(page, token, devices[0], 'Pharmacy Fridge', 'Recharge card');
    await screenshot(page, 'billing-card-1440');
    assert.deepEqual(errors.filter((e) => !e.includes('404 (Not Found)')), []);
    await context.close();
  });

  test('buy a year for two devices with WeChat Pay and redeem a card (390 px, Chinese)', async () => {
    const context = await contextFor(browser, 'localhost', 'zh-CN', PHONE);
    const page = await context.newPage();
    const errors = collectErrors(page);
    const token = await apiLogin('localhost', 'demouser');
    await useToken(page, 'localhost', token);
    const devices = await devicesNamed(token, ['Cold Room 1', 'Lab Freezer -80']);
    await buyAYear(page, token, devices);
    await page.getByText('支付成功，服务已延长').waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('tab', { name: '我的订单' }).click();
    await page.getByTestId('order-list').getByText('已支付').first().waitFor();
    await redeem(page, token, devices[1], 'Lab Freezer -80', '充值卡');
    await screenshot(page, 'billing-card-390');
    assert.deepEqual(errors.filter((e) => !e.includes('404 (Not Found)')), []);
    await context.close();
  });

  test("pays on a phone's browser with WeChat H5 and Alipay wap, and shows the receipt (390 px, Chinese)", async () => {
    const context = await contextFor(browser, 'localhost', 'zh-CN', PHONE, { userAgent: IPHONE_UA, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    const errors = collectErrors(page);
    const token = await apiLogin('localhost', 'demouser');
    await useToken(page, 'localhost', token);
    const [device] = await devicesNamed(token, ['Cold Room 1']);

    const before = await expiryOf(token, device.id);
    const wechatOrder = await orderAYear(token, device);
    await payOnPhone(page, wechatOrder, 'mobile-pay-wechat', FAKE_PORT);
    assert.equal((await expiryOf(token, device.id)).toISOString(), aYearLater(before).toISOString());

    const alipayOrder = await orderAYear(token, device);
    await payOnPhone(page, alipayOrder, 'mobile-pay-alipay', FAKE_PORT + 1);
    assert.equal((await expiryOf(token, device.id)).toISOString(), aYearLater(aYearLater(before)).toISOString());

    await page.goto(siteUrl('localhost', `/receipt?orderCode=${alipayOrder}`));
    await page.getByTestId('receipt-seller').waitFor();
    await page.getByTestId('receipt-buyer').getByText('购买方').waitFor();
    await page.getByTestId('receipt-tax').getByText('含税（金额已含税，未单列税率）').waitFor();
    await screenshot(page, 'billing-receipt-390');
    assert.deepEqual(errors.filter((e) => !e.includes('404 (Not Found)')), []);
    await context.close();
  });
});
