import { describe, expect, it } from 'vitest';
import type { BatchResult, DeviceCommand } from '@/api/device';
import { normalizePanels, statusListHref, HOME_PANELS, MIN_HOME_PANELS } from '@/components/home/homePanels';
import { fitProjection, trackPath } from '@/components/map/projection';
import { actionKey, batchParamsBlocker, describeResults } from './BatchBar';
import { fixedLimitSteps } from './limitSteps';
import { limitAxisIndex, unitAxes } from './chartAxes';
import { appliedValues, settingValues } from './DetailTabs';
import { queryStatus } from './DeviceListView';
import { commandText, eventDetailText, readableValue, valueEntries } from './format';
import { trackLengthKm } from './TrackTab';

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
    expect(normalizePanels(['map', 'search', 'counts', 'recent', 'pinned', 'bogus'])).toEqual([
      'search',
      'counts',
      'map',
      'pinned',
      'recent',
    ]);
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

describe("chart limit lines: every limit on its sensor's axis (the one way to draw them)", () => {
  const label = (kind: string, value: string) => `${kind} ${value}`;
  const range: [number, number] = [0, 3_600_000];
  it('draws fixed limits (the storage chart) as steps on their unit, shared ones once', () => {
    const steps = fixedLimitSteps(
      [
        { sensor: 0, unitText: '°C', upper: 8, lower: 2 },
        { sensor: 1, unitText: '°C', upper: 8, lower: 2 },
        { sensor: 2, unitText: '%RH', upper: 30, lower: null, precision: 0 },
      ],
      range,
      label,
    );
    expect(steps.map((step) => [step.kind, step.unitText, step.data.map((point) => point.y)])).toEqual([
      ['upper', '°C', [8, 8]],
      ['lower', '°C', [2, 2]],
      ['upper', '%RH', [30, 30]],
    ]);
    expect(steps[2].labels).toEqual([{ x: 0, y: 30, text: 'upper 30 %RH' }]);
  });
  it('puts a humidity limit on the humidity axis, never the temperature axis', () => {
    const units = ['°C', '°C', '%RH', '°C', '%RH'];
    expect(limitAxisIndex(units, '%RH')).toBe(2);
    expect(limitAxisIndex(units, '°C')).toBe(0);
    const axes = unitAxes(
      units.map((_, index) => ({ name: `s${index}`, type: 'line' as const, data: [] })),
      units,
    );
    expect(axes[limitAxisIndex(units, '%RH')]).toMatchObject({ show: true, opposite: true, title: { text: '%RH' } });
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
    const command = (id: number, status: DeviceCommand['status'], params: Record<string, number>): DeviceCommand => ({
      id,
      status,
      params,
      gmtCreate: '',
      ackedAt: null,
    });
    expect(
      appliedValues([
        command(3, 'pending', { '0201': -5 }),
        command(2, 'applied', { '0201': -19 }),
        command(1, 'applied', { '0201': -18, '0101': 5 }),
      ]),
    ).toEqual({
      '0201': -19,
      '0101': 5,
    });
  });
});

describe('command history and operation log read as words (issue 47)', () => {
  const t = (key: string, options?: Record<string, unknown>) =>
    key === 'log.firmwareVersion' ? `version ${String(options?.version)}` : String(options?.defaultValue ?? key);
  const described = [{ paramKey: '0101', paramName: 'Logging interval', unit: 'min' }];
  it('names a firmware by its version and every value in words, never [object Object] or JSON', () => {
    const firmware = { firmwareId: 3, version: '2.1.0', url: '/x', sha256: 'ab', size: 10 };
    expect(commandText({ firmware, '0101': 10 }, described, t)).toBe(
      'firmware: version 2.1.0, Logging interval: 10 min',
    );
    const texts = [
      commandText({ firmware }, described, t),
      eventDetailText('upgrade', { version: '2.1.0', rolloutId: 4 }, described, t),
      eventDetailText('edit', { before: { name: 'A', remark: null }, after: { name: 'B', remark: 'x' } }, described, t),
      eventDetailText('setParams', { params: { '0101': 5 } }, described, t),
      eventDetailText('refund', { orderCode: 'R1', nested: { a: { b: 1 } }, flags: [true, false] }, described, t),
    ];
    for (const text of texts) {
      expect(text).not.toMatch(/\[object Object\]|[{}"]/);
    }
    expect(texts[2]).toBe('name: A → B; remark: - → x');
    expect(texts[3]).toBe('Logging interval: 5 min');
  });
  it('shows a time of a log detail in the device zone', () => {
    expect(readableValue('2026-11-28T04:30:00+00:00', t, 'Asia/Shanghai')).toBe('2026-11-28 12:30:00 UTC+08:00');
  });
  it('fills the settings form with the current values: the logging interval from the device', () => {
    const applied: DeviceCommand = {
      id: 1,
      params: { '0102': 3, firmware: {} },
      status: 'applied',
      gmtCreate: '',
      ackedAt: null,
    };
    expect(settingValues({ intervalSeconds: 600 }, [applied])).toEqual({ '0102': 3, '0101': 10 });
  });
});
