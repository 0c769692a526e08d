import { describe, expect, it } from 'vitest';
import type { SensorLimit, SensorLimitPeriod } from '@/api/alarm';
import type { DeviceParam } from '@/api/device';
import { limitStepsOf } from './limitSteps';

const probe = (extra: Partial<DeviceParam>): DeviceParam => ({
  paramKey: '0001',
  paramName: 'Temperature',
  paramType: 'sensor',
  probeId: 1,
  unit: '°C',
  unitCode: 'celsius',
  precision: 1,
  paramMin: -40,
  paramMax: 85,
  readWriteType: 'R',
  ...extra,
});
const humidity = probe({
  probeId: 2,
  paramKey: '0002',
  paramName: 'Humidity',
  unit: '%RH',
  unitCode: 'percent_rh',
  precision: 0,
});
const period = (extra: Partial<SensorLimitPeriod>): SensorLimitPeriod => ({
  sensor: 1,
  upperLimit: 8,
  lowerLimit: 2,
  delayMinutes: 0,
  enabled: true,
  validFrom: '1970-01-01T00:00:00+00:00',
  validTo: null,
  changedBy: null,
  reason: null,
  ...extra,
});
const label = (kind: string, value: string) => `${kind} ${value}`;
const T0 = Date.parse('2026-11-26T00:00:00+00:00');
const CHANGE = '2026-11-26T12:00:00+00:00';
const T1 = Date.parse('2026-11-27T00:00:00+00:00');

describe('limit steps from the limit history', () => {
  it('steps where the limit changed inside the range, labelled at each value', () => {
    const history = [period({ validTo: CHANGE }), period({ validFrom: CHANGE, upperLimit: 7.5 })];
    const [upper, lower] = limitStepsOf([probe({})], history, undefined, 'C', [T0, T1], label);
    expect(upper.data).toEqual([
      { x: T0, y: 8 },
      { x: Date.parse(CHANGE), y: 8 },
      { x: Date.parse(CHANGE), y: 7.5 },
      { x: T1, y: 7.5 },
    ]);
    expect(upper.labels.map((item) => item.text)).toEqual(['upper 8.0 °C', 'upper 7.5 °C']);
    expect(upper.name).toBe('upper 8.0 → 7.5 °C');
    expect(lower.labels.map((item) => item.text)).toEqual(['lower 2.0 °C']); // unchanged: one label
  });
  it('breaks where no limit was in force and converts temperatures only', () => {
    const history = [period({ validTo: CHANGE, enabled: false }), period({ validFrom: CHANGE })];
    const [upper] = limitStepsOf([probe({})], history, undefined, 'F', [T0, T1], label);
    expect(upper.data[0]).toEqual({ x: T0, y: null });
    expect(upper.labels[0].text).toBe('upper 46.4 °F');
    const wet = limitStepsOf(
      [humidity],
      [period({ sensor: 2, upperLimit: 80, lowerLimit: null })],
      undefined,
      'F',
      [T0, T1],
      label,
    );
    expect(wet.map((step) => [step.kind, step.unitText, step.labels[0].text])).toEqual([
      ['upper', '%RH', 'upper 80 %RH'],
    ]);
  });
  it('draws limits two sensors share once', () => {
    const history = [period({}), period({ sensor: 3 })];
    const steps = limitStepsOf(
      [probe({}), probe({ probeId: 3, paramKey: '0003' })],
      history,
      undefined,
      'C',
      [T0, T1],
      label,
    );
    expect(steps.map((step) => step.name)).toEqual(['upper 8.0 °C', 'lower 2.0 °C']);
  });
  it('draws the current limits over the whole range when a sensor has no history', () => {
    const current: SensorLimit[] = [{ sensor: 1, upperLimit: 8, lowerLimit: null, delayMinutes: 0, enabled: true }];
    const steps = limitStepsOf([probe({})], [], current, 'C', [T0, T1], label);
    expect(steps.map((step) => step.data)).toEqual([
      [
        { x: T0, y: 8 },
        { x: T1, y: 8 },
      ],
    ]);
    expect(limitStepsOf([probe({})], [], undefined, 'C', [T0, T1], label)).toEqual([]);
  });
});
