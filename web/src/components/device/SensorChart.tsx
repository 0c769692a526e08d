import type { ApexOptions } from 'apexcharts';
import { Empty, Spin, theme as antdTheme } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useMemo } from 'react';
import { useTheme } from 'styled-components';
import type { ChartOverdue, ChartPoint, DeviceParam, TemperatureUnit } from '@/api/device';
import { ApexChart } from './ApexChart';
import { chartLocale, legendName, limitAxisIndex, seriesUnits, timeAxis, unitAxes } from './chartAxes';
import { overdueBands, sensorSeries, unitLabel, type ApexSeries } from './helpers';
import type { LimitStep } from './limitSteps';
import { displayZone, zonedEpoch } from '@/lib/format';

interface SensorChartProps {
  params: DeviceParam[];
  series: Record<string, ChartPoint[]> | undefined;
  bucketSeconds: number;
  unit: TemperatureUnit;
  loading?: boolean;
  height?: number;
  /**
   * The limit lines (from the limits' history, or fixed over the range: `fixedLimitSteps`), each
   * drawn as a series on its sensor's unit axis: the only way a chart draws limits, so a %RH limit
   * can never land on the temperature axis.
   */
  limitSteps?: LimitStep[];
  /** The zone the time axis and tooltip read in (the device's); the account's when not given. */
  timeZone?: string | null;
  /** Per sensor, the spans its calibration was overdue: shaded behind the lines (issue 48). */
  overdue?: Record<string, ChartOverdue[]>;
}

const NO_STEPS: LimitStep[] = [];

/**
 * Sensor lines over time (ApexCharts, x-axis zoom with the toolbar); bucketed answers also draw
 * each sensor's min / max band as a range area.
 */
export function SensorChart({
  params,
  series,
  bucketSeconds,
  unit,
  loading = false,
  height = 380,
  limitSteps = NO_STEPS,
  timeZone,
  overdue,
}: SensorChartProps) {
  const zone = timeZone || displayZone();
  const { t, i18n } = useTranslation('device');
  const theme = useTheme();
  const { token } = antdTheme.useToken();
  const bucketed = bucketSeconds > 0;
  const sensorLines = useMemo<ApexSeries[]>(
    () =>
      params.flatMap((param) => {
        const points = series?.[String(param.probeId)] ?? [];
        const name = legendName(param.paramName, unitLabel(param, unit));
        return sensorSeries(name, points, bucketed, t('chart.band', { name }));
      }),
    [params, series, bucketed, t, unit],
  );
  // The limit steps follow the sensors' series, each sharing its unit's axis.
  // ApexCharts draws UTC: every instant is moved to the zone's wall time, so the axis and the
  // tooltip read in the device's zone whatever the browser's.
  const chartSeries = useMemo<ApexSeries[]>(
    () =>
      [...sensorLines, ...limitSteps.map((step) => ({ name: step.name, type: 'line' as const, data: step.data }))].map(
        (item) => ({ ...item, data: item.data.map((point) => ({ ...point, x: zonedEpoch(point.x, zone) })) }),
      ),
    [sensorLines, limitSteps, zone],
  );
  const hasPoints = sensorLines.some((item) => item.data.length > 0);
  const colors = useMemo(
    () => [
      ...params.flatMap((_, index) => {
        const color = theme.chartPalette[index % theme.chartPalette.length];
        return bucketed ? [color, color] : [color];
      }),
      ...limitSteps.map((step) => (step.kind === 'upper' ? token.colorError : token.colorInfo)),
    ],
    [params, bucketed, theme.chartPalette, limitSteps, token],
  );
  // One y-axis per unit: the temperature unit on the left, %RH and others on the right.
  const units = useMemo(
    () => [...seriesUnits(params, unit, bucketed), ...limitSteps.map((step) => step.unitText)],
    [params, unit, bucketed, limitSteps],
  );
  const options = useMemo<ApexOptions>(
    () => ({
      chart: {
        id: 'sensor-chart',
        animations: { enabled: false },
        zoom: { enabled: true, type: 'x', autoScaleYaxis: true },
        toolbar: {
          show: true,
          tools: { download: false, zoom: true, zoomin: true, zoomout: true, pan: true, reset: true },
        },
        foreColor: theme.colors.textSecondary,
        fontFamily: theme.fontFamily,
        ...chartLocale(i18n.language),
      },
      colors,
      stroke: {
        curve: 'straight',
        width: chartSeries.map((item, index) =>
          item.type === 'rangeArea' ? 0 : index >= sensorLines.length ? 1.5 : 2,
        ),
        dashArray: chartSeries.map((_, index) => (index >= sensorLines.length ? 6 : 0)),
      },
      fill: { opacity: chartSeries.map((item) => (item.type === 'rangeArea' ? 0.2 : 1)) },
      dataLabels: { enabled: false },
      legend: { show: true },
      markers: { size: 0 },
      grid: { borderColor: theme.colors.border },
      xaxis: timeAxis(i18n.language, zone),
      yaxis: unitAxes(chartSeries, units),
      annotations: {
        // Readings taken while a shown probe's calibration was overdue: a shaded, labelled band.
        xaxis: overdueBands(params, overdue).map((span) => ({
          x: zonedEpoch(span.start, zone),
          x2: zonedEpoch(span.end, zone),
          fillColor: token.colorWarning,
          opacity: 0.12,
          borderColor: token.colorWarning,
          label: { text: t('chart.overdue'), style: { color: token.colorText, background: 'transparent' } },
        })),
        // Each limit value labelled where it starts to apply, on its unit's axis.
        points: limitSteps.flatMap((step) => {
          const color = step.kind === 'upper' ? token.colorError : token.colorInfo;
          return step.labels.map((item) => ({
            x: zonedEpoch(item.x, zone),
            y: item.y,
            yAxisIndex: limitAxisIndex(units, step.unitText),
            marker: { size: 0 },
            label: {
              text: item.text,
              borderColor: color,
              textAnchor: 'start',
              offsetY: step.kind === 'upper' ? -4 : 18,
              style: { color: token.colorTextLightSolid, background: color },
            },
          }));
        }),
      },
      tooltip: { shared: true, x: { format: 'yyyy-MM-dd HH:mm' } },
    }),
    [colors, chartSeries, sensorLines.length, theme, units, limitSteps, token, i18n.language, zone, params, overdue, t],
  );

  if (loading && !hasPoints)
    return (
      <Spin description={t('chart.loading')}>
        <div style={{ height }} />
      </Spin>
    );
  if (!hasPoints) return <Empty description={t('chart.noData')} data-testid="chart-empty" />;
  return (
    <div
      data-testid="sensor-chart"
      data-zone={zone}
      data-units={[...new Set(units)].join(' ')}
      data-limit-steps={limitSteps.map((step) => step.labels.map((item) => item.text).join(' → ')).join(' | ')}
      data-limit-axes={limitSteps.map((step) => `${step.unitText}@${limitAxisIndex(units, step.unitText)}`).join(' ')}
    >
      <ApexChart
        type={bucketed ? 'rangeArea' : 'line'}
        series={chartSeries as ApexOptions['series']}
        options={options}
        height={height}
      />
    </div>
  );
}
