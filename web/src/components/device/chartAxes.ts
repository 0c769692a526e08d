/**
 * Chart axes and locales (design 7): one y-axis per unit (the temperature unit on the left, %RH
 * and any other unit on the right), legends carrying their units, ApexCharts' own zh-CN and en-US
 * locales for dates and the toolbar menu.
 */
import type { ApexOptions } from 'apexcharts';
import en from 'apexcharts/dist/locales/en.json';
import zhCN from 'apexcharts/dist/locales/zh-cn.json';
import type { DeviceParam, TemperatureUnit } from '@/api/device';
import { unitLabel, type ApexSeries } from './helpers';
import { chartDateFormats, zoneLabel } from '@/lib/format';

/** A series' legend name with its unit: "Temperature (°C)". */
export function legendName(name: string, unitText: string): string {
  return unitText ? `${name} (${unitText})` : name;
}

type YAxis = ApexYAxis;

/**
 * One y-axis entry per series (ApexCharts pairs them by index): the first series of each unit
 * shows the axis, titled with the unit, the others share it (`seriesName`). The first unit is on
 * the left, every further unit on the right.
 */
export function unitAxes(series: ApexSeries[], units: string[], extra: Partial<YAxis> = {}): YAxis[] {
  const firstOfUnit = new Map<string, string>();
  series.forEach((item, index) => {
    if (!firstOfUnit.has(units[index])) firstOfUnit.set(units[index], item.name);
  });
  const order = [...firstOfUnit.keys()];
  return series.map((item, index) => {
    const unitText = units[index];
    const owner = firstOfUnit.get(unitText) as string;
    const side = order.indexOf(unitText);
    return {
      seriesName: owner,
      show: owner === item.name,
      opposite: side > 0,
      decimalsInFloat: 1,
      title: { text: unitText },
      ...(side === 0 ? extra : {}),
    };
  });
}

/** The y-axis index (ApexCharts pairs axes with series) a limit of this unit is drawn against. */
export function limitAxisIndex(units: string[], unitText: string): number {
  const index = units.indexOf(unitText);
  return index < 0 ? 0 : index;
}

/** The unit of each chart series, in the order sensorSeries produced them (band, line per param). */
export function seriesUnits(
  params: Pick<DeviceParam, 'unit' | 'unitCode'>[],
  unit: TemperatureUnit,
  bucketed: boolean,
): string[] {
  return params.flatMap((param) => {
    const text = unitLabel(param, unit);
    return bucketed ? [text, text] : [text];
  });
}

const LOCALES = { 'zh-CN': zhCN, 'en-US': en } as const;

/** ApexCharts' own locale for the UI language (dates, toolbar menu). */
export function chartLocale(language: string): Pick<NonNullable<ApexOptions['chart']>, 'locales' | 'defaultLocale'> {
  const locale = language === 'en-US' ? LOCALES['en-US'] : LOCALES['zh-CN'];
  return { locales: [locale as ApexLocale], defaultLocale: locale.name };
}

/**
 * The time axis of every chart: drawn in UTC over instants moved to the zone's wall time
 * (`zonedEpoch`), dates in the page's language, titled with the zone it reads in.
 */
export function timeAxis(language: string, zone: string): ApexXAxis {
  return {
    type: 'datetime',
    labels: { datetimeUTC: true, datetimeFormatter: chartDateFormats(language) },
    title: { text: zoneLabel(zone) },
  };
}
