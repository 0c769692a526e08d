/**
 * Pure helpers of the device pages: status colours, chart range presets (business spec 9: today,
 * 12 hours, 24 hours, half hour, 7, 15, 30 days), Celsius / Fahrenheit, value formatting and the
 * parameter groups of a device.
 */
import type {
  ChartCorrection,
  ChartOverdue,
  ChartPoint,
  DeviceParam,
  DeviceStatus,
  SensorValues,
  TemperatureUnit,
} from '@/api/device';

/** antd Tag / Badge preset status of each device state (no hard-coded colours). */
export type StatusTone = 'success' | 'processing' | 'default' | 'error' | 'warning';

const STATUS_TONES: Record<DeviceStatus, StatusTone> = {
  online: 'success',
  offline: 'default',
  alarm: 'error',
  fault: 'warning',
  disabled: 'default',
  deactivated: 'default',
  expired: 'warning',
  not_enabled: 'processing',
};

export function statusTone(status: string): StatusTone {
  return STATUS_TONES[status as DeviceStatus] ?? 'default';
}

export const DEVICE_STATUSES: DeviceStatus[] = [
  'online',
  'offline',
  'alarm',
  'fault',
  'disabled',
  'deactivated',
  'expired',
  'not_enabled',
];

export type RangePreset = 'halfHour' | 'today' | 'h12' | 'h24' | 'd7' | 'd15' | 'd30' | 'year';
/** The spec's quick ranges, then the year view (hourly min / max buckets of the rollup). */
export const RANGE_PRESETS: RangePreset[] = ['today', 'halfHour', 'h12', 'h24', 'd7', 'd15', 'd30', 'year'];

const HOUR = 3600_000;
const PRESET_SPANS: Record<Exclude<RangePreset, 'today'>, number> = {
  halfHour: HOUR / 2,
  h12: 12 * HOUR,
  h24: 24 * HOUR,
  d7: 7 * 24 * HOUR,
  d15: 15 * 24 * HOUR,
  d30: 30 * 24 * HOUR,
  year: 365 * 24 * HOUR,
};

/** The [start, end] of a preset ending now; "today" starts at local midnight. */
export function presetRange(preset: RangePreset, now: Date = new Date()): [Date, Date] {
  if (preset === 'today') {
    const start = new Date(now);
    start.setHours(0, 0, 0, 0);
    return [start, now];
  }
  return [new Date(now.getTime() - PRESET_SPANS[preset]), now];
}

export function celsiusToFahrenheit(value: number): number {
  return Math.round(((value * 9) / 5) * 100 + 3200) / 100;
}

export function fahrenheitToCelsius(value: number): number {
  return Math.round((((value - 32) * 5) / 9) * 100) / 100;
}

/** Whether a parameter is a temperature (its values follow the C/F switch). */
export function isTemperature(param: Pick<DeviceParam, 'unitCode'>): boolean {
  return param.unitCode === 'celsius';
}

/** A temperature given in Celsius, in the chosen unit. */
export function inUnit(value: number, unit: TemperatureUnit): number {
  return unit === 'F' ? celsiusToFahrenheit(value) : value;
}

export function unitLabel(param: Pick<DeviceParam, 'unit' | 'unitCode'>, unit: TemperatureUnit): string {
  if (isTemperature(param)) return unit === 'F' ? '°F' : '°C';
  return param.unit ?? '';
}

/** Sensors (with a probe) in probe order. */
export function sensorParams(params: DeviceParam[]): DeviceParam[] {
  return params
    .filter((param) => param.paramType === 'sensor' && param.probeId !== null)
    .sort((a, b) => (a.probeId ?? 0) - (b.probeId ?? 0));
}

/** Parameters the user may write (parameter settings tab). */
export function writableParams(params: DeviceParam[]): DeviceParam[] {
  return params.filter((param) => param.readWriteType !== 'R');
}

export function hasEnergy(params: DeviceParam[]): boolean {
  return params.some((param) => param.paramType === 'energy');
}

/** The value of a parameter in a latest-values map (keyed by probe id). */
export function valueOf(values: SensorValues | undefined, param: DeviceParam): number | null {
  if (!values || param.probeId === null) return null;
  return values[String(param.probeId)] ?? null;
}

/** A value within a writable parameter's bounds and precision, or an error key. */
export function checkSetting(param: DeviceParam, value: number | null | undefined): 'required' | 'range' | null {
  if (value === null || value === undefined || Number.isNaN(value)) return 'required';
  if ((param.paramMin !== null && value < param.paramMin) || (param.paramMax !== null && value > param.paramMax))
    return 'range';
  return null;
}

export interface ApexSeries {
  name: string;
  type: 'line' | 'rangeArea';
  data: { x: number; y: number | null | [number, number] }[];
}

/**
 * Apex series of one sensor: its line, and when the answer is bucketed (bucketSeconds > 0) the
 * min / max band around it as a range area.
 */
export function sensorSeries(name: string, points: ChartPoint[], bucketed: boolean, bandName: string): ApexSeries[] {
  const line: ApexSeries = { name, type: 'line', data: points.map((point) => ({ x: point.t, y: point.v })) };
  if (!bucketed) return [line];
  // A point with no value is the api's gap marker: the band breaks there too (y null), like the line.
  const band: ApexSeries = {
    name: bandName,
    type: 'rangeArea',
    data: points
      .filter(
        (point) =>
          point.v === null ||
          (point.min !== null && point.min !== undefined && point.max !== null && point.max !== undefined),
      )
      .map((point) => ({ x: point.t, y: point.v === null ? null : [point.min as number, point.max as number] })),
  };
  return [band, line];
}

/** Device name: required, at most 15 characters (business spec 5). */
export const DEVICE_NAME_MAX = 15;
export const DEVICE_GUID_MAX = 20;
export const DEVICE_REMARK_MAX = 120;
export const GUID_PATTERN = /^\d+$/;

/** Devices that reported a position (what the maps can plot). */
export function positioned<T extends { lat: number | null; lng: number | null }>(devices: T[]): T[] {
  return devices.filter((device) => device.lat !== null && device.lng !== null);
}

/** The overdue spans of the shown sensors, merged (a span shaded once however many probes it covers). */
export function overdueBands(
  params: DeviceParam[],
  overdue: Record<string, ChartOverdue[]> | undefined,
): ChartOverdue[] {
  const spans = params.flatMap((param) => overdue?.[String(param.probeId)] ?? []).sort((a, b) => a.start - b.start);
  const merged: ChartOverdue[] = [];
  for (const span of spans) {
    const last = merged[merged.length - 1];
    if (last && span.start <= last.end) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span });
  }
  return merged;
}

/** The certificates whose correction the chart's values carry (the device's calibration correction), each once. */
export function correctedBy(corrections: Record<string, ChartCorrection[]> | undefined): string {
  const numbers = Object.values(corrections ?? {}).flatMap((spans) => spans.map((span) => span.certificate));
  return [...new Set(numbers)].join(', ');
}
