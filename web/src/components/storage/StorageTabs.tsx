import { App, Button, Card, theme as antdTheme, Checkbox, Col, Descriptions, Empty, Form, Image, Input, Row, Segmented, Space, Statistic, Table, Tag, Typography } from 'antd';
import Link from 'next/link';
import { useTranslation } from 'next-i18next/pages';
import { useMemo, useState } from 'react';
import styled from 'styled-components';
import { CHANNELS, type Channel } from '@/api/alarm';
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
import { formatDate, formatTime } from '@/components/device/format';
import { formatValue, isoWithOffset, presetRange, RANGE_PRESETS, type RangePreset } from '@/components/device/helpers';
import { SensorChart, type LimitLine } from '@/components/device/SensorChart';
import { usePagedQuery } from '@/hooks/usePagedQuery';
import { useRead } from '@/hooks/useRead';
import { SymbolFreeInput } from '@/components/ui/SymbolFreeInput';

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

function ProbeTile({ probe }: { probe: Probe }) {
  const { t } = useTranslation('storage');
  const { token } = antdTheme.useToken();
  return (
    <Card size="small" style={probe.alarm ? { borderColor: token.colorError } : undefined} data-testid="storage-probe" data-zone={probe.zone}>
      <Typography.Text type="secondary">
        {t(`zone.${probe.zone}`)} · {probe.probeName}
      </Typography.Text>
      <Statistic
        value={formatValue(probe.value, probe.precision)}
        suffix={probe.unit ?? ''}
        valueStyle={probe.alarm ? { color: token.colorError } : undefined}
      />
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {probe.deviceName} · {probe.online ? t('overview.online') : t('overview.offline')}
        {probe.upper !== null || probe.lower !== null ? ` · ${formatValue(probe.lower)} ~ ${formatValue(probe.upper)}` : ''}
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
        {data.mkt !== null ? <Tag data-testid="overview-mkt">{t('overview.mkt')}: {formatValue(data.mkt, 2)} °C</Tag> : null}
        <Typography.Text type="secondary">
          {t('overview.lastData')}: {formatTime(data.lastDataTime)}
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
                <ProbeTile key={probe.id} probe={probe} />
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
  const { data, isLoading } = useRead<StorageChart>(storageChartKey(storage.kind, { storageId: storage.id, start: isoWithOffset(start), end: isoWithOffset(end), unit }));
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
  const points = useMemo(() => Object.fromEntries((data?.series ?? []).map((series, index) => [String(index), series.points])), [data]);
  const lines = useMemo<LimitLine[]>(() => {
    const found = new Map<string, LimitLine>();
    for (const series of data?.series ?? []) {
      for (const kind of ['upper', 'lower'] as const) {
        const y = series[kind];
        if (y !== null) found.set(`${kind}:${y}`, { kind, y, label: td(`chart.${kind}`, { value: formatValue(y) }) });
      }
    }
    return [...found.values()];
  }, [data, td]);
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="storage-chart">
      <Space wrap>
        <Segmented value={preset} onChange={(value) => setPreset(value as RangePreset)} options={RANGE_PRESETS.map((value) => ({ value, label: td(`chart.range.${value}`) }))} />
        <Segmented value={unit} onChange={(value) => setUnit(value as TemperatureUnit)} options={['C', 'F'].map((value) => ({ value, label: `°${value}` }))} />
      </Space>
      <SensorChart params={params} series={points} bucketSeconds={data?.bucketSeconds ?? 0} unit={unit} loading={isLoading} limitLines={lines} />
    </Space>
  );
}

export function AlarmTab({ storage }: { storage: Storage }) {
  const { t } = useTranslation('storage');
  const { t: ta } = useTranslation('alarm');
  const list = usePagedQuery<StorageAlarm, object>(storageAlarmsKey(storage.kind, storage.id), {});
  return (
    <Table<StorageAlarm>
      rowKey="id"
      data-testid="storage-alarms"
      dataSource={list.data}
      loading={list.loading}
      pagination={list.pagination}
      scroll={{ x: 'max-content' }}
      columns={[
        { key: 'kind', title: t('alarm.kind'), render: (_, a) => (a.kind === 'mkt' ? t('alarm.mkt') : ta(`kind.${a.kind}`, { defaultValue: a.kind })) },
        { key: 'source', title: t('alarm.source'), render: (_, a) => (a.source === 'storage' ? t('alarm.storage') : `${a.deviceName ?? ''}${a.sensor ? ` #${a.sensor}` : ''}`) },
        { key: 'status', title: t('alarm.status'), render: (_, a) => <Tag color={a.status === 'open' ? 'error' : 'default'}>{t(`alarmStatus.${a.status}`)}</Tag> },
        { key: 'open', title: t('alarm.open'), render: (_, a) => formatTime(a.openTime) },
        { key: 'close', title: t('alarm.close'), render: (_, a) => formatTime(a.closeTime), responsive: ['md'] },
        { key: 'limit', title: t('alarm.limit'), render: (_, a) => formatValue(a.limitValue) },
        { key: 'peak', title: t('alarm.peak'), render: (_, a) => formatValue(a.peakValue) },
      ]}
    />
  );
}

interface PushForm {
  channels: Channel[];
  name: string;
  email: string;
  phone: string;
}

/** The alarm push setting of the storage: channels and first-level recipients, saved to every device. */
export function PushTab({ storage }: { storage: Storage }) {
  const { t } = useTranslation('storage');
  const { message } = App.useApp();
  const { data, mutate } = useRead<StoragePush>(storagePushKey(storage.kind, storage.id));
  const [form] = Form.useForm<PushForm>();
  if (!data) return <Card loading />;
  const first = data.levels[0]?.recipients[0];
  const save = async (values: PushForm) => {
    const recipient = { name: values.name, email: values.email || null, phone: values.phone || null, lang: 'zh-CN' };
    await saveStoragePush(storage.kind, { storageId: storage.id, channels: values.channels, levels: [{ level: 1, minutes: 0, recipients: [recipient] }] });
    message.success(t('push.saved'));
    void mutate();
  };
  return (
    <Form<PushForm>
      form={form}
      layout="vertical"
      onFinish={save}
      initialValues={{ channels: data.channels, name: first?.name ?? '', email: first?.email ?? '', phone: first?.phone ?? '' }}
      disabled={!storage.writable}
      data-testid="storage-push"
      style={{ maxWidth: 520 }}
    >
      <Typography.Paragraph type="secondary">{t('push.note')}</Typography.Paragraph>
      <Form.Item name="channels" label={t('push.channels')}>
        <Checkbox.Group options={CHANNELS.filter((c) => c !== 'webhook').map((c) => ({ value: c, label: c.toUpperCase() }))} />
      </Form.Item>
      <Form.Item
        name="name"
        label={t('push.recipients')}
        rules={[
          { required: true, whitespace: true, message: t('rule.required', { field: t('push.recipients') }) },
          { max: 50, message: t('rule.max', { field: t('push.recipients'), max: 50 }) },
        ]}
      >
        <SymbolFreeInput maxLength={50} />
      </Form.Item>
      <Form.Item name="email" label={t('push.email')}>
        <Input type="email" />
      </Form.Item>
      <Form.Item name="phone" label={t('push.phone')}>
        <Input />
      </Form.Item>
      <Button type="primary" htmlType="submit">
        {t('push.save')}
      </Button>
    </Form>
  );
}

export function ParamsTab({ storage }: { storage: Storage }) {
  const { t } = useTranslation('storage');
  const { data } = useRead<StorageParams>(storageParamsKey(storage.kind, storage.id), { refreshInterval: OVERVIEW_REFRESH_MS });
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
        { key: 'value', title: t('params.value'), render: (_, p) => `${p.value ?? '-'} ${p.unit ?? ''}` },
        { key: 'rw', title: t('params.rw'), dataIndex: 'readWrite' },
        { key: 'command', title: t('params.command'), render: (_, p) => (p.commandStatus ? t(`command.status.${p.commandStatus}`) : '-') },
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
      ? [['brand', storage.brand], ['model', storage.model]]
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
