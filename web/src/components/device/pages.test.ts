import { describe, expect, it } from 'vitest';
import type { SensorLimit } from '@/api/alarm';
import type { BatchResult, DeviceCommand, DeviceParam } from '@/api/device';
import { normalizePanels, statusListHref, HOME_PANELS, MIN_HOME_PANELS } from '@/components/home/homePanels';
import { fitProjection, trackPath } from '@/components/map/projection';
import { actionKey, batchParamsBlocker, describeResults } from './BatchBar';
import { limitLinesOf } from './ChartTab';
import { appliedValues } from './DetailTabs';
import { queryStatus } from './DeviceListView';
import { valueEntries } from './format';
import { trackLengthKm } from './TrackTab';

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

describe('list values', () => {
  it('carry the parameter name, precision and unit', () => {
    const sensors = [
      { probeId: 1, paramName: 'Temperature', unit: '°C', unitCode: 'celsius', precision: 1 },
      { probeId: 2, paramName: 'Humidity', unit: '%RH', unitCode: 'percent_rh', precision: 0 },
    ];
    expect(valueEntries({ '2': 61.46, '1': 4.04 }, sensors)).toEqual([
      { sensor: '1', label: 'Temperature', text: '4.0', unit: '°C' },
      { sensor: '2', label: 'Humidity', text: '61', unit: '%RH' },
    ]);
    expect(valueEntries({ '7': 1 }, sensors)).toEqual([{ sensor: '7', label: '#7', text: '1.0', unit: '' }]);
  });
});

describe('home panels', () => {
  it('keeps known panels in page order and at least the minimum', () => {
    expect(normalizePanels(['map', 'search', 'counts', 'recent', 'pinned', 'bogus'])).toEqual(['search', 'counts', 'map', 'pinned', 'recent']);
    expect(normalizePanels(['map'])).toEqual([...HOME_PANELS]);
    expect(normalizePanels(null)).toEqual([...HOME_PANELS]);
    expect(HOME_PANELS.length).toBeGreaterThanOrEqual(MIN_HOME_PANELS);
  });
  it('links counts to the filtered list', () => {
    expect(statusListHref('all')).toBe('/device/list');
    expect(statusListHref('not_enabled')).toBe('/device/list?status=not_enabled');
    expect(queryStatus('online')).toBe('online');
    expect(queryStatus('bogus')).toBeNull();
    expect(queryStatus(undefined)).toBeNull();
  });
});

describe('offline map projection', () => {
  const points = [
    { lat: 31.23, lng: 121.47 },
    { lat: 30.27, lng: 120.15 },
  ];
  it('fits every point inside the box, north up', () => {
    const projection = fitProjection(points, 400, 300, 20);
    for (const point of points) {
      const { x, y } = projection.project(point);
      expect(x).toBeGreaterThanOrEqual(20);
      expect(x).toBeLessThanOrEqual(380);
      expect(y).toBeGreaterThanOrEqual(20);
      expect(y).toBeLessThanOrEqual(280);
    }
    expect(projection.project(points[0]).y).toBeLessThan(projection.project(points[1]).y);
    expect(projection.project(points[0]).x).toBeGreaterThan(projection.project(points[1]).x);
    expect(projection.latLines.length).toBeGreaterThan(0);
  });
  it('draws a track from two points and keeps a single point visible', () => {
    const projection = fitProjection(points, 400, 300);
    expect(trackPath(points, projection)).toMatch(/^M[\d.]+ [\d.]+ L[\d.]+ [\d.]+$/);
    expect(trackPath(points.slice(0, 1), projection)).toBe('');
    const single = fitProjection(points.slice(0, 1), 400, 300, 20).project(points[0]);
    expect(single.x).toBeCloseTo(200, 0);
    expect(single.y).toBeCloseTo(150, 0);
  });
  it('measures a track', () => {
    expect(trackLengthKm(points)).toBeGreaterThan(140);
    expect(trackLengthKm(points)).toBeLessThan(175);
    expect(trackLengthKm(points.slice(0, 1))).toBe(0);
  });
});

describe('chart limit lines', () => {
  const label = (kind: string, value: string) => `${kind} ${value}`;
  const limit = (extra: Partial<SensorLimit>): SensorLimit => ({ sensor: 1, upperLimit: 8, lowerLimit: 2, delayMinutes: 0, enabled: true, ...extra });
  it('draws the alarm limits, converted to Fahrenheit', () => {
    const lines = limitLinesOf([probe({})], [limit({})], 'F', label);
    expect(lines).toEqual([
      { kind: 'upper', y: 46.4, label: 'upper 46.4 °F' },
      { kind: 'lower', y: 35.6, label: 'lower 35.6 °F' },
    ]);
    expect(limitLinesOf([probe({})], [limit({})], 'C', label).map((line) => line.y)).toEqual([8, 2]);
  });
  it('keeps non-temperature limits as they are and draws shared lines once', () => {
    const humidity = probe({ probeId: 2, paramKey: '0002', paramName: 'Humidity', unit: '%RH', unitCode: 'percent_rh', precision: 0 });
    const lines = limitLinesOf([probe({}), probe({ probeId: 3, paramKey: '0003' }), humidity], [limit({}), limit({ sensor: 3 }), limit({ sensor: 2, upperLimit: 80, lowerLimit: null })], 'F', label);
    expect(lines.map((line) => line.y)).toEqual([46.4, 35.6, 80]);
    expect(lines[2].label).toBe('upper 80 %RH');
  });
  it('draws nothing without a limit: none set, switched off, another sensor, or not loaded yet', () => {
    expect(limitLinesOf([probe({})], [], 'C', label)).toEqual([]);
    expect(limitLinesOf([probe({})], undefined, 'C', label)).toEqual([]);
    expect(limitLinesOf([probe({})], [limit({ enabled: false })], 'C', label)).toEqual([]);
    expect(limitLinesOf([probe({})], [limit({ sensor: 2 })], 'C', label)).toEqual([]);
    expect(limitLinesOf([probe({})], [limit({ upperLimit: null })], 'C', label)).toEqual([{ kind: 'lower', y: 2, label: 'lower 2.0 °C' }]);
  });
});

describe('batch results and applied settings', () => {
  it('names the devices, refusals first', () => {
    const results: BatchResult[] = [
      { deviceId: 1, ok: true, msg: null },
      { deviceId: 2, ok: false, msg: 'scrapped' },
    ];
    expect(describeResults(results, [{ id: 1, deviceName: 'A' }]).map((row) => [row.name, row.ok])).toEqual([
      ['#2', false],
      ['A', true],
    ]);
    expect(actionKey('stopUsing')).toBe('disable');
    expect(actionKey('pin')).toBe('pin');
  });
  it('offers batch parameters only for devices of one model that takes them', () => {
    const th2 = { typeName: 'TH-2', batchParam: true };
    expect(batchParamsBlocker([th2, th2])).toBeNull();
    expect(batchParamsBlocker([th2, { typeName: 'CS-4', batchParam: true }])).toBe('oneModel');
    expect(batchParamsBlocker([{ typeName: 'TL-1', batchParam: false }])).toBe('notBatch');
  });
  it('takes the newest applied value of each parameter', () => {
    const command = (id: number, status: DeviceCommand['status'], params: Record<string, number>): DeviceCommand => ({ id, status, params, gmtCreate: '', ackedAt: null });
    expect(appliedValues([command(3, 'pending', { '0201': -5 }), command(2, 'applied', { '0201': -19 }), command(1, 'applied', { '0201': -18, '0101': 5 })])).toEqual({
      '0201': -19,
      '0101': 5,
    });
  });
});
