import type { Alarm, ProcessState } from '@/api/alarm';

/** antd preset colours of the processing states. */
export const STATE_COLORS: Record<ProcessState, string> = {
  pending: 'error',
  agreed: 'success',
  rejected: 'default',
  on_hold: 'warning',
};

export function formatNumber(value: number | null | undefined): string {
  return value === null || value === undefined ? '-' : String(Number(value.toFixed(2)));
}

/** "1 h 5 min" style duration from seconds (translated units come from `t`). */
export function formatDuration(
  seconds: number | null | undefined,
  t: (key: string, options?: Record<string, unknown>) => string,
): string {
  if (seconds === null || seconds === undefined) return '-';
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return t('duration.minutes', { n: minutes });
  return t('duration.hours', { h: Math.floor(minutes / 60), m: minutes % 60 });
}

/** A value of the alarm's sensor with its unit ("9.5 °C"), or a dash. */
export function alarmValue(alarm: Pick<Alarm, 'unit'>, value: number | null | undefined): string {
  const text = formatNumber(value);
  return text !== '-' && alarm.unit ? `${text} ${alarm.unit}` : text;
}

/** Value / limit of an alarm as a list cell shows it, each with its unit. */
export function alarmValues(alarm: Alarm): string {
  if (alarm.kind === 'offline') return '-';
  // A stability budget alarm carries the share of its band used, not a sensor value against a limit.
  if (alarm.kind === 'budget') return `${formatNumber(alarm.lastValue)} %`;
  return `${alarmValue(alarm, alarm.lastValue)} / ${alarmValue(alarm, alarm.limitValue)}`;
}
