import type { DeviceSensor, SensorValues } from '@/api/device';
import { formatReading, formatValue, formatZoned, type StateWords } from '@/lib/format';

export interface ValueEntry {
  sensor: string;
  /** The parameter's name, or "#probe" when the device type does not name it. */
  label: string;
  text: string;
  unit: string;
}

/**
 * Latest values of a list row, sensor by sensor, with their name, precision and unit
 * ("Temperature 3.9 °C"); values of probes the type does not describe keep "#probe".
 */
export function valueEntries(
  values: SensorValues | undefined,
  sensors: DeviceSensor[] = [],
  states?: StateWords,
): ValueEntry[] {
  const byProbe = new Map(sensors.map((sensor) => [String(sensor.probeId), sensor]));
  return Object.entries(values ?? {})
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([sensor, value]) => {
      const described = byProbe.get(sensor);
      // A state channel reads as running / stopped, without a unit.
      if (described?.unitCode === 'onoff' && states)
        return { sensor, label: described.paramName, text: formatReading(value, described, states), unit: '' };
      return {
        sensor,
        label: described?.paramName ?? `#${sensor}`,
        text: formatValue(value, described?.precision ?? 1),
        unit: described?.unit ?? '',
      };
    });
}

type Translate = (key: string, options?: Record<string, unknown>) => string;

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/**
 * One value of a command or a log detail as a person reads it: numbers and words as they are, times
 * in the device's zone, a firmware by its version, any other object as "name value" pairs (never
 * "[object Object]" nor JSON).
 */
export function readableValue(value: unknown, t: Translate, zone?: string | null): string {
  if (value === null || value === undefined || value === '') return '-';
  if (typeof value === 'boolean') return t(value ? 'log.yes' : 'log.no');
  if (typeof value === 'string') return ISO_TIME.test(value) ? formatZoned(value, zone) : value;
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return value.map((item) => readableValue(item, t, zone)).join(', ');
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if ('version' in record) return t('log.firmwareVersion', { version: String(record.version) });
    return Object.entries(record)
      .map(([key, item]) => `${fieldLabel(key, t)} ${readableValue(item, t, zone)}`)
      .join(', ');
  }
  return String(value);
}

/** A field of a log detail in the reader's language ("time_zone" -> "Time zone"). */
export function fieldLabel(key: string, t: Translate): string {
  return t(`log.field.${key}`, { defaultValue: key });
}

/** A command's parameters: "Logging interval: 10 min, Firmware: version 2.1.0". */
export function commandText(
  params: Record<string, unknown>,
  described: { paramKey: string; paramName: string; unit: string | null }[],
  t: Translate,
): string {
  const byKey = new Map(described.map((param) => [param.paramKey, param]));
  return Object.entries(params)
    .map(([key, value]) => {
      const param = byKey.get(key);
      const text = readableValue(value, t);
      const unit = param?.unit && typeof value === 'number' ? ` ${param.unit}` : '';
      return `${param?.paramName ?? fieldLabel(key, t)}: ${text}${unit}`;
    })
    .join(', ');
}

/**
 * A log event's detail in words: an edit as "Name: A → B", a parameter change by parameter names,
 * any other detail as "field: value" pairs.
 */
export function eventDetailText(
  action: string,
  detail: Record<string, unknown> | null | undefined,
  params: { paramKey: string; paramName: string; unit: string | null }[],
  t: Translate,
  zone?: string | null,
): string {
  const entries = detail ?? {};
  if (action === 'edit' && entries.after && typeof entries.after === 'object') {
    const before = (entries.before ?? {}) as Record<string, unknown>;
    return Object.entries(entries.after as Record<string, unknown>)
      .map(
        ([key, value]) =>
          `${fieldLabel(key, t)}: ${readableValue(before[key], t, zone)} → ${readableValue(value, t, zone)}`,
      )
      .join('; ');
  }
  if (action === 'setParams' && entries.params && typeof entries.params === 'object')
    return commandText(entries.params as Record<string, unknown>, params, t);
  return Object.entries(entries)
    .map(([key, value]) => `${fieldLabel(key, t)}: ${readableValue(value, t, zone)}`)
    .join('; ');
}
