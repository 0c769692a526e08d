import { PlusOutlined, SearchOutlined } from '@ant-design/icons';
import { Button, Input, Popconfirm, Segmented, Space, Typography } from 'antd';
import Link from 'next/link';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import {
  deleteStorage,
  storageCountsKey,
  storagePageKey,
  type Storage,
  type StorageCounts,
  type StorageKind,
  type StorageStatus,
} from '@/api/storage';
import { formatTime, formatValue } from '@/lib/format';
import { DataList, type ListColumn } from '@/components/ui/DataList';
import { Permitted } from '@/components/ui/Permitted';
import { firstPageKey, usePagedQuery } from '@/hooks/usePagedQuery';
import { useRead } from '@/hooks/useRead';
import { useViewport } from '@/hooks/useViewport';
import { StorageFormModal } from './StorageFormModal';
import { StorageStatusTag } from './StorageStatusTag';

/** Live values refresh every 30 s, like the device list. */
const REFRESH_MS = 30_000;
const STATUSES: (StorageStatus | 'all')[] = ['all', 'online', 'offline', 'alarm', 'empty'];

export function detailPath(storage: Pick<Storage, 'id' | 'kind'>): string {
  return storage.kind === 'freezer'
    ? `/freezer/detail/${storage.id}`
    : `/storage/detail/${storage.id}${storage.kind === 'virtual' ? '?kind=virtual' : ''}`;
}

function ProbeValues({ storage }: { storage: Storage }) {
  const { t } = useTranslation('storage');
  if (!storage.probes.length) return <Typography.Text type="secondary">-</Typography.Text>;
  return (
    <Space size={8} wrap data-testid="storage-values">
      {storage.probes.slice(0, 6).map((probe) => (
        <span key={probe.id} title={`${t(`zone.${probe.zone}`)} · ${probe.probeName ?? ''}`}>
          <Typography.Text type="secondary">{t(`zone.${probe.zone}`)} </Typography.Text>
          <Typography.Text strong type={probe.alarm ? 'danger' : undefined}>
            {formatValue(probe.value, probe.precision)}
          </Typography.Text>
          {probe.unit ? <Typography.Text type="secondary"> {probe.unit}</Typography.Text> : null}
        </span>
      ))}
    </Space>
  );
}

/**
 * Cold storage, virtual storage (kind switch on /storage/list) and freezer lists: state counts,
 * search by name (debounced), live values per probe, add / edit / delete under the route's action keys;
 * the shared list (a table on desktop and tablet, cards on mobile).
 */
type ListRoute = 'storage.list' | 'freezer.list';

const kindOf = (route: ListRoute): StorageKind => (route === 'freezer.list' ? 'freezer' : 'storage');

/** The list's first reads (its first page and the counts, no filter), started beside the account info (lib/firstReads). */
export function storageListFirstReads(route: ListRoute) {
  const kind = kindOf(route);
  return [firstPageKey(storagePageKey, { kind }), storageCountsKey(kind, undefined)];
}

export function StorageListView({ route }: { route: ListRoute }) {
  const { t } = useTranslation('storage');
  const viewport = useViewport();
  const [kind, setKind] = useState<StorageKind>(kindOf(route));
  const [name, setName] = useState('');
  const [status, setStatus] = useState<StorageStatus | 'all'>('all');
  const [editing, setEditing] = useState<{ storage: Storage | null } | null>(null);
  const filters = { kind, storageName: name.trim() || undefined, status: status === 'all' ? undefined : status };
  const list = usePagedQuery<Storage, typeof filters>(storagePageKey, filters);
  const counts = useRead<StorageCounts>(storageCountsKey(kind, filters.storageName), {
    refreshInterval: REFRESH_MS,
  });
  const refresh = () => {
    void list.mutate();
    void counts.mutate();
  };

  const actions = (storage: Storage) => (
    <Space size={4}>
      <Link href={detailPath(storage)} data-testid="storage-open">
        {t('open')}
      </Link>
      {storage.kind === 'storage' && storage.controller ? (
        <Link href={`/cloudControl/storage/detail/${storage.id}`} data-testid="storage-control">
          {t('control')}
        </Link>
      ) : null}
      {storage.writable ? (
        <Permitted route={route} action="edit">
          <Button type="link" size="small" onClick={() => setEditing({ storage })} data-testid="storage-edit">
            {t('edit')}
          </Button>
        </Permitted>
      ) : null}
      {storage.mine ? (
        <Permitted route={route} action="delete">
          <Popconfirm
            title={t('deleteConfirm', { name: storage.storageName })}
            onConfirm={() => deleteStorage(storage.kind, storage.id).then(refresh)}
          >
            <Button type="link" size="small" danger data-testid="storage-delete">
              {t('delete')}
            </Button>
          </Popconfirm>
        </Permitted>
      ) : null}
    </Space>
  );

  const columns: ListColumn<Storage>[] = [
    {
      key: 'name',
      title: t('field.storageName'),
      fixed: 'left',
      card: 'title',
      render: (_, storage) => (
        <Link href={detailPath(storage)} data-testid="storage-name">
          {storage.storageName}
        </Link>
      ),
    },
    {
      key: 'status',
      title: t('overview.alarm'),
      important: true,
      render: (_, storage) => <StorageStatusTag status={storage.status} />,
    },
    // A bounded width: many probes wrap inside it instead of pushing the column under the actions.
    {
      key: 'values',
      title: t('probe.value'),
      important: true,
      width: 300,
      render: (_, storage) => <ProbeValues storage={storage} />,
    },
    ...(kind === 'freezer'
      ? [
          { key: 'brand', title: t('field.brand'), dataIndex: 'brand', responsive: ['md' as const], card: false },
          { key: 'model', title: t('field.model'), dataIndex: 'model', responsive: ['lg' as const], card: false },
        ]
      : [
          { key: 'volume', title: t('field.volume'), dataIndex: 'volume', responsive: ['lg' as const], card: false },
          {
            key: 'address',
            title: t('field.address'),
            dataIndex: 'address',
            long: 200,
            desktopOnly: true,
            card: false,
          },
        ]),
    {
      key: 'probes',
      title: t('field.probeCount'),
      render: (_, storage) => storage.probes.length,
      responsive: ['md'],
      card: false,
    },
    {
      key: 'created',
      title: t('field.gmtCreate'),
      render: (_, storage) => formatTime(storage.gmtCreate),
      desktopOnly: true,
      card: false,
    },
    { key: 'actions', title: t('actions'), render: (_, storage) => actions(storage) },
  ];

  return (
    <div data-testid="storage-list">
      <DataList<Storage>
        rowKey="id"
        testId={viewport === 'mobile' ? 'storage-cards' : 'storage-table'}
        columns={columns}
        data={list.data}
        loading={list.loading}
        pagination={list.pagination}
        emptyText={t('empty')}
        filters={
          <>
            {route === 'storage.list' ? (
              <Segmented
                value={kind}
                onChange={(value) => setKind(value as StorageKind)}
                options={(['storage', 'virtual'] as StorageKind[]).map((value) => ({
                  value,
                  label: t(`kind.${value}`),
                }))}
                data-testid="storage-kind"
              />
            ) : null}
            <Segmented
              value={status}
              onChange={(value) => setStatus(value as StorageStatus | 'all')}
              options={STATUSES.map((value) => ({
                value,
                label: `${t(`status.${value}`)} ${counts.data ? counts.data[value] : ''}`,
              }))}
              data-testid="storage-counts"
            />
          </>
        }
        actions={
          <>
            <Input
              allowClear
              prefix={<SearchOutlined />}
              placeholder={t('search')}
              value={name}
              maxLength={50}
              onChange={(event) => setName(event.target.value)}
              data-testid="storage-search"
            />
            <Permitted route={route} action="add">
              <Button
                type="primary"
                icon={<PlusOutlined />}
                onClick={() => setEditing({ storage: null })}
                data-testid="storage-add"
              >
                {t(`add.${kind}`)}
              </Button>
            </Permitted>
          </>
        }
      />
      {editing ? (
        <StorageFormModal
          kind={kind}
          storage={editing.storage}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            refresh();
          }}
        />
      ) : null}
    </div>
  );
}
