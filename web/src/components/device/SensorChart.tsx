import type { ApexOptions } from 'apexcharts';
import { Empty, Spin, theme as antdTheme } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useMemo } from 'react';
import { useTheme } from 'styled-components';
import type { ChartPoint, DeviceParam, TemperatureUnit } from '@/api/device';
import { ApexChart } from './ApexChart';
import { chartLocale, legendName, seriesUnits, unitAxes } from './chartAxes';
import { sensorSeries, unitLabel, type ApexSeries } from './helpers';

interface SensorChartProps {
  params: DeviceParam[];
  series: Record<string, ChartPoint[]> | undefined;
  bucketSeconds: number;
  unit: TemperatureUnit;
  loading?: boolean;
  height?: number;
  /** Horizontal limit lines, already in the chart's unit; the y axis is widened to show them. */
  limitLines?: LimitLine[];
}

const NO_LINES: LimitLine[] = [];

export interface LimitLine {
  kind: 'upper' | 'lower';
  label: string;
  y: number;
}

/**
 * Sensor lines over time (ApexCharts, x-axis zoom with the toolbar); bucketed answers also draw
 * each sensor's min / max band as a range area.
 */
export function SensorChart({ params, series, bucketSeconds, unit, loading = false, height = 380, limitLines = NO_LINES }: SensorChartProps) {
  const { t, i18n } = useTranslation('device');
  const theme = useTheme();
  const { token } = antdTheme.useToken();
  const bucketed = bucketSeconds > 0;
  const chartSeries = useMemo<ApexSeries[]>(
    () =>
      params.flatMap((param) => {
        const points = series?.[String(param.probeId)] ?? [];
        const name = legendName(param.paramName, unitLabel(param, unit));
        return sensorSeries(name, points, bucketed, t('chart.band', { name }));
      }),
    [params, series, bucketed, t, unit],
  );
  const hasPoints = chartSeries.some((item) => item.data.length > 0);
  const colors = useMemo(
    () => params.flatMap((_, index) => {
      const color = theme.chartPalette[index % theme.chartPalette.length];
      return bucketed ? [color, color] : [color];
    }),
    [params, bucketed, theme.chartPalette],
  );
  // One y-axis per unit: the temperature unit on the left, %RH and others on the right.
  const units = useMemo(() => seriesUnits(params, unit, bucketed), [params, unit, bucketed]);
  const yRange = useMemo(() => {
    if (!limitLines.length) return {};
    const left = units[0];
    const values = chartSeries.filter((_, index) => units[index] === left).flatMap((item) => item.data.flatMap((point) => (Array.isArray(point.y) ? point.y : point.y === null ? [] : [point.y])));
    const all = [...values, ...limitLines.map((line) => line.y)];
    const low = Math.min(...all);
    const high = Math.max(...all);
    const pad = Math.max((high - low) * 0.05, 0.5);
    return { min: Math.floor((low - pad) * 10) / 10, max: Math.ceil((high + pad) * 10) / 10 };
  }, [chartSeries, limitLines, units]);
  const options = useMemo<ApexOptions>(
    () => ({
      chart: {
        id: 'sensor-chart',
        animations: { enabled: false },
        zoom: { enabled: true, type: 'x', autoScaleYaxis: true },
        toolbar: { show: true, tools: { download: false, zoom: true, zoomin: true, zoomout: true, pan: true, reset: true } },
        foreColor: theme.colors.textSecondary,
        fontFamily: theme.fontFamily,
        ...chartLocale(i18n.language),
      },
      colors,
      stroke: { curve: 'straight', width: chartSeries.map((item) => (item.type === 'rangeArea' ? 0 : 2)) },
      fill: { opacity: chartSeries.map((item) => (item.type === 'rangeArea' ? 0.2 : 1)) },
      dataLabels: { enabled: false },
      legend: { show: true },
      markers: { size: 0 },
      grid: { borderColor: theme.colors.border },
      xaxis: { type: 'datetime', labels: { datetimeUTC: false } },
      yaxis: unitAxes(chartSeries, units, yRange),
      annotations: {
        yaxis: limitLines.map((line) => {
          const color = line.kind === 'upper' ? token.colorError : token.colorInfo;
          return {
            y: line.y,
            yAxisIndex: 0,
            borderColor: color,
            strokeDashArray: 6,
            label: { text: line.label, borderColor: color, style: { color: token.colorTextLightSolid, background: color }, position: 'left', textAnchor: 'start', offsetX: 4 },
          };
        }),
      },
      tooltip: { shared: true, x: { format: 'yyyy-MM-dd HH:mm' } },
    }),
    [colors, chartSeries, theme, units, yRange, limitLines, token, i18n.language],
  );

  if (loading && !hasPoints) return <Spin description={t('chart.loading')}><div style={{ height }} /></Spin>;
  if (!hasPoints) return <Empty description={t('chart.noData')} data-testid="chart-empty" />;
  return (
    <div data-testid="sensor-chart" data-units={[...new Set(units)].join(' ')}>
      <ApexChart type={bucketed ? 'rangeArea' : 'line'} series={chartSeries as ApexOptions['series']} options={options} height={height} />
    </div>
  );
}
