import {
  Button,
  Card,
  theme as antdTheme,
  Col,
  Descriptions,
  Empty,
  Image,
  Row,
  Segmented,
  Space,
  Statistic,
  Table,
  Tag,
  Typography,
} from 'antd';
import Link from 'next/link';
import { useTranslation } from 'next-i18next/pages';
import { useMemo, useState } from 'react';
import styled from 'styled-components';
import { useSWRConfig } from 'swr';
import { unreadCountKey } from '@/api/alarm';
import { STATE_COLORS } from '@/components/alarm/format';
import { ProcessModal } from '@/components/alarm/ProcessModal';
import { PushSettingForm } from '@/components/alarm/PushSettingForm';
import type { DeviceParam, EnergyMonth, TemperatureUnit } from '@/api/device';
import {
  saveStoragePush,
  storageAlarmsKey,
  storageChartKey,
  storageEnergyKey,
  storageOverviewKey,
  storageParamsKey,
  storagePushKey,
  storageTopUpKey,
  type Overview,
  type Probe,
  type Storage,
  type StorageAlarm,
  type StorageChart,
  type StorageParams,
  type StoragePush,
  type TopUp,
} from '@/api/storage';
import { formatDate, formatReading, formatTime, formatValue, formatZoned, isoWithOffset } from '@/lib/format';
import { presetRange, RANGE_PRESETS, unitLabel, type RangePreset } from '@/components/device/helpers';
import { SensorChart } from '@/components/device/SensorChart';
import { fixedLimitSteps } from '@/components/device/limitSteps';
import { usePagedQuery } from '@/hooks/usePagedQuery';
import { useRead } from '@/hooks/useRead';
import { DataList } from '@/components/ui/DataList';

/** Live values refresh every 10 s on the overview. */
export const OVERVIEW_REFRESH_MS = 10_000;

const Plan = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(180px, 1fr));
  gap: 12px;
`;

function onOff(value: boolean | null, on: string, off: string): string {
  return value === null ? '-' : value ? on : off;
}

function ProbeTile({ probe, timeZone }: { probe: Probe; timeZone: string | null }) {
  const { t } = useTranslation('storage');
  const { token } = antdTheme.useToken();
  return (
    <Card
      size="small"
      style={probe.alarm ? { borderColor: token.colorError } : undefined}
      data-testid="storage-probe"
      data-zone={probe.zone}
    >
      <Typography.Text type="secondary">
        {t(`zone.${probe.zone}`)} · {probe.probeName}
      </Typography.Text>
      <Statistic
        value={formatValue(probe.value, probe.precision)}
        suffix={probe.unit ?? ''}
        valueStyle={
          probe.stale ? { color: token.colorTextDisabled } : probe.alarm ? { color: token.colorError } : undefined
        }
      />
      {probe.stale ? (
        <Tag color="warning" data-testid="probe-stale">
          {t('overview.stale', { time: formatZoned(probe.lastDataTime, timeZone) })}
        </Tag>
      ) : null}
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {probe.deviceName} · {probe.online ? t('overview.online') : t('overview.offline')}
        {probe.upper !== null || probe.lower !== null
          ? ` · ${formatValue(probe.lower)} ~ ${formatValue(probe.upper)}`
          : ''}
      </Typography.Text>
    </Card>
  );
}

export function useOverview(storage: Storage) {
  return useRead<Overview>(storageOverviewKey(storage.kind, storage.id), { refreshInterval: OVERVIEW_REFRESH_MS });
}

/** The controller's state (setpoint, compressor, fan, defrost, door, light) as a row of figures. */
export function ControllerState({ overview }: { overview: Overview }) {
  const { t } = useTranslation('storage');
  const items: [string, string][] = [
    ['setpoint', overview.setpoint === null ? '-' : `${formatValue(overview.setpoint)} °C`],
    ['compressor', onOff(overview.compressor, t('overview.running'), t('overview.stopped'))],
    ['fan', onOff(overview.fan, t('overview.running'), t('overview.stopped'))],
    ['defrost', onOff(overview.defrost, t('overview.on'), t('overview.off'))],
    ['door', onOff(overview.door, t('overview.open'), t('overview.closed'))],
    ['light', onOff(overview.light, t('overview.on'), t('overview.off'))],
  ];
  return (
    <Row gutter={[12, 12]} data-testid="controller-state">
      {items.map(([key, value]) => (
        <Col key={key} xs={12} sm={8} md={4}>
          <Card size="small">
            <Statistic title={t(`overview.${key}`)} value={value} valueStyle={{ fontSize: 18 }} />
            <span data-testid={`state-${key}`} data-value={value} hidden />
          </Card>
        </Col>
      ))}
    </Row>
  );
}

/** System overview: the zone layout with live values per probe, the controller's state, alarm state, MKT. */
export function OverviewTab({ storage }: { storage: Storage }) {
  const { t } = useTranslation('storage');
  const { data } = useOverview(storage);
  if (!data) return <Card loading />;
  const zones = [...new Set(data.probes.map((probe) => probe.zone))];
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="storage-overview">
      <Space wrap>
        <Tag color={data.alarm ? 'error' : 'success'} data-testid="overview-alarm">
          {data.alarm ? t('overview.alarm') : t('overview.normal')}
        </Tag>
        {data.controllerOnline !== null ? (
          <Tag color={data.controllerOnline ? 'success' : 'default'}>
            {t('overview.controller')}: {data.controllerOnline ? t('overview.online') : t('overview.offline')}
          </Tag>
        ) : null}
        {data.mkt !== null ? (
          <Tag data-testid="overview-mkt">
            {t('overview.mkt')}: {formatValue(data.mkt, 2)} °C
          </Tag>
        ) : null}
        <Typography.Text type="secondary">
          {t('overview.lastData')}: {formatZoned(data.lastDataTime, storage.timeZone)}
        </Typography.Text>
      </Space>
      {storage.kind === 'storage' ? <ControllerState overview={data} /> : null}
      {data.probes.length ? null : <Empty description={t('overview.noProbes')} />}
      {zones.map((zone) => (
        <div key={zone}>
          <Typography.Title level={5}>{t(`zone.${zone}`)}</Typography.Title>
          <Plan>
            {data.probes
              .filter((probe) => probe.zone === zone)
              .map((probe) => (
                <ProbeTile key={probe.id} probe={probe} timeZone={storage.timeZone} />
              ))}
          </Plan>
        </div>
      ))}
    </Space>
  );
}

/** Every probe of the storage on one chart (the device chart), with the alarm limits as lines. */
export function ChartTab({ storage }: { storage: Storage }) {
  const { t } = useTranslation('storage');
  const { t: td } = useTranslation('device');
  const [preset, setPreset] = useState<RangePreset>('h24');
  const [unit, setUnit] = useState<TemperatureUnit>('C');
  const [start, end] = useMemo(() => presetRange(preset), [preset]);
  const { data, isLoading } = useRead<StorageChart>(
    storageChartKey(storage.kind, {
      storageId: storage.id,
      start: isoWithOffset(start),
      end: isoWithOffset(end),
      unit,
    }),
  );
  const params = useMemo<DeviceParam[]>(
    () =>
      (data?.series ?? []).map((series, index) => ({
        paramKey: series.key,
        paramName: `${t(`zone.${series.zone}`)} · ${series.probeName ?? series.sensor}`,
        paramType: 'sensor',
        probeId: index,
        unit: series.unit,
        unitCode: series.unit === '°C' || series.unit === '°F' ? 'celsius' : null,
        precision: 1,
        paramMin: null,
        paramMax: null,
        readWriteType: 'R',
      })),
    [data, t],
  );
  const points = useMemo(
    () => Object.fromEntries((data?.series ?? []).map((series, index) => [String(index), series.points])),
    [data],
  );
  // The limits as the device chart draws them: each on its probe's unit axis.
  const limitSteps = useMemo(
    () =>
      fixedLimitSteps(
        (data?.series ?? []).map((series, index) => ({
          sensor: index,
          unitText: unitLabel(params[index], unit),
          upper: series.upper,
          lower: series.lower,
        })),
        [start.getTime(), end.getTime()],
        (kind, value) => td(`chart.${kind}`, { value }),
      ),
    [data, params, unit, start, end, td],
  );
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="storage-chart">
      <Space wrap>
        <Segmented
          value={preset}
          onChange={(value) => setPreset(value as RangePreset)}
          options={RANGE_PRESETS.map((value) => ({ value, label: td(`chart.range.${value}`) }))}
        />
        <Segmented
          value={unit}
          onChange={(value) => setUnit(value as TemperatureUnit)}
          options={['C', 'F'].map((value) => ({ value, label: `°${value}` }))}
        />
      </Space>
      <SensorChart
        params={params}
        series={points}
        bucketSeconds={data?.bucketSeconds ?? 0}
        unit={unit}
        loading={isLoading}
        limitSteps={limitSteps}
        timeZone={storage.timeZone}
      />
    </Space>
  );
}

/** The storage's alarm record: its devices' alarms (processed here as the device's alarm list does: the
 * same call and permission) and its own (rolling MKT). */
export function AlarmTab({ storage }: { storage: Storage }) {
  const { t } = useTranslation('storage');
  const { t: ta } = useTranslation('alarm');
  const { mutate: mutateGlobal } = useSWRConfig();
  const list = usePagedQuery<StorageAlarm, object>(storageAlarmsKey(storage.kind, storage.id), {});
  const [processing, setProcessing] = useState<number[] | null>(null);
  const source = (a: StorageAlarm) => {
    if (a.source === 'storage') return t('alarm.storage');
    const where = a.zone ? `${t(`zone.${a.zone}`)} · ` : '';
    return `${where}${a.probeName ?? (a.sensor ? `#${a.sensor}` : '')} (${a.deviceName ?? ''})`;
  };
  const withUnit = (value: number | null, unit: string | null) =>
    value === null ? '-' : `${formatValue(value)}${unit ? ` ${unit}` : ''}`;
  return (
    <>
      <DataList<StorageAlarm>
        rowKey="id"
        testId="storage-alarms"
        data={list.data}
        loading={list.loading}
        pagination={list.pagination}
        columns={[
          {
            key: 'kind',
            title: t('alarm.kind'),
            card: 'title',
            important: true,
            render: (_, a) => (a.kind === 'mkt' ? t('alarm.mkt') : ta(`kind.${a.kind}`, { defaultValue: a.kind })),
          },
          { key: 'source', title: t('alarm.source'), render: (_, a) => source(a) },
          {
            key: 'status',
            title: t('alarm.status'),
            important: true,
            render: (_, a) => (
              <Tag color={a.status === 'open' ? 'error' : 'default'}>{t(`alarmStatus.${a.status}`)}</Tag>
            ),
          },
          {
            key: 'open',
            title: t('alarm.open'),
            important: true,
            render: (_, a) => formatZoned(a.openTime, storage.timeZone),
          },
          {
            key: 'close',
            title: t('alarm.close'),
            responsive: ['md'],
            render: (_, a) =>
              `${formatZoned(a.closeTime, storage.timeZone)}${a.closeReason ? ` (${ta(`closeReason.${a.closeReason}`)})` : ''}`,
          },
          { key: 'limit', title: t('alarm.limit'), render: (_, a) => withUnit(a.limitValue, a.unit) },
          { key: 'peak', title: t('alarm.peak'), render: (_, a) => withUnit(a.peakValue, a.unit) },
          {
            key: 'process',
            title: ta('column.state'),
            important: true,
            render: (_, a) =>
              a.processState === null ? (
                '-'
              ) : (
                <Space size={4} wrap>
                  <Tag color={STATE_COLORS[a.processState]}>{ta(`state.${a.processState}`)}</Tag>
                  {a.result ? <Typography.Text type="secondary">{a.result}</Typography.Text> : null}
                  {a.processState === 'pending' && a.messageId !== null ? (
                    <Button
                      size="small"
                      type="link"
                      data-testid="storage-alarm-process"
                      onClick={() => setProcessing([a.messageId as number])}
                    >
                      {ta('action.process')}
                    </Button>
                  ) : null}
                </Space>
              ),
          },
        ]}
      />
      <ProcessModal
        ids={processing ?? []}
        open={processing !== null}
        onClose={() => setProcessing(null)}
        onDone={() => {
          setProcessing(null);
          void list.mutate();
          void mutateGlobal(unreadCountKey());
        }}
      />
    </>
  );
}

/** The alarm push setting of the storage: the device's push-setting form (every level, channel, repeat,
 * delay and schedule), loaded from its controller (or first device) and saved to every device. */
export function PushTab({ storage }: { storage: Storage }) {
  const { t } = useTranslation('storage');
  const { data, mutate } = useRead<StoragePush>(storagePushKey(storage.kind, storage.id));
  return (
    <PushSettingForm
      data={data}
      disabled={!storage.writable}
      testId="storage-push"
      note={t('push.note')}
      onSave={(setting) =>
        mutate(saveStoragePush(storage.kind, { storageId: storage.id, ...setting }), { revalidate: false })
      }
    />
  );
}

export function ParamsTab({ storage }: { storage: Storage }) {
  const { t } = useTranslation('storage');
  const { t: tc } = useTranslation('common');
  const states = { on: tc('reading.running'), off: tc('reading.stopped') };
  const { data } = useRead<StorageParams>(storageParamsKey(storage.kind, storage.id), {
    refreshInterval: OVERVIEW_REFRESH_MS,
  });
  return (
    <Table
      rowKey="paramKey"
      data-testid="storage-params"
      dataSource={data?.params ?? []}
      loading={!data}
      pagination={false}
      scroll={{ x: 'max-content' }}
      columns={[
        { key: 'name', title: t('params.name'), render: (_, p) => `${p.paramName} (${p.paramKey})` },
        {
          key: 'value',
          title: t('params.value'),
          render: (_, p) => formatReading(p.value, { ...p, precision: null }, states),
        },
        { key: 'rw', title: t('params.rw'), dataIndex: 'readWrite' },
        {
          key: 'command',
          title: t('params.command'),
          render: (_, p) => (p.commandStatus ? t(`command.status.${p.commandStatus}`) : '-'),
        },
      ]}
    />
  );
}

export function TopUpTab({ storage }: { storage: Storage }) {
  const { t } = useTranslation('storage');
  const { data } = useRead<TopUp>(storageTopUpKey(storage.kind, storage.id));
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Table
        rowKey="deviceId"
        data-testid="storage-topup"
        dataSource={data?.devices ?? []}
        loading={!data}
        pagination={false}
        scroll={{ x: 'max-content' }}
        columns={[
          { key: 'device', title: t('topUp.device'), render: (_, d) => `${d.deviceName ?? ''} (${d.deviceGuid})` },
          { key: 'expires', title: t('topUp.expires'), render: (_, d) => formatDate(d.serviceExpireTime) },
          { key: 'sms', title: t('topUp.sms'), dataIndex: 'smsCount' },
          { key: 'voice', title: t('topUp.voice'), dataIndex: 'voiceCount' },
        ]}
      />
      <Link href={data?.rechargePath ?? '/consumer/recharge'}>{t('topUp.recharge')}</Link>
    </Space>
  );
}

export function EnergyTab({ storage }: { storage: Storage }) {
  const { t } = useTranslation('storage');
  const { data } = useRead<EnergyMonth[]>(storageEnergyKey(storage.kind, storage.id));
  return (
    <Table
      rowKey="month"
      data-testid="storage-energy"
      dataSource={data ?? []}
      loading={!data}
      pagination={false}
      columns={[
        { key: 'month', title: t('energy.month'), render: (_, m) => formatTime(m.month, 'YYYY-MM') },
        { key: 'kwh', title: t('energy.kwh'), render: (_, m) => formatValue(m.kwh, 2) },
      ]}
    />
  );
}

export function InfoTab({ storage }: { storage: Storage }) {
  const { t } = useTranslation('storage');
  const rows: [string, string | null | undefined][] =
    storage.kind === 'freezer'
      ? [
          ['brand', storage.brand],
          ['model', storage.model],
        ]
      : [
          ['volume', storage.volume],
          ['area', storage.area],
          ['compressor', storage.compressor],
          ['airCooler', storage.airCooler],
          ['electricBox', storage.electricBox],
          ['address', storage.address],
        ];
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="storage-info">
      <Descriptions bordered size="small" column={{ xs: 1, sm: 1, md: 2 }}>
        <Descriptions.Item label={t('field.storageName')}>{storage.storageName}</Descriptions.Item>
        {rows.map(([key, value]) => (
          <Descriptions.Item key={key} label={t(`field.${key}`)}>
            {value || '-'}
          </Descriptions.Item>
        ))}
        {storage.lat !== null && storage.lng !== null ? (
          <Descriptions.Item label={`${t('field.lat')} / ${t('field.lng')}`}>
            {storage.lat}, {storage.lng}
          </Descriptions.Item>
        ) : null}
        <Descriptions.Item label={t('field.timeZone')}>{storage.timeZone}</Descriptions.Item>
        {storage.controller ? (
          <>
            <Descriptions.Item label={t('field.controllerGuid')}>{storage.controller.deviceGuid}</Descriptions.Item>
            <Descriptions.Item label={t('field.controllerType')}>{storage.controller.typeName}</Descriptions.Item>
          </>
        ) : null}
        <Descriptions.Item label={t('field.mktEnabled')}>
          {storage.mktEnabled ? `${storage.mktWindowHours} h / ${formatValue(storage.mktLimit)} °C` : t('no')}
        </Descriptions.Item>
        <Descriptions.Item label={t('field.remark')}>{storage.remark || '-'}</Descriptions.Item>
      </Descriptions>
      {storage.imageUrls.length ? (
        <Image.PreviewGroup>
          <Space wrap>
            {storage.imageUrls.map((url) => (
              <Image key={url} src={url} width={120} alt={storage.storageName} />
            ))}
          </Space>
        </Image.PreviewGroup>
      ) : null}
    </Space>
  );
}
