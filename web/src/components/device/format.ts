import dayjs from 'dayjs';
import type { SensorValues } from '@/api/device';
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

/** Latest values of a list row, sensor by sensor ("#1 3.9"). */
export function valueEntries(values: SensorValues | undefined): { sensor: string; text: string }[] {
  return Object.entries(values ?? {})
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([sensor, value]) => ({ sensor, text: formatValue(value, 1) }));
}
