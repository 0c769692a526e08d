import { CheckOutlined, ReloadOutlined } from '@ant-design/icons';
import { Button, DatePicker, Select, Space, Table, Tag, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'next-i18next/pages';
import { useEffect, useState } from 'react';
import styled from 'styled-components';
import useSWR, { useSWRConfig } from 'swr';
import { markRead, messagePage, type AlarmMessage, type MessageQuery, type MessageType, type ProcessState } from '@/api/alarm';
import { devicePage } from '@/api/device';
import { formatTime } from '@/components/device/format';
import { ALARM_REFRESH_MS } from '@/hooks/useAlarms';
import { usePagedQuery } from '@/hooks/usePagedQuery';
import { alarmValues, STATE_COLORS } from './format';
import { NotificationList } from './NotificationList';
import { ProcessModal } from './ProcessModal';

const Toolbar = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 8px;
  align-items: center;
  justify-content: space-between;
  margin-bottom: 16px;
`;

const STATES: (ProcessState | 'processed')[] = ['pending', 'processed', 'agreed', 'rejected', 'on_hold'];
const TYPES: MessageType[] = ['alarm', 'system'];

interface Filters {
  type: MessageType | null;
  deviceId: number | null;
  state: ProcessState | 'processed' | null;
  range: [Dayjs | null, Dayjs | null] | null;
}

function queryOf(filters: Filters): Omit<MessageQuery, 'start' | 'pageSize'> {
  const [from, to] = filters.range ?? [null, null];
  return {
    type: filters.type ?? undefined,
    deviceId: filters.deviceId ?? undefined,
    state: filters.state ?? undefined,
    startTime: from ? from.startOf('day').format() : undefined,
    endTime: to ? to.endOf('day').format() : undefined,
  };
}

/**
 * The message centre (/message/list): alarm and system messages, filtered by type, device, state and
 * time range; alarms are processed one by one or in a batch; the list refreshes itself so new alarms
 * appear without a reload; each alarm row opens the record of its notifications.
 */
export function MessageListView() {
  const { t } = useTranslation('alarm');
  const { mutate: mutateGlobal } = useSWRConfig();
  const [filters, setFilters] = useState<Filters>({ type: null, deviceId: null, state: null, range: null });
  const [selected, setSelected] = useState<number[]>([]);
  const [processing, setProcessing] = useState<number[] | null>(null);
  const query = queryOf(filters);
  const { data, loading, pagination, mutate } = usePagedQuery<AlarmMessage, typeof query>('alarm-messages', query, (args) => messagePage(args));
  const devices = useSWR(['alarm-device-options'], () => devicePage({ start: 1, pageSize: 200 }));

  useEffect(() => {
    const timer = setInterval(() => void mutate(), ALARM_REFRESH_MS);
    return () => clearInterval(timer);
  }, [mutate]);

  const set = (patch: Partial<Filters>) => setFilters((current) => ({ ...current, ...patch }));
  const refreshAll = () => {
    void mutate();
    void mutateGlobal(['alarm-unread']);
  };
  const readAll = async () => {
    await markRead();
    refreshAll();
  };

  return (
    <div data-testid="message-list">
      <Toolbar>
        <Space wrap>
          <Select<MessageType>
            allowClear
            placeholder={t('filter.type')}
            value={filters.type ?? undefined}
            onChange={(value) => set({ type: value ?? null })}
            options={TYPES.map((type) => ({ value: type, label: t(`type.${type}`) }))}
            style={{ width: 130 }}
            data-testid="message-filter-type"
          />
          <Select<number>
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            placeholder={t('filter.device')}
            value={filters.deviceId ?? undefined}
            onChange={(value) => set({ deviceId: value ?? null })}
            options={(devices.data?.list ?? []).map((device) => ({ value: device.id, label: device.deviceName || device.deviceGuid }))}
            style={{ width: 180 }}
            data-testid="message-filter-device"
          />
          <Select<ProcessState | 'processed'>
            allowClear
            placeholder={t('filter.state')}
            value={filters.state ?? undefined}
            onChange={(value) => set({ state: value ?? null })}
            options={STATES.map((state) => ({ value: state, label: t(`state.${state}`) }))}
            style={{ width: 130 }}
            data-testid="message-filter-state"
          />
          <DatePicker.RangePicker
            value={filters.range}
            onChange={(range) => set({ range: range as Filters['range'] })}
            data-testid="message-filter-range"
          />
        </Space>
        <Space wrap>
          <Button icon={<ReloadOutlined />} onClick={refreshAll} aria-label={t('action.refresh')} />
          <Button onClick={() => void readAll()} data-testid="message-read-all">
            {t('action.readAll')}
          </Button>
          <Button type="primary" icon={<CheckOutlined />} disabled={!selected.length} onClick={() => setProcessing(selected)} data-testid="message-batch-process">
            {t('action.batchProcess', { count: selected.length })}
          </Button>
        </Space>
      </Toolbar>
      <Table<AlarmMessage>
        rowKey="id"
        size="middle"
        loading={loading}
        dataSource={data}
        pagination={pagination}
        scroll={{ x: 'max-content' }}
        rowSelection={{
          selectedRowKeys: selected,
          onChange: (keys) => setSelected(keys as number[]),
          getCheckboxProps: (row) => ({ disabled: row.type !== 'alarm' || row.alarm?.processState !== 'pending' }),
        }}
        expandable={{
          rowExpandable: (row) => row.alarm !== null,
          expandedRowRender: (row) => (row.alarm ? <NotificationList alarmId={row.alarm.id} /> : null),
        }}
        rowClassName={(row) => (row.read ? '' : 'unread')}
        columns={[
          {
            key: 'title',
            title: t('column.title'),
            render: (_, row) => (
              <Space orientation="vertical" size={0}>
                <Typography.Text strong={!row.read} data-testid="message-title">
                  {row.title}
                </Typography.Text>
                <Typography.Text type="secondary">{row.content}</Typography.Text>
              </Space>
            ),
          },
          { key: 'device', title: t('column.device'), render: (_, row) => row.deviceName || row.deviceGuid || '-' },
          { key: 'type', title: t('column.type'), render: (_, row) => t(`type.${row.type}`) },
          { key: 'values', title: t('column.values'), render: (_, row) => (row.alarm ? alarmValues(row.alarm) : '-') },
          {
            key: 'state',
            title: t('column.state'),
            render: (_, row) =>
              row.alarm ? (
                <Tag color={STATE_COLORS[row.alarm.processState]} data-testid="message-state">
                  {t(`state.${row.alarm.processState}`)}
                </Tag>
              ) : (
                '-'
              ),
          },
          { key: 'result', title: t('column.result'), render: (_, row) => row.alarm?.result || '-' },
          { key: 'time', title: t('column.time'), render: (_, row) => formatTime(row.gmtCreate) },
          {
            key: 'actions',
            title: t('column.actions'),
            render: (_, row) =>
              row.alarm?.processState === 'pending' ? (
                <Button size="small" type="link" onClick={() => setProcessing([row.id])} data-testid="message-process">
                  {t('action.process')}
                </Button>
              ) : null,
          },
        ]}
      />
      <ProcessModal
        ids={processing ?? []}
        open={processing !== null}
        onClose={() => setProcessing(null)}
        onDone={() => {
          setProcessing(null);
          setSelected([]);
          refreshAll();
        }}
      />
    </div>
  );
}
