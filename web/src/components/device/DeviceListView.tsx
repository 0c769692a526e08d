import {
  AppstoreOutlined,
  BarsOutlined,
  EnvironmentOutlined,
  PlusOutlined,
  SearchOutlined,
  TableOutlined,
} from '@ant-design/icons';
import { Button, Input, Pagination, Segmented, Select, Space, Tabs } from 'antd';
import Link from 'next/link';
import { useRouter } from 'next/router';
import type { ParsedUrlQuery } from 'querystring';
import { useTranslation } from 'next-i18next/pages';
import { useCallback, useEffect, useState } from 'react';
import styled from 'styled-components';
import {
  devicePageKey,
  type Device,
  type DeviceCategory,
  type DevicePageQuery,
  type DeviceStatus,
  type ExpiryFilter,
} from '@/api/device';
import { firstPageKey, usePagedQuery } from '@/hooks/usePagedQuery';
import { DeviceFormModal } from './DeviceFormModal';
import { BatchBar } from './BatchBar';
import { DeviceBoard, DeviceCards, DeviceMapView, DeviceTable } from './DeviceViews';
import { DEVICE_STATUSES } from './helpers';
import { isShareAction, useShareDialogs, type ShareAction } from '@/components/organization/DeviceShareActions';
import { Permitted } from '@/components/ui/Permitted';
import { useDeviceActions, type RowAction } from './useDeviceActions';

/** Latest values refresh every 30 s. */
export const LIST_REFRESH_MS = 30_000;

export type ListMode = 'list' | 'card' | 'board' | 'map';
const CATEGORIES: (DeviceCategory | 'all')[] = ['all', 'cold_chain', 'cold_storage', 'freezer'];
const EXPIRY: ExpiryFilter[] = ['week', 'month', 'expired_this_month'];

const Toolbar = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 8px;
  align-items: center;
  justify-content: space-between;
  margin-bottom: 16px;
`;

interface Filters {
  deviceName: string;
  category: DeviceCategory | 'all';
  status: DeviceStatus | null;
  expiry: ExpiryFilter | null;
}

function queryOf(filters: Filters): Omit<DevicePageQuery, 'start' | 'pageSize'> {
  return {
    deviceName: filters.deviceName.trim() || undefined,
    category: filters.category === 'all' ? undefined : filters.category,
    status: filters.status ?? undefined,
    expiry: filters.expiry ?? undefined,
  };
}

function queryName(value: string | string[] | undefined): string {
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

/** A status of the address (the home page's counts link here), when it is one. */
export function queryStatus(value: string | string[] | undefined): DeviceStatus | null {
  const status = queryName(value);
  return (DEVICE_STATUSES as string[]).includes(status) ? (status as DeviceStatus) : null;
}

/** The filters the address sets (`deviceName`, `status`), the others at their defaults. */
function filtersOfAddress(query: ParsedUrlQuery): Filters {
  return { deviceName: queryName(query.deviceName), category: 'all', status: queryStatus(query.status), expiry: null };
}

/** The list's first read for an address: the page starts it beside the account info (lib/firstReads). */
export function deviceListFirstRead(query: ParsedUrlQuery) {
  return firstPageKey(devicePageKey, queryOf(filtersOfAddress(query)));
}

/**
 * The device list (business spec 2): list, card, board and map modes; categories; status, expiry
 * and name filters (debounced 800 ms, `deviceName` of the address pre-fills the name); add, edit,
 * enable, disable, scrap, delete and pin, one device or a batch of chosen ones; latest values
 * refreshed every 30 s in every mode.
 */
export function DeviceListView() {
  const { t } = useTranslation('device');
  const router = useRouter();
  const addressName = queryName(router.query.deviceName);
  const addressStatus = queryStatus(router.query.status);
  const [filters, setFilters] = useState<Filters>(() => filtersOfAddress(router.query));
  const [shownAddressName, setShownAddressName] = useState(addressName);
  const [shownAddressStatus, setShownAddressStatus] = useState(addressStatus);
  const [mode, setMode] = useState<ListMode>('list');
  const [editing, setEditing] = useState<{ device: Device | null } | null>(null);
  const [selected, setSelected] = useState<number[]>([]);

  // Another deviceName in the address (the expired-devices modal, a link) replaces the filter.
  if (shownAddressName !== addressName) {
    setShownAddressName(addressName);
    setFilters((current) => ({ ...current, deviceName: addressName }));
  }
  if (shownAddressStatus !== addressStatus) {
    setShownAddressStatus(addressStatus);
    setFilters((current) => ({ ...current, status: addressStatus }));
  }

  const query = queryOf(filters);
  const { data, loading, pagination, mutate } = usePagedQuery<Device, typeof query>(devicePageKey, query);
  const reload = useCallback(() => void mutate(), [mutate]);
  const onRowAction = useDeviceActions(reload);
  const shareDialogs = useShareDialogs();
  const onAction = useCallback(
    (action: RowAction | ShareAction, device: Device) =>
      isShareAction(action) ? shareDialogs.open(action, device) : onRowAction(action, device),
    [onRowAction, shareDialogs],
  );

  useEffect(() => {
    const timer = setInterval(() => void mutate(), LIST_REFRESH_MS);
    return () => clearInterval(timer);
  }, [mutate]);

  const set = (patch: Partial<Filters>) => {
    setFilters((current) => ({ ...current, ...patch }));
    setSelected([]);
  };
  const views = {
    devices: data,
    loading,
    onAction,
    onEdit: (device: Device) => setEditing({ device }),
    selected,
    onSelect: setSelected,
  };

  return (
    <div data-testid="device-list">
      <Tabs
        activeKey={filters.category}
        onChange={(key) => set({ category: key as Filters['category'] })}
        items={CATEGORIES.map((category) => ({ key: category, label: t(`category.${category}`) }))}
        tabBarExtraContent={
          filters.category === 'cold_storage' || filters.category === 'freezer' ? (
            <Link
              href={filters.category === 'freezer' ? '/freezer/list' : '/storage/list'}
              data-testid="category-storage-link"
            >
              {t('category.openList', { name: t(`category.${filters.category}`) })}
            </Link>
          ) : null
        }
      />
      <Toolbar>
        <Space wrap>
          <Input
            allowClear
            prefix={<SearchOutlined />}
            placeholder={t('filter.name')}
            value={filters.deviceName}
            onChange={(event) => set({ deviceName: event.target.value })}
            style={{ width: 200 }}
            data-testid="device-filter-name"
          />
          <Select<DeviceStatus>
            allowClear
            placeholder={t('filter.status')}
            value={filters.status ?? undefined}
            onChange={(value) => set({ status: value ?? null })}
            options={DEVICE_STATUSES.map((status) => ({ value: status, label: t(`status.${status}`) }))}
            style={{ width: 140 }}
            data-testid="device-filter-status"
          />
          <Select<ExpiryFilter>
            allowClear
            placeholder={t('expiry.placeholder')}
            value={filters.expiry ?? undefined}
            onChange={(value) => set({ expiry: value ?? null })}
            options={EXPIRY.map((expiry) => ({ value: expiry, label: t(`expiry.${expiry}`) }))}
            style={{ width: 170 }}
            data-testid="device-filter-expiry"
          />
        </Space>
        <Space wrap>
          <Segmented<ListMode>
            value={mode}
            onChange={setMode}
            data-testid="device-mode"
            options={[
              { value: 'list', label: t('mode.list'), icon: <BarsOutlined /> },
              { value: 'card', label: t('mode.card'), icon: <AppstoreOutlined /> },
              { value: 'board', label: t('mode.board'), icon: <TableOutlined /> },
              { value: 'map', label: t('mode.map'), icon: <EnvironmentOutlined /> },
            ]}
          />
          <Permitted route="device.list" action="add">
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setEditing({ device: null })}
              data-testid="device-add"
            >
              {t('action.add')}
            </Button>
          </Permitted>
        </Space>
      </Toolbar>
      <BatchBar selected={selected} devices={data} onClear={() => setSelected([])} onDone={reload} />
      {mode === 'list' ? <DeviceTable {...views} pagination={pagination} /> : null}
      {mode === 'card' ? <DeviceCards {...views} /> : null}
      {mode === 'board' ? <DeviceBoard {...views} /> : null}
      {mode === 'map' ? <DeviceMapView {...views} /> : null}
      {shareDialogs.modals}
      {mode !== 'list' ? (
        <Pagination
          style={{ marginTop: 16, justifyContent: 'flex-end' }}
          {...pagination}
          onChange={pagination.onChange}
        />
      ) : null}
      {editing ? (
        <DeviceFormModal
          open
          device={editing.device}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            reload();
          }}
        />
      ) : null}
    </div>
  );
}
