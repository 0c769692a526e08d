import { describe, expect, it } from 'vitest';
import { bandLabel, budgetDuration } from './BudgetPanel';

const t = (key: string, options?: Record<string, unknown>) => `${key}:${options?.hours}h${options?.minutes}m`;

describe('budget texts', () => {
  it('labels bands by the side of the labelled range they lie on, edges as the api counts them', () => {
    expect(bandLabel({ low: 8, high: 25 }, 8)).toBe('8 < t ≤ 25 °C');
    expect(bandLabel({ low: 40, high: null }, 8)).toBe('> 40 °C');
    expect(bandLabel({ low: null, high: 0 }, 8)).toBe('< 0 °C');
    expect(bandLabel({ low: -20, high: 0 }, 8)).toBe('-20 ≤ t < 0 °C');
  });

  it('shows seconds as hours and minutes, rounded to the minute', () => {
    expect(budgetDuration(t, 72 * 3600)).toBe('budget:duration:72h0m');
    expect(budgetDuration(t, 3629)).toBe('budget:duration:1h0m');
    expect(budgetDuration(t, 3631)).toBe('budget:duration:1h1m');
    expect(budgetDuration(t, undefined)).toBe('budget:duration:0h0m');
  });
});
