import { ArrowLeftOutlined } from '@ant-design/icons';
import { Button, Result, Skeleton, Space, Tabs, Typography } from 'antd';
import Link from 'next/link';
import { useRouter } from 'next/router';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import { storageDetailKey, type Storage, type StorageBlock, type StorageKind } from '@/api/storage';
import { AlarmTab, ChartTab, EnergyTab, InfoTab, OverviewTab, ParamsTab, PushTab, TopUpTab } from './StorageTabs';
import { StorageStatusTag } from './StorageStatusTag';
import { StorageReportButton } from './StorageReportButton';
import { Permitted } from '@/components/ui/Permitted';
import { StorageLotsTab } from '@/components/budget/LotsPanel';
import { useRead } from '@/hooks/useRead';

/**
 * Cold storage / virtual storage / freezer detail (business spec 2 "Cold storage tabs"): system
 * overview, data chart, alarm record, push setting, parameters, top-up, basic info (and energy for
 * a controller with a meter). A storage reached through a share shows only the tabs its template allows.
 */
export function StorageDetailView({ kind, storageId }: { kind: StorageKind; storageId: number | null }) {
  const { t } = useTranslation('storage');
  const router = useRouter();
  const { data: storage, error } = useRead<Storage>(storageId ? storageDetailKey(kind, storageId) : null);
  const [tab, setTab] = useState('overview');
  const listPath = kind === 'freezer' ? '/freezer/list' : '/storage/list';

  if (!storageId || error)
    return (
      <Result
        status="warning"
        title={t('notFound')}
        extra={<Button onClick={() => router.push(listPath)}>{t('back')}</Button>}
      />
    );
  if (!storage) return <Skeleton active />;

  const tabs: { key: string; block: StorageBlock; children: React.ReactNode }[] = [
    { key: 'overview', block: 'realtime', children: <OverviewTab storage={storage} /> },
    { key: 'chart', block: 'chart', children: <ChartTab storage={storage} /> },
    { key: 'alarm', block: 'alarm', children: <AlarmTab storage={storage} /> },
    { key: 'push', block: 'push', children: <PushTab storage={storage} /> },
    ...(storage.controller
      ? [{ key: 'params', block: 'params' as const, children: <ParamsTab storage={storage} /> }]
      : []),
    ...(kind === 'storage' && storage.controller
      ? [{ key: 'energy', block: 'energy' as const, children: <EnergyTab storage={storage} /> }]
      : []),
    ...(kind === 'storage'
      ? [{ key: 'lots', block: 'chart' as const, children: <StorageLotsTab storageId={storage.id} /> }]
      : []),
    { key: 'topUp', block: 'info', children: <TopUpTab storage={storage} /> },
    { key: 'info', block: 'info', children: <InfoTab storage={storage} /> },
  ];
  const items = tabs
    .filter((item) => storage.blocks.includes(item.block))
    .map((item) => ({
      key: item.key,
      label: <span data-testid={`storage-tab-${item.key}`}>{t(`tab.${item.key}`)}</span>,
      children: item.children,
    }));

  return (
    <div data-testid="storage-detail">
      <Space wrap align="center" style={{ marginBottom: 8 }}>
        <Button type="text" icon={<ArrowLeftOutlined />} onClick={() => router.push(listPath)} aria-label={t('back')} />
        <Typography.Title level={4} style={{ margin: 0 }} data-testid="storage-title">
          {storage.storageName}
        </Typography.Title>
        <StorageStatusTag status={storage.status} />
        {storage.controller ? (
          <Typography.Text type="secondary">
            {storage.controller.typeName} · {storage.controller.deviceGuid}
          </Typography.Text>
        ) : null}
        {storage.blocks.includes('chart') ? (
          <Permitted route={kind === 'freezer' ? 'freezer.list' : 'storage.list'} action="export">
            <StorageReportButton kind={kind} storage={storage} />
          </Permitted>
        ) : null}
        {kind === 'storage' && storage.controller && storage.writable ? (
          <Link href={`/cloudControl/storage/detail/${storage.id}`} data-testid="storage-open-control">
            {t('control')}
          </Link>
        ) : null}
      </Space>
      <Tabs
        activeKey={items.some((item) => item.key === tab) ? tab : items[0]?.key}
        onChange={setTab}
        items={items}
        destroyOnHidden
      />
    </div>
  );
}
