import { describe, expect, it } from 'vitest';
import { bandLabel, budgetDuration, budgetWindow } from './BudgetPanel';
import { profileFormValues } from './ProfileForm';
import { bandSummary } from './ProfileListView';

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

  it("shows the window in the zone the api names, each end with that zone's offset", () => {
    const window = budgetWindow({
      windowStart: '2026-07-01T10:00:00+08:00',
      windowEnd: '2026-07-01T12:30:00+08:00',
      timeZone: 'Europe/Berlin',
    });
    expect(window).toBe('2026-07-01 04:00:00 UTC+02:00 ~ 2026-07-01 06:30:00 UTC+02:00');
    expect(budgetWindow({ windowStart: null, windowEnd: null, timeZone: 'Europe/Berlin' })).toBe('-');
  });

  it('lists each band of a profile with its allowed time', () => {
    const profile = {
      rangeHigh: 8,
      bands: [
        { low: 8, high: 25, hours: 72 },
        { low: null, high: 0, hours: 0.5 },
      ],
    };
    expect(bandSummary(t, profile)).toEqual(['8 < t ≤ 25 °C: budget:duration:72h0m', '< 0 °C: budget:duration:0h30m']);
  });

  it('fills the form with only the fields it sends back (an unchanged edit is accepted)', () => {
    const read = {
      id: 3,
      name: 'A',
      rangeLow: 2,
      rangeHigh: 8,
      mktLimit: null,
      alertPercent: 80,
      bands: [{ low: null, high: 0, hours: 0 }],
    };
    expect(profileFormValues(read)).toEqual({
      name: 'A',
      rangeLow: 2,
      rangeHigh: 8,
      mktLimit: null,
      alertPercent: 80,
      bands: [{ low: null, high: 0, hours: 0 }],
    });
    expect(profileFormValues(null).bands).toHaveLength(1);
  });
});
