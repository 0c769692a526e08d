import { Checkbox, DatePicker, Segmented, Space, Tag, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'next-i18next/pages';
import { useMemo, useState } from 'react';
import styled from 'styled-components';
import { limitHistoryKey, type SensorLimitPeriod } from '@/api/alarm';
import { chartDataKey, type ChartAnswer, type DeviceDetail, type TemperatureUnit } from '@/api/device';
import { useSensorLimits } from '@/hooks/useAlarms';
import { useRead } from '@/hooks/useRead';
import { correctedBy, presetRange, RANGE_PRESETS, sensorParams, type RangePreset } from './helpers';
import { isoWithOffset } from '@/lib/format';
import { limitStepsOf, type LimitStep } from './limitSteps';
import { SensorChart } from './SensorChart';

type RangeChoice = RangePreset | 'custom';

const NO_STEPS: LimitStep[] = [];

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
  // The limits in force at each time of the range (their history), stepping where they changed.
  const { data: history } = useRead<SensorLimitPeriod[]>(limitHistoryKey(device.id));
  const [showLimits, setShowLimits] = useState(true);

  const pick = (next: RangeChoice) => {
    setChoice(next);
    if (next !== 'custom') setRange(presetRange(next));
  };
  const start = isoWithOffset(range[0]);
  const end = isoWithOffset(range[1]);
  const sensorList = [...chosen].sort((a, b) => a - b).join(',');
  const { data, isLoading } = useRead<ChartAnswer>(
    sensorList ? chartDataKey({ deviceId: device.id, start, end, sensors: sensorList, unit }) : null,
    {
      keepPreviousData: true,
      revalidateOnFocus: false,
    },
  );
  const shown = useMemo(() => sensors.filter((sensor) => chosen.includes(sensor.probeId as number)), [sensors, chosen]);
  const from = range[0].getTime();
  const to = range[1].getTime();
  const allSteps = useMemo(
    () => limitStepsOf(shown, history, limits, unit, [from, to], (kind, value) => t(`chart.${kind}`, { value })),
    [shown, history, limits, unit, from, to, t],
  );
  const limitSteps = showLimits ? allSteps : NO_STEPS;

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Controls>
        <div className="ranges">
          <Segmented<RangeChoice>
            value={choice}
            onChange={pick}
            data-testid="chart-range"
            options={[...RANGE_PRESETS, 'custom' as const].map((preset) => ({
              value: preset,
              label: t(`chart.range.${preset}`),
            }))}
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
        <Segmented<TemperatureUnit>
          value={unit}
          onChange={setUnit}
          options={[
            { value: 'C', label: '°C' },
            { value: 'F', label: '°F' },
          ]}
          data-testid="chart-unit"
        />
        <Checkbox
          checked={showLimits && allSteps.length > 0}
          disabled={!allSteps.length}
          onChange={(event) => setShowLimits(event.target.checked)}
          data-testid="chart-limits"
        >
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
        <Typography.Text type="secondary">
          {t('chart.bucketed', { minutes: Math.round(data.bucketSeconds / 60) })}
        </Typography.Text>
      ) : null}
      {data?.corrected ? (
        <Tag color="blue" data-testid="chart-corrected">
          {t('chart.corrected', { certificates: correctedBy(data.corrections) || '-' })}
        </Tag>
      ) : null}
      <SensorChart
        params={shown}
        series={data?.series}
        bucketSeconds={data?.bucketSeconds ?? 0}
        unit={unit}
        loading={isLoading}
        limitSteps={limitSteps}
        timeZone={device.timeZone}
        overdue={data?.overdue}
      />
    </Space>
  );
}
