import { describe, expect, it } from 'vitest';
import { passwordAgeWarning } from './passwordAge';

const changed = '2026-01-01T00:00:00+08:00';
const day = 86_400_000;
const at = (days: number) => Date.parse(changed) + days * day + 3_600_000;

describe('passwordAgeWarning (spec 5: from day 75, 90-day lifetime)', () => {
  it('says nothing before day 75', () => {
    expect(passwordAgeWarning(changed, at(0))).toBeNull();
    expect(passwordAgeWarning(changed, at(74))).toBeNull();
  });

  it('warns from day 75 with 90 minus the elapsed days', () => {
    expect(passwordAgeWarning(changed, at(75))).toEqual({ elapsed: 75, daysLeft: 15 });
    expect(passwordAgeWarning(changed, at(89))).toEqual({ elapsed: 89, daysLeft: 1 });
    expect(passwordAgeWarning(changed, at(95))).toEqual({ elapsed: 95, daysLeft: -5 });
  });

  it('ignores a missing or unreadable date', () => {
    expect(passwordAgeWarning(null)).toBeNull();
    expect(passwordAgeWarning('soon')).toBeNull();
  });
});
