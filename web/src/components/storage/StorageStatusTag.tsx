import { Tag } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import type { StorageStatus } from '@/api/storage';

const COLOR: Record<StorageStatus, string> = {
  online: 'success',
  offline: 'default',
  alarm: 'error',
  empty: 'warning',
};

export function StorageStatusTag({ status }: { status: StorageStatus }) {
  const { t } = useTranslation('storage');
  return (
    <Tag color={COLOR[status]} data-testid="storage-status" data-status={status}>
      {t(`status.${status}`)}
    </Tag>
  );
}
