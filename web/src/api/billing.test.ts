import { describe, expect, it } from 'vitest';
import { money } from './billing';

describe('money', () => {
  it('shows integer cents with two decimals, never through floating point', () => {
    expect(money(44000)).toBe('¥440.00');
    expect(money(1, 'USD')).toBe('$0.01');
    expect(money(-1999)).toBe('-¥19.99');
    expect(money(12345, 'EUR')).toBe('EUR 123.45');
  });
});
