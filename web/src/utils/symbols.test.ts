import { describe, expect, it } from 'vitest';
import { hasSymbols, stripSymbols } from './symbols';

describe('stripSymbols (spec section 5)', () => {
  it.each([
    ['冷库😀01', '冷库01'],
    ['👍🏽ok', 'ok'], // skin tone modifier
    ['👨‍👩‍👧 family', ' family'], // zero-width joiners
    ['❤️heart', 'heart'], // variation selector
    ['1️⃣ one', ' one'], // keycap
    ['🇨🇳China', 'China'], // flag
    ['★☎♥©name', 'name'],
    ['a\u0007b\u0000c', 'abc'],
    ['a\uE000b', 'ab'], // private use
  ])('%j -> %j', (value, expected) => {
    expect(stripSymbols(value)).toBe(expected);
  });

  it.each([
    '冷库_01 (A-3)',
    'Freezer #2, room 4.5%',
    'Zürich café',
    'user@example.com',
    'line\nbreak\ttab',
    '（中文）标点，。',
  ])('keeps %j', (value) => {
    expect(stripSymbols(value)).toBe(value);
    expect(hasSymbols(value)).toBe(false);
  });

  it('tells whether a value has something to strip, repeatedly', () => {
    expect(hasSymbols('a😀')).toBe(true);
    expect(hasSymbols('a😀')).toBe(true);
    expect(hasSymbols('a')).toBe(false);
  });
});
