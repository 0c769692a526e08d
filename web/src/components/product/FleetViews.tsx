import { DatePicker, Input, Select, Space, Tag } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import {
  deviceTypeOptionsKey,
  fleetAlarmPageKey,
  fleetDevicePageKey,
  type DeviceTypeOption,
  type FleetAlarm,
  type FleetAlarmFilters,
  type FleetDevice,
  type FleetDeviceFilters,
} from '@/api/product';
import { useRead } from '@/hooks/useRead';
import { formatDate, formatTime } from '@/lib/format';
import { DataList, type ListColumn } from '@/components/ui/DataList';
import { usePagedQuery } from '@/hooks/usePagedQuery';

const DEVICE_STATES = [
  'online',
  'offline',
  'alarm',
  'fault',
  'not_enabled',
  'expired',
  'disabled',
  'deactivated',
] as const;
const ALARM_KINDS = ['upper', 'lower', 'offline', 'battery', 'fault', 'fence', 'budget'] as const;
const STATE_COLOURS: Record<string, string> = {
  online: 'green',
  alarm: 'red',
  fault: 'orange',
  offline: 'default',
  expired: 'volcano',
};

/** /operation/device/list: every device of the platform fleet, read only (changes stay with owners). */
export function FleetDeviceView() {
  const { t } = useTranslation(['product', 'device']);
  const [filters, setFilters] = useState<FleetDeviceFilters>({});
  const { data: types } = useRead<DeviceTypeOption[]>(deviceTypeOptionsKey());
  const { data, loading, pagination } = usePagedQuery<FleetDevice, FleetDeviceFilters>(fleetDevicePageKey, filters);
  const columns: ListColumn<FleetDevice>[] = [
    { key: 'name', title: t('fleet.device'), card: 'title', render: (_, d) => d.deviceName ?? '-' },
    { key: 'guid', title: 'GUID', dataIndex: 'deviceGuid', important: true },
    { key: 'type', title: t('fleet.type'), dataIndex: 'typeName', desktopOnly: true },
    { key: 'version', title: t('fleet.version'), render: (_, d) => d.firmwareVersion ?? '-', desktopOnly: true },
    { key: 'owner', title: t('fleet.owner'), render: (_, d) => d.ownerName ?? t('fleet.unclaimed') },
    { key: 'platform', title: t('fleet.platform'), dataIndex: 'platform', desktopOnly: true },
    { key: 'sim', title: t('fleet.sim'), render: (_, d) => d.simCardNum ?? '-', desktopOnly: true },
    { key: 'expiry', title: t('fleet.serviceExpiry'), render: (_, d) => formatDate(d.serviceExpireTime) || '-' },
    {
      key: 'lastData',
      title: t('fleet.lastData'),
      render: (_, d) => (d.lastDataTime ? formatTime(d.lastDataTime) : '-'),
      desktopOnly: true,
    },
    {
      key: 'status',
      title: t('fleet.status'),
      important: true,
      render: (_, d) =>
        d.voided ? (
          <Tag data-testid="fleet-voided">{t('fleet.voided')}</Tag>
        ) : d.deleted ? (
          <Tag data-testid="fleet-deleted">{t('fleet.deleted')}</Tag>
        ) : (
          <Tag color={STATE_COLOURS[d.status] ?? 'default'}>{t(`device:status.${d.status}`)}</Tag>
        ),
    },
  ];
  return (
    <DataList<FleetDevice>
      rowKey="id"
      columns={columns}
      data={data}
      loading={loading}
      pagination={pagination}
      testId="fleet-device-list"
      filters={
        <Space wrap>
          <Input
            allowClear
            placeholder={t('fleet.keyword')}
            onChange={(e) => setFilters((f) => ({ ...f, keyword: e.target.value || undefined }))}
            style={{ width: 200 }}
          />
          <Input
            allowClear
            placeholder={t('fleet.owner')}
            onChange={(e) => setFilters((f) => ({ ...f, userName: e.target.value || undefined }))}
            style={{ width: 160 }}
          />
          <Select
            allowClear
            placeholder={t('fleet.type')}
            style={{ width: 220 }}
            options={(types ?? []).map((type) => ({ value: type.id, label: type.typeName }))}
            onChange={(deviceTypeId?: number) => setFilters((f) => ({ ...f, deviceTypeId }))}
          />
          <Select
            allowClear
            placeholder={t('fleet.status')}
            style={{ width: 150 }}
            options={DEVICE_STATES.map((status) => ({ value: status, label: t(`device:status.${status}`) }))}
            onChange={(status?: string) => setFilters((f) => ({ ...f, status }))}
            data-testid="fleet-status"
          />
        </Space>
      }
    />
  );
}

/** /operation/device/alarmlist: every alarm of the fleet, newest first, read only. */
export function FleetAlarmView() {
  const { t } = useTranslation(['product', 'alarm']);
  const [filters, setFilters] = useState<FleetAlarmFilters>({});
  const { data, loading, pagination } = usePagedQuery<FleetAlarm, FleetAlarmFilters>(fleetAlarmPageKey, filters);
  const kindLabel = (kind: string) => (kind === 'fence' ? t('fleet.fence') : t(`alarm:kind.${kind}`));
  const columns: ListColumn<FleetAlarm>[] = [
    {
      key: 'device',
      title: t('fleet.device'),
      card: 'title',
      render: (_, a) => `${a.deviceName ?? '-'} (${a.deviceGuid})`,
    },
    {
      key: 'kind',
      title: t('fleet.kind'),
      important: true,
      render: (_, a) => <Tag color={a.status === 'open' ? 'red' : 'default'}>{kindLabel(a.kind)}</Tag>,
    },
    {
      key: 'value',
      title: t('fleet.peak'),
      render: (_, a) => (a.peakValue === null ? '-' : `${a.peakValue} / ${a.limitValue ?? '-'}`),
      desktopOnly: true,
    },
    { key: 'owner', title: t('fleet.owner'), render: (_, a) => a.ownerName ?? '-' },
    { key: 'type', title: t('fleet.type'), dataIndex: 'typeName', desktopOnly: true },
    { key: 'started', title: t('fleet.startedAt'), render: (_, a) => formatTime(a.startedAt) },
    {
      key: 'closed',
      title: t('fleet.closedAt'),
      render: (_, a) => (a.closedAt ? formatTime(a.closedAt) : t('fleet.stillOpen')),
      desktopOnly: true,
    },
    { key: 'process', title: t('fleet.processState'), render: (_, a) => t(`fleet.process.${a.processState}`) },
  ];
  const range = (value: [Dayjs | null, Dayjs | null] | null) =>
    setFilters((f) => ({
      ...f,
      startTime: value?.[0]?.toISOString() ?? undefined,
      endTime: value?.[1]?.toISOString() ?? undefined,
    }));
  return (
    <DataList<FleetAlarm>
      rowKey="id"
      columns={columns}
      data={data}
      loading={loading}
      pagination={pagination}
      testId="fleet-alarm-list"
      filters={
        <Space wrap>
          <Input
            allowClear
            placeholder={t('fleet.keyword')}
            onChange={(e) => setFilters((f) => ({ ...f, keyword: e.target.value || undefined }))}
            style={{ width: 200 }}
          />
          <Input
            allowClear
            placeholder={t('fleet.owner')}
            onChange={(e) => setFilters((f) => ({ ...f, userName: e.target.value || undefined }))}
            style={{ width: 160 }}
          />
          <Select
            allowClear
            placeholder={t('fleet.kind')}
            style={{ width: 160 }}
            options={ALARM_KINDS.map((kind) => ({ value: kind, label: kindLabel(kind) }))}
            onChange={(kind?: string) => setFilters((f) => ({ ...f, kind }))}
          />
          <Select
            allowClear
            placeholder={t('fleet.status')}
            style={{ width: 130 }}
            options={[
              { value: 'open', label: t('fleet.stillOpen') },
              { value: 'closed', label: t('fleet.recovered') },
            ]}
            onChange={(status?: string) => setFilters((f) => ({ ...f, status }))}
          />
          <DatePicker.RangePicker showTime onChange={(value) => range(value as [Dayjs | null, Dayjs | null] | null)} />
        </Space>
      }
    />
  );
}
