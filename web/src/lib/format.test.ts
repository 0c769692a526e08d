import { describe, expect, it } from 'vitest';
import {
  displayZone,
  formatDate,
  formatTime,
  formatZoned,
  formatDuration,
  formatReading,
  chartDateFormats,
  formatValue,
  isoWithOffset,
  setDisplayZone,
  zonedEpoch,
  zoneLabel,
  zoneOffsetMinutes,
} from './format';

describe('formatTime', () => {
  it('shows an api time in the browser zone and dashes missing or broken values', () => {
    const date = new Date(2026, 0, 2, 3, 4, 5);
    expect(formatTime(isoWithOffset(date))).toBe('2026-01-02 03:04:05');
    expect(formatTime(date.getTime(), 'HH:mm')).toBe('03:04');
    expect(formatDate(isoWithOffset(date))).toBe('2026-01-02');
    expect(formatTime(null)).toBe('-');
    expect(formatTime(undefined)).toBe('-');
    expect(formatTime('')).toBe('-');
    expect(formatTime('not a time')).toBe('-');
  });
});

describe('isoWithOffset', () => {
  it('keeps the local wall time and appends the offset', () => {
    const date = new Date(2026, 0, 2, 3, 4, 5);
    const iso = isoWithOffset(date);
    expect(iso.startsWith('2026-01-02T03:04:05')).toBe(true);
    expect(iso).toMatch(/[+-]\d{2}:\d{2}$/);
    expect(new Date(iso).getTime()).toBe(date.getTime());
  });
});

describe('formatValue', () => {
  it('uses the precision and dashes missing values', () => {
    expect(formatValue(3.14159, 2)).toBe('3.14');
    expect(formatValue(null)).toBe('-');
    expect(formatValue(undefined)).toBe('-');
    expect(formatValue(5, 0)).toBe('5');
  });
});

describe("times in the device's or the account's zone, never the browser's", () => {
  const instant = '2026-11-28T04:30:00+00:00';
  it('shows a device time in the device zone whatever the browser zone', () => {
    expect(formatTime(instant, 'YYYY-MM-DD HH:mm', 'Asia/Shanghai')).toBe('2026-11-28 12:30');
    expect(formatTime(instant, 'YYYY-MM-DD HH:mm', 'America/New_York')).toBe('2026-11-27 23:30');
    expect(formatTime(Date.parse(instant), 'HH:mm', 'UTC')).toBe('04:30');
  });
  it('falls back to the account zone, and keeps calendar dates as they are', () => {
    setDisplayZone('Asia/Shanghai');
    try {
      expect(formatTime(instant, 'YYYY-MM-DD HH:mm')).toBe('2026-11-28 12:30');
      expect(formatTime(instant, 'HH:mm', 'Not/AZone')).toBe('12:30');
      expect(formatDate('2026-12-31')).toBe('2026-12-31');
      expect(displayZone()).toBe('Asia/Shanghai');
    } finally {
      setDisplayZone(null);
    }
  });
  it('labels the zone with its offset and moves chart instants to the zone wall time', () => {
    expect(zoneLabel('Asia/Shanghai')).toBe('Asia/Shanghai (UTC+08:00)');
    expect(zoneOffsetMinutes(Date.parse('2026-07-01T12:00:00Z'), 'America/New_York')).toBe(-240);
    expect(zoneOffsetMinutes(Date.parse('2026-12-01T12:00:00Z'), 'America/New_York')).toBe(-300);
    expect(zonedEpoch(Date.parse(instant), 'Asia/Shanghai')).toBe(Date.parse('2026-11-28T12:30:00Z'));
  });
});

describe('formatZoned', () => {
  it('says the zone of the time it shows', () => {
    expect(formatZoned('2026-11-28T04:30:00Z', 'Asia/Shanghai')).toBe('2026-11-28 12:30:00 UTC+08:00');
    expect(formatZoned('2026-11-28T04:30:00Z', 'America/New_York', 'MM-DD HH:mm')).toBe('11-27 23:30 UTC-05:00');
    expect(formatZoned(null, 'Asia/Shanghai')).toBe('-');
  });
});

describe('formatDuration and chart dates: one formatter per language', () => {
  it('reads a duration in the page language', () => {
    expect(formatDuration(3 * 3600 + 34 * 60, 'en-US')).toBe('3 h 34 min');
    expect(formatDuration(3 * 3600 + 34 * 60, 'zh-CN')).toBe('3小时34分钟');
    expect(formatDuration(330, 'en-US')).toBe('5 min 30 s');
    expect(formatDuration(10, 'zh-CN')).toBe('10秒');
    expect(formatDuration(null, 'zh-CN')).toBe('-');
  });
  it('labels chart days without month words in zh-CN', () => {
    expect(chartDateFormats('zh-CN').day).toBe('M月d日');
    expect(chartDateFormats('en-US').day).toBe('dd MMM');
  });
});

describe('formatReading', () => {
  const states = { on: 'Running', off: 'Stopped' };
  it('reads a state channel as running / stopped and carries every other unit', () => {
    expect(formatReading(1, { unit: 'on/off', unitCode: 'onoff' }, states)).toBe('Running');
    expect(formatReading(0, { unit: 'on/off', unitCode: 'onoff' }, states)).toBe('Stopped');
    expect(formatReading(4.25, { unit: '°C', unitCode: 'celsius', precision: 1 }, states)).toBe('4.3 °C');
    expect(formatReading(-18, { unit: '°C', unitCode: 'celsius' }, states)).toBe('-18 °C');
    expect(formatReading(null, { unit: '°C' }, states)).toBe('-');
  });
});
