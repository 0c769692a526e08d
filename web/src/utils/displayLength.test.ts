import { describe, expect, it } from 'vitest';
import { displayLength, shortLabel, truncateToDisplayLength } from './displayLength';

describe('displayLength (spec section 5)', () => {
  it.each([
    ['', 0],
    ['abc', 3],
    ['冷库', 4],
    ['冷库A1', 6],
    ['é', 2], // code 233
    ['\u0080', 1], // code 128 is not above 128
    ['\u0081', 2],
    ['😀', 2], // one code point
  ])('%j counts %i', (value, expected) => {
    expect(displayLength(value)).toBe(expected);
  });

  it('treats null and undefined as empty', () => {
    expect(displayLength(null)).toBe(0);
    expect(displayLength(undefined)).toBe(0);
  });

  it('truncates to a display length without splitting a character', () => {
    expect(truncateToDisplayLength('冷库AB', 3)).toBe('冷');
    expect(truncateToDisplayLength('冷库AB', 5)).toBe('冷库A');
    expect(truncateToDisplayLength('a😀b', 2)).toBe('a');
    expect(truncateToDisplayLength('abc', 10)).toBe('abc');
  });
});

describe('shortLabel (map labels)', () => {
  it('keeps a label that fits and shortens a longer one to the display width, ellipsis included', () => {
    expect(shortLabel('Cold Room 1', 12)).toBe('Cold Room 1');
    expect(shortLabel('上海冷库一号温度探头', 12)).toBe('上海冷库一…');
    expect(displayLength(shortLabel('上海冷库一号温度探头', 12))).toBeLessThanOrEqual(12);
    expect(shortLabel('Shanghai cold room number one', 12)).toBe('Shanghai c…');
    expect(displayLength(shortLabel('Shanghai cold room number one', 12))).toBe(12);
  });
});
