import { describe, expect, it } from 'vitest';
import { safeRedirect } from './redirect';

describe('safeRedirect', () => {
  it.each([
    ['/device/list?deviceName=a b', '/device/list?deviceName=a b'],
    ['/storage/detail/3', '/storage/detail/3'],
    [['/home/organization', '/x'], '/home/organization'],
  ])('keeps the same-site path %s', (value, expected) => {
    expect(safeRedirect(value)).toBe(expected);
  });

  it.each([undefined, '', 'device/list', 'https://evil.example', '//evil.example', '/\\evil.example', '/\t/evil.example', '/\n/evil'])(
    'refuses %j',
    (value) => {
      expect(safeRedirect(value)).toBe('/home');
    },
  );
});
