import { Button, Card, Empty, Space, Statistic, Tag, Typography } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import styled from 'styled-components';
import { useSWRConfig } from 'swr';
import { alarmPageKey, type Alarm, unreadCountKey } from '@/api/alarm';
import type { DeviceDetail } from '@/api/device';
import { DataList } from '@/components/ui/DataList';
import { formatTime, formatZoned } from '@/lib/format';
import { useDeviceAlarmStatus } from '@/hooks/useAlarms';
import { usePagedQuery } from '@/hooks/usePagedQuery';
import { alarmValue, alarmValues, formatDuration, STATE_COLORS } from './format';
import { AckButton } from './AckButton';
import { AlarmTimeline } from './AlarmTimeline';
import { NotificationList } from './NotificationList';
import { ProcessModal } from './ProcessModal';

const Grid = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(240px, 1fr));
  gap: 12px;
`;

function sensorName(device: DeviceDetail, alarm: Alarm): string {
  if (alarm.sensor === null) return '';
  return alarm.place ?? device.params.find((param) => param.probeId === alarm.sensor)?.paramName ?? `#${alarm.sensor}`;
}

/** Device detail 'alarm status': open alarms (processed here too), balances, and the history. */
export function AlarmStatusTab({ device }: { device: DeviceDetail }) {
  const { t } = useTranslation('alarm');
  const { mutate: mutateGlobal } = useSWRConfig();
  const status = useDeviceAlarmStatus(device.id);
  const history = usePagedQuery<Alarm, { deviceId: number }>(alarmPageKey, { deviceId: device.id });
  const [processing, setProcessing] = useState<number[] | null>(null);
  const open = status.data?.open ?? [];

  const refresh = () => {
    void status.mutate();
    void history.mutate();
    void mutateGlobal(unreadCountKey());
  };

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }} data-testid="alarm-status">
      <Space wrap size="large">
        <Statistic title={t('device.openCount')} value={open.length} />
        <Statistic title={t('device.pendingCount')} value={status.data?.pendingCount ?? 0} />
        <Statistic title={t('device.smsCount')} value={status.data?.smsCount ?? 0} />
        <Statistic title={t('device.voiceCount')} value={status.data?.voiceCount ?? 0} />
      </Space>
      {open.length ? (
        <Grid>
          {open.map((alarm) => (
            <Card
              key={alarm.id}
              size="small"
              title={
                <Space>
                  <Tag color="error">{alarm.kindText}</Tag>
                  {sensorName(device, alarm)}
                </Space>
              }
              data-testid="open-alarm"
            >
              <Space orientation="vertical" size={2}>
                <Typography.Text>
                  {t('device.valueLimit', {
                    value: alarmValue(alarm, alarm.lastValue),
                    limit: alarmValue(alarm, alarm.limitValue),
                  })}
                </Typography.Text>
                <Typography.Text>{t('device.peak', { value: alarmValue(alarm, alarm.peakValue) })}</Typography.Text>
                <Typography.Text type="secondary">
                  {t('device.since', {
                    time: formatTime(alarm.startTime),
                    duration: formatDuration(alarm.durationSeconds, t),
                  })}
                </Typography.Text>
                <Space>
                  <Tag color={STATE_COLORS[alarm.processState]}>{t(`state.${alarm.processState}`)}</Tag>
                  <AckButton alarm={alarm} onDone={refresh} />
                  {alarm.processState === 'pending' && alarm.messageId ? (
                    <Button size="small" type="link" onClick={() => setProcessing([alarm.messageId as number])}>
                      {t('action.process')}
                    </Button>
                  ) : null}
                </Space>
              </Space>
            </Card>
          ))}
        </Grid>
      ) : (
        <Empty description={t('device.noOpen')} />
      )}
      <div>
        <Typography.Title level={5}>{t('device.history')}</Typography.Title>
        <DataList<Alarm>
          rowKey="id"
          size="small"
          testId="alarm-history"
          loading={history.loading}
          data={history.data}
          pagination={history.pagination}
          expandable={{
            expandedRowRender: (alarm) => (
              <>
                <AlarmTimeline alarmId={alarm.id} />
                <NotificationList alarmId={alarm.id} />
              </>
            ),
          }}
          columns={[
            {
              key: 'kind',
              title: t('column.kind'),
              card: 'title',
              important: true,
              render: (_, alarm) => `${alarm.kindText} ${sensorName(device, alarm)}`,
            },
            { key: 'values', title: t('column.values'), render: (_, alarm) => alarmValues(alarm) },
            { key: 'peak', title: t('column.peak'), render: (_, alarm) => alarmValue(alarm, alarm.peakValue) },
            {
              key: 'start',
              title: t('column.start'),
              important: true,
              render: (_, alarm) => formatZoned(alarm.startTime),
            },
            {
              key: 'end',
              title: t('column.end'),
              render: (_, alarm) =>
                alarm.closeTime
                  ? `${formatZoned(alarm.closeTime)}${alarm.closeReason ? ` (${t(`closeReason.${alarm.closeReason}`)})` : ''}`
                  : t('device.ongoing'),
            },
            {
              key: 'duration',
              title: t('column.duration'),
              render: (_, alarm) => formatDuration(alarm.durationSeconds, t),
            },
            {
              key: 'state',
              title: t('column.state'),
              important: true,
              render: (_, alarm) => (
                <Tag color={STATE_COLORS[alarm.processState]}>{t(`state.${alarm.processState}`)}</Tag>
              ),
            },
            { key: 'result', title: t('column.result'), render: (_, alarm) => alarm.result || '-' },
            {
              key: 'by',
              title: t('column.processedBy'),
              // Every decision, oldest first (processing is append-only; the latest one is the state).
              render: (_, alarm) =>
                alarm.history?.length
                  ? alarm.history.map((step, index) => (
                      <div key={index} data-testid="alarm-history-step">
                        {`${formatTime(step.time)} ${step.by ?? ''} ${t(`state.${step.state}`)}${step.result ? `: ${step.result}` : ''}`}
                      </div>
                    ))
                  : alarm.processedBy
                    ? `${alarm.processedBy} ${formatTime(alarm.processTime)}`
                    : '-',
            },
          ]}
        />
      </div>
      <ProcessModal
        ids={processing ?? []}
        open={processing !== null}
        onClose={() => setProcessing(null)}
        onDone={() => {
          setProcessing(null);
          refresh();
        }}
      />
    </Space>
  );
}
