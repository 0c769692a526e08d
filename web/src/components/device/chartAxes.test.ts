import { describe, expect, it } from 'vitest';
import type { DeviceParam } from '@/api/device';
import { chartLocale, legendName, seriesUnits, unitAxes } from './chartAxes';
import { sensorSeries } from './helpers';

const param = (paramName: string, unit: string, unitCode: string, probeId: number) =>
  ({
    paramName,
    unit,
    unitCode,
    probeId,
    paramType: 'sensor',
    paramKey: `000${probeId}`,
    precision: 1,
  }) as unknown as DeviceParam;

describe('a chart with temperature and humidity', () => {
  const params = [param('Temperature', '°C', 'celsius', 1), param('Humidity', '%RH', 'percent_rh', 2)];
  const points = [{ t: Date.UTC(2026, 10, 24), v: 4.2, min: 4, max: 4.4 }];

  it.each([false, true])('has two axes with their units (bucketed %s)', (bucketed) => {
    const units = seriesUnits(params, 'C', bucketed);
    const series = params.flatMap((p, i) =>
      sensorSeries(legendName(p.paramName, units[i * (bucketed ? 2 : 1)]), points, bucketed, `band ${p.paramName}`),
    );
    const axes = unitAxes(series, units);
    expect(axes).toHaveLength(series.length);
    const shown = axes.filter((axis) => axis.show);
    expect(shown.map((axis) => [axis.title?.text, axis.opposite])).toEqual([
      ['°C', false],
      ['%RH', true],
    ]);
    // Every humidity series is drawn against the %RH axis, never the °C one.
    const rh = shown[1].seriesName;
    series.forEach((_, index) => expect(axes[index].seriesName === rh).toBe(units[index] === '%RH'));
    expect(series.map((item) => item.name)).toContain('Humidity (%RH)');
  });

  it('in Fahrenheit titles the left axis °F', () => {
    const units = seriesUnits(params, 'F', false);
    const series = params.flatMap((p) => sensorSeries(p.paramName, points, false, ''));
    expect(
      unitAxes(series, units)
        .filter((axis) => axis.show)
        .map((axis) => axis.title?.text),
    ).toEqual(['°F', '%RH']);
  });
});

describe('chart locale', () => {
  it('uses ApexCharts own zh-CN and en-US locales', () => {
    expect(chartLocale('zh-CN').defaultLocale).toBe('zh-cn');
    expect(chartLocale('zh-CN').locales?.[0].options?.toolbar?.exportToPNG).toMatch(/[\u4e00-\u9fff]/);
    expect(chartLocale('en-US').defaultLocale).toBe('en');
  });
});
