import { describe, expect, it } from 'vitest';
import type { Alarm } from '@/api/alarm';
import { alarmValue, alarmValues } from './format';

describe('alarm values carry their unit (issue 47)', () => {
  const alarm = { kind: 'upper', unit: '°C', lastValue: 9.5, limitValue: 8 } as Alarm;
  it('in the message and alarm tables', () => {
    expect(alarmValues(alarm)).toBe('9.5 °C / 8 °C');
    expect(alarmValue({ unit: '%RH' }, 81)).toBe('81 %RH');
    expect(alarmValue({ unit: '%RH' }, null)).toBe('-');
    expect(alarmValues({ ...alarm, kind: 'offline' } as Alarm)).toBe('-');
    // a stability budget alarm: the share of its band used
    expect(alarmValues({ ...alarm, kind: 'budget', unit: null, lastValue: 83.3 } as Alarm)).toBe('83.3 %');
  });
});
