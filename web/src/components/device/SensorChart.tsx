import type { ApexOptions } from 'apexcharts';
import { Empty, Spin } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useMemo } from 'react';
import { useTheme } from 'styled-components';
import type { ChartPoint, DeviceParam, TemperatureUnit } from '@/api/device';
import { ApexChart } from './ApexChart';
import { sensorSeries, unitLabel, type ApexSeries } from './helpers';

interface SensorChartProps {
  params: DeviceParam[];
  series: Record<string, ChartPoint[]> | undefined;
  bucketSeconds: number;
  unit: TemperatureUnit;
  loading?: boolean;
  height?: number;
}

/**
 * Sensor lines over time (ApexCharts, x-axis zoom with the toolbar); bucketed answers also draw
 * each sensor's min / max band as a range area.
 */
export function SensorChart({ params, series, bucketSeconds, unit, loading = false, height = 380 }: SensorChartProps) {
  const { t } = useTranslation('device');
  const theme = useTheme();
  const bucketed = bucketSeconds > 0;
  const chartSeries = useMemo<ApexSeries[]>(
    () =>
      params.flatMap((param) => {
        const points = series?.[String(param.probeId)] ?? [];
        return sensorSeries(param.paramName, points, bucketed, t('chart.band', { name: param.paramName }));
      }),
    [params, series, bucketed, t],
  );
  const hasPoints = chartSeries.some((item) => item.data.length > 0);
  const colors = useMemo(
    () => params.flatMap((_, index) => {
      const color = theme.chartPalette[index % theme.chartPalette.length];
      return bucketed ? [color, color] : [color];
    }),
    [params, bucketed, theme.chartPalette],
  );
  const yUnit = params[0] ? unitLabel(params[0], unit) : '';
  const options = useMemo<ApexOptions>(
    () => ({
      chart: {
        id: 'sensor-chart',
        animations: { enabled: false },
        zoom: { enabled: true, type: 'x', autoScaleYaxis: true },
        toolbar: { show: true, tools: { download: false, zoom: true, zoomin: true, zoomout: true, pan: true, reset: true } },
        foreColor: theme.colors.textSecondary,
        fontFamily: theme.fontFamily,
      },
      colors,
      stroke: { curve: 'straight', width: chartSeries.map((item) => (item.type === 'rangeArea' ? 0 : 2)) },
      fill: { opacity: chartSeries.map((item) => (item.type === 'rangeArea' ? 0.2 : 1)) },
      dataLabels: { enabled: false },
      legend: { show: true },
      markers: { size: 0 },
      grid: { borderColor: theme.colors.border },
      xaxis: { type: 'datetime', labels: { datetimeUTC: false } },
      yaxis: { decimalsInFloat: 1, title: { text: yUnit } },
      tooltip: { shared: true, x: { format: 'yyyy-MM-dd HH:mm' } },
    }),
    [colors, chartSeries, theme, yUnit],
  );

  if (loading && !hasPoints) return <Spin description={t('chart.loading')}><div style={{ height }} /></Spin>;
  if (!hasPoints) return <Empty description={t('chart.noData')} data-testid="chart-empty" />;
  return (
    <div data-testid="sensor-chart">
      <ApexChart type={bucketed ? 'rangeArea' : 'line'} series={chartSeries as ApexOptions['series']} options={options} height={height} />
    </div>
  );
}
