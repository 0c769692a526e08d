import { CheckOutlined, ReloadOutlined } from '@ant-design/icons';
import { Button, DatePicker, Select, Tag, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'next-i18next/pages';
import { useEffect, useState } from 'react';
import { useSWRConfig } from 'swr';
import {
  markRead,
  messagePageKey,
  type AlarmMessage,
  type MessageQuery,
  type MessageType,
  type ProcessState,
  unreadCountKey,
} from '@/api/alarm';
import { useDeviceOptions } from '@/hooks/resources';
import { DataList } from '@/components/ui/DataList';
import { formatZoned } from '@/lib/format';
import { ALARM_REFRESH_MS } from '@/hooks/useAlarms';
import { firstPageKey, usePagedQuery } from '@/hooks/usePagedQuery';
import { alarmValues, STATE_COLORS } from './format';
import { AckButton } from './AckButton';
import { AlarmTimeline } from './AlarmTimeline';
import { NotificationList } from './NotificationList';
import { ProcessModal } from './ProcessModal';

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

const NO_FILTERS: Filters = { type: null, deviceId: null, state: null, range: null };

/** The centre's first read (page 1, no filter), started beside the account info (lib/firstReads). */
export function messageListFirstRead() {
  return firstPageKey(messagePageKey, queryOf(NO_FILTERS));
}

/**
 * The message centre (/message/list): alarm and system messages, filtered by type, device, state and
 * time range; alarms are processed one by one or in a batch; the list refreshes itself so new alarms
 * appear without a reload; each alarm row opens the record of its notifications.
 */
export function MessageListView() {
  const { t } = useTranslation('alarm');
  const { mutate: mutateGlobal } = useSWRConfig();
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [selected, setSelected] = useState<number[]>([]);
  const [processing, setProcessing] = useState<number[] | null>(null);
  const query = queryOf(filters);
  const { data, loading, pagination, mutate } = usePagedQuery<AlarmMessage, typeof query>(messagePageKey, query);
  const deviceOptions = useDeviceOptions();

  useEffect(() => {
    const timer = setInterval(() => void mutate(), ALARM_REFRESH_MS);
    return () => clearInterval(timer);
  }, [mutate]);

  const set = (patch: Partial<Filters>) => setFilters((current) => ({ ...current, ...patch }));
  const refreshAll = () => {
    void mutate();
    void mutateGlobal(unreadCountKey());
  };
  const readAll = async () => {
    await markRead();
    refreshAll();
  };

  return (
    <div data-testid="message-list">
      <DataList<AlarmMessage>
        rowKey="id"
        data={data}
        loading={loading}
        pagination={pagination}
        filters={
          <>
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
              options={deviceOptions}
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
          </>
        }
        actions={
          <>
            <Button icon={<ReloadOutlined />} onClick={refreshAll} aria-label={t('action.refresh')} />
            <Button onClick={() => void readAll()} data-testid="message-read-all">
              {t('action.readAll')}
            </Button>
            <Button
              type="primary"
              icon={<CheckOutlined />}
              disabled={!selected.length}
              onClick={() => setProcessing(selected)}
              data-testid="message-batch-process"
            >
              {t('action.batchProcess', { count: selected.length })}
            </Button>
          </>
        }
        rowSelection={{
          selectedRowKeys: selected,
          onChange: (keys) => setSelected(keys as number[]),
          getCheckboxProps: (row) => ({ disabled: row.type !== 'alarm' || row.alarm?.processState !== 'pending' }),
        }}
        expandable={{
          rowExpandable: (row) => row.alarm !== null,
          expandedRowRender: (row) =>
            row.alarm ? (
              <>
                <AlarmTimeline alarmId={row.alarm.id} />
                <NotificationList alarmId={row.alarm.id} />
              </>
            ) : null,
        }}
        rowClassName={(row) => (row.read ? '' : 'unread')}
        columns={[
          {
            key: 'title',
            title: t('column.title'),
            card: 'title',
            long: 260,
            render: (_, row) => (
              <span>
                <Typography.Text strong={!row.read} data-testid="message-title">
                  {row.title}
                </Typography.Text>
                {row.content ? <Typography.Text type="secondary"> {row.content}</Typography.Text> : null}
              </span>
            ),
          },
          {
            key: 'device',
            title: t('column.device'),
            long: 160,
            render: (_, row) => row.deviceName || row.deviceGuid || '-',
          },
          { key: 'type', title: t('column.type'), desktopOnly: true, render: (_, row) => t(`type.${row.type}`) },
          {
            key: 'values',
            title: t('column.values'),
            important: true,
            render: (_, row) => (row.alarm ? alarmValues(row.alarm) : '-'),
          },
          {
            key: 'state',
            title: t('column.state'),
            important: true,
            render: (_, row) =>
              row.alarm ? (
                <Tag color={STATE_COLORS[row.alarm.processState]} data-testid="message-state">
                  {t(`state.${row.alarm.processState}`)}
                </Tag>
              ) : (
                '-'
              ),
          },
          { key: 'result', title: t('column.result'), long: 140, render: (_, row) => row.alarm?.result || '-' },
          {
            key: 'time',
            title: t('column.time'),
            important: true,
            render: (_, row) => <span style={{ whiteSpace: 'nowrap' }}>{formatZoned(row.gmtCreate)}</span>,
          },
          {
            key: 'actions',
            title: t('column.actions'),
            render: (_, row) =>
              row.alarm ? (
                <span style={{ whiteSpace: 'nowrap' }}>
                  <AckButton alarm={row.alarm} onDone={refreshAll} />
                  {row.alarm.processState === 'pending' ? (
                    <Button
                      size="small"
                      type="link"
                      onClick={() => setProcessing([row.id])}
                      data-testid="message-process"
                    >
                      {t('action.process')}
                    </Button>
                  ) : null}
                </span>
              ) : (
                '-'
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
          setSelected([]);
          refreshAll();
        }}
      />
    </div>
  );
}
