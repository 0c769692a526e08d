import { describe, expect, it } from 'vitest';
import type { DeviceParam } from '@/api/device';
import {
  celsiusToFahrenheit,
  checkSetting,
  fahrenheitToCelsius,
  hasEnergy,
  inUnit,
  positioned,
  presetRange,
  sensorParams,
  sensorSeries,
  statusTone,
  unitLabel,
  writableParams,
} from './helpers';

const param = (extra: Partial<DeviceParam>): DeviceParam => ({
  paramKey: '0001',
  paramName: 'Probe',
  paramType: 'sensor',
  probeId: 1,
  unit: '°C',
  unitCode: 'celsius',
  precision: 1,
  paramMin: -60,
  paramMax: 60,
  readWriteType: 'R',
  ...extra,
});

describe('statusTone', () => {
  it('maps states to antd preset tones', () => {
    expect(statusTone('online')).toBe('success');
    expect(statusTone('alarm')).toBe('error');
    expect(statusTone('fault')).toBe('warning');
    expect(statusTone('offline')).toBe('default');
    expect(statusTone('something')).toBe('default');
  });
});

describe('presetRange', () => {
  const now = new Date(2026, 10, 21, 15, 30, 0);
  it('today starts at local midnight', () => {
    const [start, end] = presetRange('today', now);
    expect(start).toEqual(new Date(2026, 10, 21, 0, 0, 0));
    expect(end).toBe(now);
  });
  it.each([
    ['halfHour', 30 * 60_000],
    ['h12', 12 * 3600_000],
    ['h24', 24 * 3600_000],
    ['d7', 7 * 86400_000],
    ['d15', 15 * 86400_000],
    ['d30', 30 * 86400_000],
    ['year', 365 * 86400_000],
  ] as const)('%s spans %d ms', (preset, span) => {
    const [start, end] = presetRange(preset, now);
    expect(end.getTime() - start.getTime()).toBe(span);
  });
});

describe('Celsius and Fahrenheit', () => {
  it('converts both ways', () => {
    expect(celsiusToFahrenheit(0)).toBe(32);
    expect(celsiusToFahrenheit(-40)).toBe(-40);
    expect(celsiusToFahrenheit(36.6)).toBeCloseTo(97.88);
    expect(fahrenheitToCelsius(212)).toBe(100);
    expect(inUnit(10, 'C')).toBe(10);
    expect(inUnit(10, 'F')).toBe(50);
  });
  it('labels temperatures by the switch, others by their unit', () => {
    expect(unitLabel(param({}), 'F')).toBe('°F');
    expect(unitLabel(param({ unit: 'kWh', unitCode: 'kwh' }), 'F')).toBe('kWh');
  });
});

describe('parameter groups', () => {
  const params = [
    param({ probeId: 2, paramKey: '0002' }),
    param({ probeId: 1 }),
    param({ paramKey: '0101', paramType: 'setting', probeId: null, readWriteType: 'RW', paramMin: 1, paramMax: 1440 }),
    param({ paramKey: '0009', paramType: 'energy', probeId: 9 }),
  ];
  it('sorts sensors, finds writable and energy params', () => {
    expect(sensorParams(params).map((p) => p.probeId)).toEqual([1, 2]);
    expect(writableParams(params).map((p) => p.paramKey)).toEqual(['0101']);
    expect(hasEnergy(params)).toBe(true);
    expect(hasEnergy(params.slice(0, 2))).toBe(false);
  });
  it('checks a setting against its bounds', () => {
    const setting = params[2];
    expect(checkSetting(setting, null)).toBe('required');
    expect(checkSetting(setting, 0)).toBe('range');
    expect(checkSetting(setting, 2000)).toBe('range');
    expect(checkSetting(setting, 10)).toBeNull();
  });
});

describe('sensorSeries', () => {
  const points = [
    { t: 1, v: 2, min: 1, max: 3 },
    { t: 2, v: null, min: null, max: null },
  ];
  it('is one line for raw data', () => {
    const series = sensorSeries('P1', points, false, 'band');
    expect(series).toHaveLength(1);
    expect(series[0].data).toEqual([
      { x: 1, y: 2 },
      { x: 2, y: null },
    ]);
  });
  it('adds a min/max band when bucketed', () => {
    const [band, line] = sensorSeries('P1', points, true, 'band');
    expect(band.type).toBe('rangeArea');
    // A point without a value is the api's gap marker: the band breaks there (y null) like the line.
    expect(band.data).toEqual([
      { x: 1, y: [1, 3] },
      { x: 2, y: null },
    ]);
    expect(line.type).toBe('line');
  });
});

describe('positioned', () => {
  it('keeps devices with a position', () => {
    expect(
      positioned([
        { lat: 1, lng: 2 },
        { lat: null, lng: null },
      ]),
    ).toEqual([{ lat: 1, lng: 2 }]);
  });
});
