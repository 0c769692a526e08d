import { DownloadOutlined } from '@ant-design/icons';
import { Button, Space, Tag } from 'antd';
import Link from 'next/link';
import { useTranslation } from 'next-i18next/pages';
import { isCancelled, money, STATUS, type Application } from '@/api/calibration';
import { formatTime } from '@/lib/format';
import type { ListColumn } from '@/components/ui/DataList';

type Translate = (key: string) => string;

const STATUS_COLOURS: Record<number, string> = {
  1: 'default',
  2: 'processing',
  3: 'processing',
  4: 'processing',
  5: 'warning',
  6: 'success',
  7: 'error',
  8: 'error',
};

export function StatusTag({ status }: { status: number }) {
  const { t } = useTranslation('calibration');
  return (
    <Tag color={STATUS_COLOURS[status] ?? 'default'} data-testid="calibration-status">
      {t(`status.${status}`)}
    </Tag>
  );
}

export function statusOptions(t: Translate) {
  return Object.values(STATUS).map((value) => ({ value, label: t(`status.${value}`) }));
}

export function orderColumns(
  t: Translate,
  detailPath: (row: Application) => string,
  download: (row: Application) => void,
): ListColumn<Application>[] {
  return [
    {
      key: 'orderNo',
      title: t('order.orderNo'),
      important: true,
      card: 'title',
      render: (_, row) => <Link href={detailPath(row)}>{row.orderNo}</Link>,
    },
    {
      key: 'status',
      title: t('order.status'),
      important: true,
      render: (_, row) => <StatusTag status={row.calibrationStatus} />,
    },
    { key: 'company', title: t('base.company'), long: true, render: (_, row) => row.company },
    {
      key: 'items',
      title: t('order.instruments'),
      render: (_, row) => row.items.map((item) => `${item.deviceModel} ${item.serial}`).join(', '),
    },
    { key: 'total', title: t('order.total'), render: (_, row) => money(row.totalPrice, row.currency) },
    { key: 'created', title: t('order.created'), desktopOnly: true, render: (_, row) => formatTime(row.gmtCreate) },
    {
      key: 'actions',
      title: t('order.actions'),
      important: true,
      render: (_, row) => (
        <Space>
          <Link href={detailPath(row)}>{t('order.detail')}</Link>
          {row.calibrationStatus === STATUS.completed || isCancelled(row.calibrationStatus) ? (
            <Button
              size="small"
              icon={<DownloadOutlined />}
              onClick={() => download(row)}
              data-testid={`calibration-download-${row.orderNo}`}
            >
              {t('order.certificate')}
            </Button>
          ) : null}
        </Space>
      ),
    },
  ];
}
