import { Table, Tag, Typography } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useRead } from '@/hooks/useRead';
import { alarmNotificationsKey, type Notification } from '@/api/alarm';
import { formatTime } from '@/lib/format';

const STATUS_COLORS: Record<Notification['status'], string> = {
  pending: 'processing',
  sent: 'success',
  logged: 'warning',
  failed: 'error',
};

/** The outbox record of one alarm: each send, to whom, by which channel, and what became of it. */
export function NotificationList({ alarmId }: { alarmId: number }) {
  const { t } = useTranslation('alarm');
  const { data, isLoading } = useRead<Notification[]>(alarmNotificationsKey(alarmId), { refreshInterval: 10_000 });
  return (
    <Table<Notification>
      rowKey="id"
      size="small"
      loading={isLoading}
      dataSource={data ?? []}
      pagination={false}
      scroll={{ x: 'max-content' }}
      data-testid={`notifications-${alarmId}`}
      locale={{ emptyText: t('notify.none') }}
      columns={[
        { key: 'channel', title: t('notify.channel'), render: (_, row) => t(`channel.${row.channel}`) },
        { key: 'recipient', title: t('notify.recipient'), dataIndex: 'recipient' },
        {
          key: 'status',
          title: t('notify.status'),
          render: (_, row) => (
            <Tag color={STATUS_COLORS[row.status]} data-testid="notification-status">
              {t(`notify.statusText.${row.status}`)}
            </Tag>
          ),
        },
        { key: 'created', title: t('notify.created'), render: (_, row) => formatTime(row.gmtCreate) },
        { key: 'sent', title: t('notify.sent'), render: (_, row) => formatTime(row.sendTime) },
        {
          key: 'error',
          title: t('notify.error'),
          render: (_, row) => (row.lastError ? <Typography.Text type="danger">{row.lastError}</Typography.Text> : '-'),
        },
      ]}
    />
  );
}
