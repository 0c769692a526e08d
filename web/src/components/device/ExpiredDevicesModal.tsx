import { Alert, Modal, Select, Space, Typography } from 'antd';
import { useRouter } from 'next/router';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import { expiredInfoKey, expiredServiceDevicesKey, type ExpiredDevice, type ExpiredInfo } from '@/api/device';
import { DataList } from '@/components/ui/DataList';
import type { Page } from '@/components/ui/table';
import { useRead } from '@/hooks/useRead';
import { formatDate } from '@/lib/format';

/** Expired-device table: page size 5, no size changer (console-shell spec 9). */
export const EXPIRED_PAGE_SIZE = 5;
export const EXPIRED_FLAGS = [1, 2, 3] as const;
const DEFAULT_FLAG = 2;

/** The filter shown first: the flag the reminder reported when it is one of 1..3, else 2. */
export function initialExpiredFlag(flag: number | undefined): number {
  return flag !== undefined && (EXPIRED_FLAGS as readonly number[]).includes(flag) ? flag : DEFAULT_FLAG;
}

/** The device list filtered by a device's name. */
export function deviceListHref(deviceName: string): string {
  return `/device/list?deviceName=${encodeURIComponent(deviceName)}`;
}

function ExpiredDevicesTable({
  accountId,
  initialFlag,
  onOpen,
}: {
  accountId: number;
  initialFlag: number;
  onOpen: (name: string) => void;
}) {
  const { t } = useTranslation('device');
  const [flag, setFlag] = useState(initialFlag);
  const [page, setPage] = useState(1);
  const { data, isLoading } = useRead<Page<ExpiredDevice>>(
    expiredServiceDevicesKey({ start: page, pageSize: EXPIRED_PAGE_SIZE, accountId, expiredFlag: flag }),
  );
  // A later page that came back empty: one page back.
  if (data && page > 1 && data.list.length === 0) setPage(page - 1);
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Select<number>
        value={flag}
        onChange={(value) => {
          setFlag(value);
          setPage(1);
        }}
        options={EXPIRED_FLAGS.map((value) => ({ value, label: t(`expired.flag.${value}`) }))}
        style={{ minWidth: 220 }}
        data-testid="expired-filter"
      />
      <DataList<ExpiredDevice>
        rowKey="id"
        size="small"
        testId="expired-table"
        loading={isLoading}
        data={data?.list ?? []}
        pagination={{
          current: page,
          pageSize: EXPIRED_PAGE_SIZE,
          total: data?.total ?? 0,
          showSizeChanger: false,
          onChange: setPage,
        }}
        columns={[
          {
            key: 'name',
            title: t('column.name'),
            card: 'title',
            render: (_, device) => (
              <Typography.Link onClick={() => onOpen(device.deviceName)} data-testid="expired-device">
                {device.deviceName}
              </Typography.Link>
            ),
          },
          { key: 'guid', title: t('column.guid'), dataIndex: 'deviceGuid' },
          {
            key: 'expiry',
            title: t('column.serviceExpiry'),
            important: true,
            render: (_, device) => formatDate(device.serviceExpiredDate),
          },
        ]}
      />
    </Space>
  );
}

/**
 * The expired-service devices modal (console-shell spec 2.3): after sign-in, when the service
 * reminder (getExpiredInfoByType, type 1) says devices are expiring or expired, their list with a
 * filter; a device name opens the device list filtered by it.
 */
export function ExpiredDevicesModal({ accountId, ready = true }: { accountId: number; ready?: boolean }) {
  const { t } = useTranslation('device');
  const router = useRouter();
  const [closed, setClosed] = useState(false);
  // A quiet read: a failing reminder stays silent. The cache is cleared at every sign-in and sign-out, so it is the account's own.
  const { data } = useRead<ExpiredInfo>(expiredInfoKey(), {
    revalidateOnFocus: false,
    revalidateOnReconnect: false,
    revalidateIfStale: false,
    shouldRetryOnError: false,
  });
  // Queued behind the notices and the phone's menu: it opens when nothing else covers the page.
  if (!ready || closed || !data || data.expiredFlag <= 0) return null;

  const open = (name: string) => {
    setClosed(true);
    void router.push(deviceListHref(name));
  };

  return (
    <Modal
      open
      title={t('expired.title')}
      footer={null}
      onCancel={() => setClosed(true)}
      width={720}
      data-testid="expired-modal"
    >
      <Space orientation="vertical" style={{ width: '100%' }}>
        {data.pushMessages.map((text) => (
          <Alert key={text} type="warning" showIcon title={text} />
        ))}
        <ExpiredDevicesTable accountId={accountId} initialFlag={initialExpiredFlag(data.expiredFlag)} onOpen={open} />
      </Space>
    </Modal>
  );
}
