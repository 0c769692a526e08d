import { Button, Card, Empty, Space, Statistic, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import styled from 'styled-components';
import { useSWRConfig } from 'swr';
import { alarmPageKey, type Alarm , unreadCountKey } from '@/api/alarm';
import type { DeviceDetail } from '@/api/device';
import { formatTime } from '@/components/device/format';
import { useDeviceAlarmStatus } from '@/hooks/useAlarms';
import { usePagedQuery } from '@/hooks/usePagedQuery';
import { alarmValues, formatDuration, formatNumber, STATE_COLORS } from './format';
import { NotificationList } from './NotificationList';
import { ProcessModal } from './ProcessModal';

const Grid = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(240px, 1fr));
  gap: 12px;
`;

function sensorName(device: DeviceDetail, sensor: number | null): string {
  if (sensor === null) return '';
  return device.params.find((param) => param.probeId === sensor)?.paramName ?? `#${sensor}`;
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
                  {sensorName(device, alarm.sensor)}
                </Space>
              }
              data-testid="open-alarm"
            >
              <Space orientation="vertical" size={2}>
                <Typography.Text>{t('device.valueLimit', { value: formatNumber(alarm.lastValue), limit: formatNumber(alarm.limitValue) })}</Typography.Text>
                <Typography.Text>{t('device.peak', { value: formatNumber(alarm.peakValue) })}</Typography.Text>
                <Typography.Text type="secondary">{t('device.since', { time: formatTime(alarm.startTime), duration: formatDuration(alarm.durationSeconds, t) })}</Typography.Text>
                <Space>
                  <Tag color={STATE_COLORS[alarm.processState]}>{t(`state.${alarm.processState}`)}</Tag>
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
        <Table<Alarm>
          rowKey="id"
          size="small"
          data-testid="alarm-history"
          loading={history.loading}
          dataSource={history.data}
          pagination={history.pagination}
          scroll={{ x: 'max-content' }}
          expandable={{ expandedRowRender: (alarm) => <NotificationList alarmId={alarm.id} /> }}
          columns={[
            { key: 'kind', title: t('column.kind'), render: (_, alarm) => `${alarm.kindText} ${sensorName(device, alarm.sensor)}` },
            { key: 'values', title: t('column.values'), render: (_, alarm) => alarmValues(alarm) },
            { key: 'peak', title: t('column.peak'), render: (_, alarm) => formatNumber(alarm.peakValue) },
            { key: 'start', title: t('column.start'), render: (_, alarm) => formatTime(alarm.startTime) },
            { key: 'end', title: t('column.end'), render: (_, alarm) => (alarm.closeTime ? formatTime(alarm.closeTime) : t('device.ongoing')) },
            { key: 'duration', title: t('column.duration'), render: (_, alarm) => formatDuration(alarm.durationSeconds, t) },
            {
              key: 'state',
              title: t('column.state'),
              render: (_, alarm) => <Tag color={STATE_COLORS[alarm.processState]}>{t(`state.${alarm.processState}`)}</Tag>,
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
