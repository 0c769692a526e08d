import { describe, expect, it } from 'vitest';
import { returnPathOf } from './returnPath';

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
