import { Checkbox, DatePicker, Segmented, Space, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'next-i18next/pages';
import { useMemo, useState } from 'react';
import styled from 'styled-components';
import type { SensorLimit } from '@/api/alarm';
import { chartDataKey, type ChartAnswer, type DeviceDetail, type TemperatureUnit } from '@/api/device';
import { useSensorLimits } from '@/hooks/useAlarms';
import { useRead } from '@/hooks/useRead';
import { formatValue, inUnit, isoWithOffset, isTemperature, presetRange, RANGE_PRESETS, sensorParams, unitLabel, type RangePreset } from './helpers';
import { SensorChart, type LimitLine } from './SensorChart';

type RangeChoice = RangePreset | 'custom';

const NO_LINES: LimitLine[] = [];

/** The chart's controls wrap; the range switch scrolls sideways on a phone instead of widening the page. */
const Controls = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 8px 12px;
  align-items: center;
  min-width: 0;

  > * {
    max-width: 100%;
    min-width: 0;
  }

  .ranges {
    overflow-x: auto;
  }
`;

/**
 * Limit lines of the shown sensors in the chosen unit (one line per distinct kind and value): the
 * alarm limits set for the device's sensors (stored in the parameter's own unit, Celsius for
 * temperatures); a sensor without an enabled limit draws nothing.
 */
export function limitLinesOf(
  sensors: DeviceDetail['params'],
  limits: SensorLimit[] | undefined,
  unit: TemperatureUnit,
  label: (kind: 'upper' | 'lower', value: string) => string,
): LimitLine[] {
  const lines = new Map<string, LimitLine>();
  for (const param of sensors) {
    const limit = limits?.find((row) => row.sensor === param.probeId && row.enabled);
    if (!limit) continue;
    for (const kind of ['upper', 'lower'] as const) {
      const raw = kind === 'upper' ? limit.upperLimit : limit.lowerLimit;
      if (raw === null || raw === undefined || !Number.isFinite(raw)) continue;
      const y = isTemperature(param) ? inUnit(raw, unit) : raw;
      const key = `${kind}:${y}`;
      if (!lines.has(key)) lines.set(key, { kind, y, label: label(kind, `${formatValue(y, param.precision)} ${unitLabel(param, unit)}`.trim()) });
    }
  }
  return [...lines.values()];
}

/** Data chart tab: quick ranges (year view included), a custom range, sensors, C / F, limit lines, zoom. */
export function ChartTab({ device }: { device: DeviceDetail }) {
  const { t } = useTranslation('device');
  const sensors = useMemo(() => sensorParams(device.params), [device.params]);
  const [choice, setChoice] = useState<RangeChoice>('h24');
  const [range, setRange] = useState<[Date, Date]>(() => presetRange('h24'));
  const [unit, setUnit] = useState<TemperatureUnit>('C');
  const [chosen, setChosen] = useState<number[]>(() => sensors.map((sensor) => sensor.probeId as number));
  // The alarm limits (notification settings tab), shown at once; the switch hides them.
  const { data: limits } = useSensorLimits(device.id);
  const [showLimits, setShowLimits] = useState(true);

  const pick = (next: RangeChoice) => {
    setChoice(next);
    if (next !== 'custom') setRange(presetRange(next));
  };
  const start = isoWithOffset(range[0]);
  const end = isoWithOffset(range[1]);
  const sensorList = [...chosen].sort((a, b) => a - b).join(',');
  const { data, isLoading } = useRead<ChartAnswer>(sensorList ? chartDataKey({ deviceId: device.id, start, end, sensors: sensorList, unit }) : null, {
    keepPreviousData: true,
    revalidateOnFocus: false,
  });
  const shown = useMemo(() => sensors.filter((sensor) => chosen.includes(sensor.probeId as number)), [sensors, chosen]);
  const allLines = useMemo(() => limitLinesOf(shown, limits, unit, (kind, value) => t(`chart.${kind}`, { value })), [shown, limits, unit, t]);
  const limitLines = showLimits ? allLines : NO_LINES;

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Controls>
        <div className="ranges">
          <Segmented<RangeChoice>
            value={choice}
            onChange={pick}
            data-testid="chart-range"
            options={[...RANGE_PRESETS, 'custom' as const].map((preset) => ({ value: preset, label: t(`chart.range.${preset}`) }))}
          />
        </div>
        {choice === 'custom' ? (
          <DatePicker.RangePicker
            showTime
            value={[dayjs(range[0]), dayjs(range[1])]}
            disabledDate={(date: Dayjs) => date.isAfter(dayjs().endOf('day'))}
            onChange={(values) => {
              if (values?.[0] && values[1]) setRange([values[0].toDate(), values[1].toDate()]);
            }}
          />
        ) : null}
        <Segmented<TemperatureUnit> value={unit} onChange={setUnit} options={[{ value: 'C', label: '°C' }, { value: 'F', label: '°F' }]} data-testid="chart-unit" />
        <Checkbox checked={showLimits && allLines.length > 0} disabled={!allLines.length} onChange={(event) => setShowLimits(event.target.checked)} data-testid="chart-limits">
          {t('chart.limits')}
        </Checkbox>
      </Controls>
      {sensors.length > 1 ? (
        <Checkbox.Group
          value={chosen}
          onChange={(values) => setChosen(values as number[])}
          options={sensors.map((sensor) => ({ value: sensor.probeId as number, label: sensor.paramName }))}
        />
      ) : null}
      {data && data.bucketSeconds > 0 ? (
        <Typography.Text type="secondary">{t('chart.bucketed', { minutes: Math.round(data.bucketSeconds / 60) })}</Typography.Text>
      ) : null}
      <SensorChart params={shown} series={data?.series} bucketSeconds={data?.bucketSeconds ?? 0} unit={unit} loading={isLoading} limitLines={limitLines} />
    </Space>
  );
}
