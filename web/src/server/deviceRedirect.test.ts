import { describe, expect, it } from 'vitest';
import { deviceRedirect } from './deviceRedirect';

const PHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148';
const DESKTOP = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/130 Safari/537.36';

describe('waybill pages by device (spec 2.1)', () => {
  it('sends a phone from the PC waybill page to the mobile one', () => {
    expect(deviceRedirect('pcQuick.waybill', PHONE, '/pcQuick/waybill?id=SF1')).toBe('/mobileQuick/waybill?id=SF1');
    expect(deviceRedirect('pcQuick.waybill', DESKTOP, '/pcQuick/waybill?id=SF1')).toBeNull();
  });
  it('sends a desktop from the mobile waybill list to the PC one', () => {
    expect(deviceRedirect('mobileQuick.waybill.list', DESKTOP, '/mobileQuick/waybill?id=SF1')).toBe(
      '/pcQuick/waybill?id=SF1',
    );
    expect(deviceRedirect('mobileQuick.waybill.list', PHONE, '/mobileQuick/waybill?id=SF1')).toBeNull();
    expect(deviceRedirect('mobileQuick.waybill.detail', DESKTOP, '/mobileQuick/waybill/detail')).toBeNull();
  });
});
