import { describe, expect, it } from 'vitest';
import { deviceListHref, initialExpiredFlag } from './ExpiredDevicesModal';

describe('expired devices modal helpers', () => {
  it('starts on the reported flag, else on 2', () => {
    expect(initialExpiredFlag(1)).toBe(1);
    expect(initialExpiredFlag(3)).toBe(3);
    expect(initialExpiredFlag(0)).toBe(2);
    expect(initialExpiredFlag(undefined)).toBe(2);
  });
  it('links to the list filtered by name', () => {
    expect(deviceListHref('Cold Room 1')).toBe('/device/list?deviceName=Cold%20Room%201');
  });
});
