import { beforeEach, describe, expect, it, vi } from 'vitest';
import { payerReturnPath, rememberReturn, returnPathOf } from './returnPath';

describe('returnPathOf', () => {
  it('goes back to a same-site page only', () => {
    expect(returnPathOf('/mobile/calibration/order/5', { returnPath: '/calibration/order/5' })).toBe(
      '/mobile/calibration/order/5',
    );
    expect(returnPathOf(undefined, { returnPath: '/calibration/order/5' })).toBe('/calibration/order/5');
    expect(returnPathOf('//evil.com', { returnPath: '/calibration/order/5' })).toBe('/calibration/order/5');
    expect(returnPathOf('https://evil.com', null)).toBe('/consumer/recharge');
    expect(returnPathOf(undefined, { returnPath: 'javascript:alert(1)' })).toBe('/consumer/recharge');
    expect(returnPathOf(undefined, undefined)).toBe('/consumer/recharge');
  });
});

describe('payerReturnPath', () => {
  // The tab's session storage (the tests run in node).
  beforeEach(() => {
    const kept = new Map<string, string>();
    const sessionStorage = {
      getItem: (key: string) => kept.get(key) ?? null,
      setItem: (key: string, value: string) => void kept.set(key, value),
      removeItem: (key: string) => void kept.delete(key),
    };
    vi.stubGlobal('window', { sessionStorage });
  });

  it("brings a phone payer back to the page that sent them, after the provider's cashier dropped ?back=", () => {
    const order = { orderCode: 'P100', returnPath: '/calibration/order/5' };
    expect(payerReturnPath(undefined, order)).toBe('/calibration/order/5');
    rememberReturn('P100', '/mobile/calibration/order/5');
    expect(payerReturnPath(undefined, order)).toBe('/mobile/calibration/order/5');
    // Another order in the same tab keeps its own way back; an explicit ?back= wins.
    expect(payerReturnPath(undefined, { orderCode: 'P101', returnPath: '/calibration/order/6' })).toBe(
      '/calibration/order/6',
    );
    expect(payerReturnPath('/consumer/recharge', order)).toBe('/consumer/recharge');
  });

  it('never keeps a way off the site', () => {
    rememberReturn('P102', '//evil.com/x');
    expect(payerReturnPath(undefined, { orderCode: 'P102', returnPath: '/calibration/order/7' })).toBe(
      '/calibration/order/7',
    );
  });
});
