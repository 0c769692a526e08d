/**
 * Limit lines from the limits' history (issue 45): each sensor's upper and lower limit as a line
 * over the time each value was in force, stepping where it changed inside the shown range and
 * broken where no limit was set; labelled at each value ("Upper limit 8.0 °C"). A sensor without a
 * history draws its current limits over the whole range; sensors sharing the same limits over the
 * same times (two probes of one unit) draw them once.
 */
import type { SensorLimit, SensorLimitPeriod } from '@/api/alarm';
import type { DeviceDetail, TemperatureUnit } from '@/api/device';
import { inUnit, isTemperature, unitLabel } from './helpers';
import { formatValue } from '@/lib/format';

export interface LimitStep {
  kind: 'upper' | 'lower';
  sensor: number;
  /** The unit of the axis the step is drawn on (its sensor's). */
  unitText: string;
  /** The legend: "Upper limit 8.0 → 7.5 °C". */
  name: string;
  data: { x: number; y: number | null }[];
  /** A label at the start of each value. */
  labels: { x: number; y: number; text: string }[];
}

type Label = (kind: 'upper' | 'lower', value: string) => string;

interface Span {
  from: number;
  to: number;
  raw: number | null;
}

function spansOf(
  sensor: number,
  kind: 'upper' | 'lower',
  history: SensorLimitPeriod[] | undefined,
  current: SensorLimit[] | undefined,
): Span[] {
  const rows = (history ?? []).filter((row) => row.sensor === sensor);
  if (!rows.length) {
    const limit = current?.find((row) => row.sensor === sensor && row.enabled);
    const raw = limit ? (kind === 'upper' ? limit.upperLimit : limit.lowerLimit) : null;
    return [{ from: -Infinity, to: Infinity, raw: raw ?? null }];
  }
  return rows
    .map((row) => ({
      from: Date.parse(row.validFrom),
      to: row.validTo ? Date.parse(row.validTo) : Infinity,
      raw: row.enabled ? ((kind === 'upper' ? row.upperLimit : row.lowerLimit) ?? null) : null,
    }))
    .sort((a, b) => a.from - b.from);
}

export function limitStepsOf(
  sensors: DeviceDetail['params'],
  history: SensorLimitPeriod[] | undefined,
  current: SensorLimit[] | undefined,
  unit: TemperatureUnit,
  range: [number, number],
  label: Label,
): LimitStep[] {
  const steps: LimitStep[] = [];
  const drawn = new Set<string>();
  for (const param of sensors) {
    const sensor = param.probeId as number;
    const unitText = unitLabel(param, unit);
    for (const kind of ['upper', 'lower'] as const) {
      const data: LimitStep['data'] = [];
      const labels: LimitStep['labels'] = [];
      const values: string[] = [];
      for (const span of spansOf(sensor, kind, history, current)) {
        const from = Math.max(span.from, range[0]);
        const to = Math.min(span.to, range[1]);
        if (!(to > from)) continue;
        if (span.raw === null || !Number.isFinite(span.raw)) {
          data.push({ x: from, y: null }); // no limit in force: the line breaks
          continue;
        }
        const y = isTemperature(param) ? inUnit(span.raw, unit) : span.raw;
        const text = formatValue(y, param.precision);
        data.push({ x: from, y }, { x: to, y });
        if (values[values.length - 1] !== text) {
          values.push(text);
          labels.push({ x: from, y, text: label(kind, `${text} ${unitText}`.trim()) });
        }
      }
      const key = JSON.stringify([kind, unitText, data]);
      if (!labels.length || drawn.has(key)) continue;
      drawn.add(key);
      steps.push({
        kind,
        sensor,
        unitText,
        name: label(kind, `${values.join(' → ')} ${unitText}`.trim()),
        data,
        labels,
      });
    }
  }
  return steps;
}

/** A sensor's limits in force over the whole shown range, already in the chart's unit. */
export interface FixedLimits {
  sensor: number;
  /** The unit of the sensor's axis ("°C", "%RH"): the limits are drawn on that axis, never another. */
  unitText: string;
  upper: number | null;
  lower: number | null;
  precision?: number;
}

/**
 * Limit steps of limits that hold over the whole range (the storage chart): the same shape as the
 * history's steps, so every chart draws its limits one way, each on its sensor's axis; sensors
 * sharing the same limit in the same unit draw it once.
 */
export function fixedLimitSteps(rows: FixedLimits[], range: [number, number], label: Label): LimitStep[] {
  const steps: LimitStep[] = [];
  const drawn = new Set<string>();
  for (const row of rows) {
    for (const kind of ['upper', 'lower'] as const) {
      const y = kind === 'upper' ? row.upper : row.lower;
      if (y === null || !Number.isFinite(y)) continue;
      const key = JSON.stringify([kind, row.unitText, y]);
      if (drawn.has(key)) continue;
      drawn.add(key);
      const text = label(kind, `${formatValue(y, row.precision ?? 1)} ${row.unitText}`.trim());
      steps.push({
        kind,
        sensor: row.sensor,
        unitText: row.unitText,
        name: text,
        data: [
          { x: range[0], y },
          { x: range[1], y },
        ],
        labels: [{ x: range[0], y, text }],
      });
    }
  }
  return steps;
}
