import { describe, expect, it } from 'vitest';
import { STATUS, type ApplicationPayment } from '@/api/calibration';
import { canPay, mobilePayPath, orderPath } from './payment';

const unpaid: ApplicationPayment = {
  applicationId: 5,
  orderCode: 'CO2611241330AB12CD',
  payFee: 36000,
  currency: 'CNY',
  payStatus: 'unpaid',
  payType: null,
  payTime: null,
  refundTime: null,
};
const order = { owner: true, calibrationStatus: STATUS.submitted, cancelRequested: false, payment: null };

describe('canPay', () => {
  it('lets the customer pay a submitted order, with or without an open order', () => {
    expect(canPay(order)).toBe(true);
    expect(canPay({ ...order, payment: unpaid })).toBe(true);
    expect(canPay({ ...order, payment: { ...unpaid, payStatus: 'closed' } })).toBe(true);
  });

  it.each([
    ['the lab', { ...order }, true],
    ['someone else', { ...order, owner: false }, false],
    ['a paid order', { ...order, payment: { ...unpaid, payStatus: 'paid' as const } }, false],
    ['a confirmed order', { ...order, calibrationStatus: STATUS.confirmed }, false],
    ['a cancelled order', { ...order, calibrationStatus: STATUS.cancelled }, false],
    ['a rejected order', { ...order, calibrationStatus: STATUS.rejected }, false],
    ['a cancellation waiting', { ...order, cancelRequested: true }, false],
  ])('refuses %s', (_, row, admin) => {
    expect(canPay(row, admin)).toBe(false);
  });
});

describe('paths', () => {
  it('names the order page of each layout', () => {
    expect(orderPath(5, false)).toBe('/calibration/order/5');
    expect(orderPath(5, true)).toBe('/mobile/calibration/order/5');
  });

  it('sends the phone to the payment page with its way back', () => {
    expect(mobilePayPath('CO1', '/mobile/calibration/order/5')).toBe(
      '/mobilePay/pay?orderCode=CO1&back=%2Fmobile%2Fcalibration%2Forder%2F5',
    );
  });
});
