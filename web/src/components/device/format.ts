import dayjs from 'dayjs';
import type { DeviceSensor, SensorValues } from '@/api/device';
import { formatValue } from './helpers';

/** A date-time of the api (ISO with offset) in the browser's time, or a dash. */
export function formatTime(value: string | number | null | undefined, pattern = 'YYYY-MM-DD HH:mm:ss'): string {
  if (value === null || value === undefined || value === '') return '-';
  const parsed = dayjs(value);
  return parsed.isValid() ? parsed.format(pattern) : '-';
}

export function formatDate(value: string | null | undefined): string {
  return formatTime(value, 'YYYY-MM-DD');
}

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
export function valueEntries(values: SensorValues | undefined, sensors: DeviceSensor[] = []): ValueEntry[] {
  const byProbe = new Map(sensors.map((sensor) => [String(sensor.probeId), sensor]));
  return Object.entries(values ?? {})
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([sensor, value]) => {
      const described = byProbe.get(sensor);
      return {
        sensor,
        label: described?.paramName ?? `#${sensor}`,
        text: formatValue(value, described?.precision ?? 1),
        unit: described?.unit ?? '',
      };
    });
}
