import { Checkbox, DatePicker, Segmented, Space, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'next-i18next/pages';
import { useMemo, useState } from 'react';
import useSWR from 'swr';
import { chartData, type DeviceDetail, type TemperatureUnit } from '@/api/device';
import { isoWithOffset, presetRange, RANGE_PRESETS, sensorParams, type RangePreset } from './helpers';
import { SensorChart } from './SensorChart';

type RangeChoice = RangePreset | 'custom';

/** Data chart tab: quick ranges, a custom range, sensors, C / F, zoom. */
export function ChartTab({ device }: { device: DeviceDetail }) {
  const { t } = useTranslation('device');
  const sensors = useMemo(() => sensorParams(device.params), [device.params]);
  const [choice, setChoice] = useState<RangeChoice>('h24');
  const [range, setRange] = useState<[Date, Date]>(() => presetRange('h24'));
  const [unit, setUnit] = useState<TemperatureUnit>('C');
  const [chosen, setChosen] = useState<number[]>(() => sensors.map((sensor) => sensor.probeId as number));

  const pick = (next: RangeChoice) => {
    setChoice(next);
    if (next !== 'custom') setRange(presetRange(next));
  };
  const start = isoWithOffset(range[0]);
  const end = isoWithOffset(range[1]);
  const sensorList = [...chosen].sort((a, b) => a - b).join(',');
  const { data, isLoading } = useSWR(
    sensorList ? ['device-chart', device.id, start, end, sensorList, unit] : null,
    () => chartData({ deviceId: device.id, start, end, sensors: sensorList, unit }),
    { keepPreviousData: true, revalidateOnFocus: false },
  );
  const shown = sensors.filter((sensor) => chosen.includes(sensor.probeId as number));

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Space wrap>
        <Segmented<RangeChoice>
          value={choice}
          onChange={pick}
          data-testid="chart-range"
          options={[...RANGE_PRESETS, 'custom' as const].map((preset) => ({ value: preset, label: t(`chart.range.${preset}`) }))}
        />
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
      </Space>
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
      <SensorChart params={shown} series={data?.series} bucketSeconds={data?.bucketSeconds ?? 0} unit={unit} loading={isLoading} />
    </Space>
  );
}
