/**
 * Display formatters shared by every area: date-times of the api, ISO times for requests and
 * sensor values. Area folders keep only what is theirs.
 *
 * Times never follow the browser's zone: a device's times are shown in the device's zone (pass it),
 * everything else in the account's zone (`setDisplayZone`, set by the session from the account info),
 * and the page says which (`zoneLabel`).
 */
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc';

dayjs.extend(utc);

let accountZone: string | undefined;

/** The zone times are shown in when no device zone is given: the signed-in account's. */
export function setDisplayZone(zone: string | null | undefined): void {
  accountZone = zone && validZone(zone) ? zone : undefined;
}

/** The account's zone (or the browser's, before sign-in). */
export function displayZone(): string {
  return accountZone ?? browserZone();
}

function browserZone(): string {
  return typeof Intl !== 'undefined' ? Intl.DateTimeFormat().resolvedOptions().timeZone : 'UTC';
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function validZone(zone: string): boolean {
  try {
    zoneFormatter(zone);
    return true;
  } catch {
    return false;
  }
}

function zoneFormatter(zone: string): Intl.DateTimeFormat {
  let found = formatters.get(zone);
  if (!found) {
    found = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, found);
  }
  return found;
}

/** The zone's offset from UTC at an instant, in minutes (+480 for Asia/Shanghai). */
export function zoneOffsetMinutes(ms: number, zone: string): number {
  const parts: Record<string, number> = {};
  for (const part of zoneFormatter(zone).formatToParts(new Date(ms))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  const wall = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour % 24, parts.minute, parts.second);
  return Math.round((wall - Math.floor(ms / 1000) * 1000) / 60_000);
}

/**
 * An instant moved so that its UTC reading is the zone's wall time: what a chart drawing UTC
 * (`datetimeUTC: true`) needs to label its axis and tooltip in the zone.
 */
export function zonedEpoch(ms: number, zone: string): number {
  // Offsets change on quarter hours at most: a chart's thousands of points ask Intl once per quarter.
  const key = `${zone}|${Math.floor(ms / 900_000)}`;
  let offset = quarterOffsets.get(key);
  if (offset === undefined) {
    if (quarterOffsets.size > 50_000) quarterOffsets.clear();
    offset = zoneOffsetMinutes(Math.floor(ms / 900_000) * 900_000, zone);
    quarterOffsets.set(key, offset);
  }
  return ms + offset * 60_000;
}

const quarterOffsets = new Map<string, number>();

function offsetText(minutes: number): string {
  const sign = minutes >= 0 ? '+' : '-';
  return `UTC${sign}${pad(minutes / 60)}:${pad(minutes % 60)}`;
}

/** "Asia/Shanghai (UTC+08:00)": the label saying which zone times are in. */
export function zoneLabel(zone?: string | null): string {
  const shown = zone && validZone(zone) ? zone : displayZone();
  return `${shown} (${offsetText(zoneOffsetMinutes(Date.now(), shown))})`;
}

/**
 * A date-time of the api (ISO with offset) in the given zone (a device's), else the account's, or a
 * dash.
 */
export function formatTime(
  value: string | number | null | undefined,
  pattern = 'YYYY-MM-DD HH:mm:ss',
  zone?: string | null,
): string {
  if (value === null || value === undefined || value === '') return '-';
  const parsed = dayjs(value);
  if (!parsed.isValid()) return '-';
  // A calendar date (a service expiry) is the same day in every zone.
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) return parsed.format(pattern);
  const shown = zone && validZone(zone) ? zone : accountZone;
  if (!shown) return parsed.format(pattern);
  return dayjs.utc(zonedEpoch(parsed.valueOf(), shown)).format(pattern);
}

/**
 * A time that says its zone: "2026-11-28 12:30:00 UTC+08:00", in the given zone (a device's) or the
 * account's; what every device time, alarm time and chart tooltip shows.
 */
export function formatZoned(
  value: string | number | null | undefined,
  zone?: string | null,
  pattern = 'YYYY-MM-DD HH:mm:ss',
): string {
  const text = formatTime(value, pattern, zone);
  if (text === '-') return text;
  const shown = zone && validZone(zone) ? zone : displayZone();
  return `${text} ${offsetText(zoneOffsetMinutes(dayjs(value).valueOf(), shown))}`;
}

export function formatDate(value: string | null | undefined, zone?: string | null): string {
  return formatTime(value, 'YYYY-MM-DD', zone);
}

function pad(value: number, size = 2): string {
  return String(Math.trunc(Math.abs(value))).padStart(size, '0');
}

/** ISO 8601 with the browser's offset (what the chart call expects), seconds precision. */
export function isoWithOffset(date: Date): string {
  const offset = -date.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}` +
    `${sign}${pad(offset / 60)}:${pad(offset % 60)}`
  );
}

/** A sensor value at its precision (0 to 4 decimals), or a dash when missing. */
export function formatValue(value: number | null | undefined, precision = 1): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '-';
  return value.toFixed(Math.max(0, Math.min(4, precision)));
}

const DURATION_UNITS = {
  'zh-CN': { h: '小时', min: '分钟', s: '秒', join: '' },
  'en-US': { h: 'h', min: 'min', s: 's', join: ' ' },
} as const;

/**
 * A duration in the page's language, the one duration formatter: "3 h 34 min" / "3小时34分钟";
 * under an hour minutes (and seconds under ten minutes, "5 min 30 s"), never "0 h 0 min".
 */
export function formatDuration(seconds: number | null | undefined, language: string): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return '-';
  const units = language === 'en-US' ? DURATION_UNITS['en-US'] : DURATION_UNITS['zh-CN'];
  const part = (value: number, unit: string) => `${value}${units.join}${unit}`;
  const whole = Math.floor(seconds);
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const rest = whole % 60;
  if (hours) return [part(hours, units.h), part(minutes, units.min)].join(units.join);
  if (minutes >= 10 || (minutes && !rest)) return part(minutes, units.min);
  if (minutes) return [part(minutes, units.min), part(rest, units.s)].join(units.join);
  return part(rest, units.s);
}

/**
 * The date labels of a time axis in the page's language, the one date format of charts: "11月28日"
 * in zh-CN (ApexCharts' own "28 十一月" reads wrong), "28 Nov" in en-US.
 */
export function chartDateFormats(language: string): {
  year: string;
  month: string;
  day: string;
  hour: string;
  minute: string;
} {
  return language === 'en-US'
    ? { year: 'yyyy', month: "MMM 'yy", day: 'dd MMM', hour: 'HH:mm', minute: 'HH:mm' }
    : { year: 'yyyy年', month: 'yyyy年M月', day: 'M月d日', hour: 'HH:mm', minute: 'HH:mm' };
}

/** What a state channel's two values read as ("Running" / "Stopped"), in the page's language. */
export interface StateWords {
  on: string;
  off: string;
}

/**
 * A reading with its unit, the one way values are shown: "4.2 °C", "55 %RH"; a state channel
 * (unit code `onoff`) reads as running / stopped, never "1 on/off".
 */
export function formatReading(
  value: number | string | null | undefined,
  param: { unit?: string | null; unitCode?: string | null; precision?: number | null },
  states: StateWords,
): string {
  if (value === null || value === undefined || value === '') return '-';
  const number = typeof value === 'number' ? value : Number(value);
  if (param.unitCode === 'onoff') return Number.isNaN(number) ? String(value) : number ? states.on : states.off;
  const text =
    Number.isNaN(number) || param.precision === null || param.precision === undefined
      ? String(value)
      : formatValue(number, param.precision);
  return param.unit ? `${text} ${param.unit}` : text;
}
