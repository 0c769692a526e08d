import { describe, expect, it } from 'vitest';
import { displayLength, truncateToDisplayLength } from './displayLength';

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
