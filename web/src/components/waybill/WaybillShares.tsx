import { Button, Card, DatePicker, Input, Modal, Select, Space, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import {
  createShare,
  revokeShare,
  shareAccessLogKey,
  shareListKey,
  type ShareAccess,
  type Waybill,
  type WaybillShare,
} from '@/api/waybill';
import { formatTime } from '@/lib/format';
import { Permitted } from '@/components/ui/Permitted';
import { useRead } from '@/hooks/useRead';

const LIST = 'waybill.list';

/** Wrong PINs tried on a link (from any address), the last one, and the lock they caused (10 in a row: 15 minutes). */
function PinTries({ share }: { share: WaybillShare }) {
  const { t } = useTranslation('waybill');
  if (!share.hasPin) return <Typography.Text type="secondary">-</Typography.Text>;
  return (
    <Space size={4} wrap data-testid="share-pin-tries">
      <span>{share.pinFailures}</span>
      {share.pinLastFailedAt ? (
        <Typography.Text type="secondary">
          {t('share.pinLastTry', { time: formatTime(share.pinLastFailedAt) })}
        </Typography.Text>
      ) : null}
      {share.pinLockedUntil ? (
        <Tag color="red">{t('share.pinLockedUntil', { time: formatTime(share.pinLockedUntil) })}</Tag>
      ) : null}
    </Space>
  );
}

/** A waybill's share links: create, list (openings, wrong PINs, lock), revoke, access log. */
export function SharesTab({ waybill }: { waybill: Waybill }) {
  const { t } = useTranslation('waybill');
  const { data, mutate } = useRead<WaybillShare[]>(shareListKey(waybill.id));
  const [expire, setExpire] = useState('1d');
  const [expireAt, setExpireAt] = useState<string | null>(null);
  const [pin, setPin] = useState('');
  const [created, setCreated] = useState<string | null>(null);
  const [logOf, setLogOf] = useState<number | null>(null);
  const { data: log } = useRead<ShareAccess[]>(logOf ? shareAccessLogKey(logOf) : null);
  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="waybill-shares">
      <Permitted route={LIST} action="share">
        <Space wrap>
          <Select
            value={expire}
            onChange={setExpire}
            style={{ width: 120 }}
            options={['8h', '1d', '3d', '7d', 'custom'].map((value) => ({ value, label: t(`share.expires.${value}`) }))}
          />
          {expire === 'custom' ? (
            <DatePicker showTime onChange={(d) => setExpireAt(d ? d.toISOString() : null)} />
          ) : null}
          <Input
            placeholder={t('share.pin')}
            value={pin}
            maxLength={8}
            onChange={(e) => setPin(e.target.value.replace(/\D/g, ''))}
            style={{ width: 200 }}
          />
          <Button
            type="primary"
            data-testid="share-create"
            onClick={async () => {
              const share = await createShare(waybill.id, expire, expireAt, pin);
              setCreated(`${window.location.origin}${share.path}`);
              void mutate();
            }}
          >
            {t('share.create')}
          </Button>
        </Space>
      </Permitted>
      {created ? (
        <Card size="small">
          <Typography.Text type="secondary">{t('share.created')}</Typography.Text>
          <Typography.Paragraph copyable data-testid="share-link">
            {created}
          </Typography.Paragraph>
        </Card>
      ) : null}
      <Table
        rowKey="id"
        size="small"
        pagination={false}
        dataSource={data ?? []}
        scroll={{ x: 'max-content' }}
        columns={[
          { key: 'hint', title: 'ID', render: (_, s) => `${s.tokenHint}…` },
          { key: 'status', title: t('field.state'), render: (_, s) => <Tag>{t(`share.status.${s.status}`)}</Tag> },
          { key: 'expires', title: t('share.expireAt'), render: (_, s) => formatTime(s.expiresAt) },
          {
            key: 'count',
            title: t('share.accesses'),
            render: (_, s) => <Typography.Link onClick={() => setLogOf(s.id)}>{s.accessCount}</Typography.Link>,
          },
          { key: 'pin', title: t('share.pinTries'), render: (_, s) => <PinTries share={s} /> },
          {
            key: 'revoke',
            title: '',
            render: (_, s) =>
              s.status === 'active' ? (
                <Button type="link" size="small" danger onClick={() => revokeShare(s.id).then(() => mutate())}>
                  {t('share.revoke')}
                </Button>
              ) : null,
          },
        ]}
      />
      <Modal open={Boolean(logOf)} title={t('share.accessLog')} footer={null} onCancel={() => setLogOf(null)}>
        <Table
          rowKey={(entry) => `${entry.at}-${entry.outcome}`}
          size="small"
          pagination={false}
          dataSource={log ?? []}
          columns={[
            { key: 'at', title: t('share.at'), render: (_, e) => formatTime(e.at) },
            { key: 'ip', title: t('share.ip'), dataIndex: 'ip' },
            { key: 'outcome', title: t('field.state'), render: (_, e) => t(`share.outcome.${e.outcome}`) },
          ]}
        />
      </Modal>
    </Space>
  );
}
