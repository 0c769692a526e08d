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

  it.each([
    undefined,
    '',
    'device/list',
    'https://evil.com',
    '//evil.com',
    '//evil.com/home',
    '/\\evil.com',
    '\\evil.com',
    '/\t/evil.com',
    '/\n/evil.com',
    'javascript:alert(1)',
    'JavaScript:alert(document.cookie)',
    ' javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    ['//evil.com', '/home'],
  ])('refuses %j and lands on a safe page', (value) => {
    expect(safeRedirect(value)).toBe('/home');
  });

  it('lands on the given fallback (the landing of the site)', () => {
    expect(safeRedirect('//evil.com', '/device/list')).toBe('/device/list');
  });

  it('resolves every kept value to this origin', () => {
    for (const value of ['/a', '/a//b', '/%2F%2Fevil.com', '/a?next=//evil.com']) {
      expect(new URL(safeRedirect(value), 'https://site.example').origin).toBe('https://site.example');
    }
  });
});
