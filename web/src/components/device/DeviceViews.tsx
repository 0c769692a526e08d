import { PushpinFilled } from '@ant-design/icons';
import { Button, Card, Checkbox, Dropdown, Empty, Space, Table, Typography } from 'antd';
import type { TablePaginationConfig } from 'antd/es/table';
import Link from 'next/link';
import { useRouter } from 'next/router';
import { useTranslation } from 'next-i18next/pages';
import { useMemo } from 'react';
import styled from 'styled-components';
import type { Device } from '@/api/device';
import { DeviceMap, MapLegend, type MapMarker } from '@/components/map/DeviceMap';
import type { ShareAction } from '@/components/organization/DeviceShareActions';
import { DataList, type ListColumn } from '@/components/ui/DataList';
import { Permitted } from '@/components/ui/Permitted';
import { useSession } from '@/lib/SessionContext';
import { hasPermission } from '@/routes/permissions';
import { valueEntries } from './format';
import { formatDate, formatZoned } from '@/lib/format';
import { positioned } from './helpers';
import { StatusTag } from './StatusTag';
import { actionsFor, type RowAction } from './useDeviceActions';

/** The permission key of each row action (spec 6: route.action). */
const ACTION_KEYS: Record<RowAction | ShareAction, string> = {
  pin: 'device.list',
  unpin: 'device.list',
  enable: 'device.list.enable',
  disable: 'device.list.disable',
  scrap: 'device.list.delete',
  delete: 'device.list.delete',
  share: 'device.list.share',
  transfer: 'device.list.transfer',
};

interface ViewProps {
  devices: Device[];
  loading: boolean;
  onAction: (action: RowAction | ShareAction, device: Device) => void;
  onEdit: (device: Device) => void;
  /** Ids of the devices chosen for a batch action, and how to change the choice. */
  selected: number[];
  onSelect: (ids: number[]) => void;
}

function toggle(ids: number[], id: number, on: boolean): number[] {
  return on ? [...new Set([...ids, id])] : ids.filter((other) => other !== id);
}

function Pick({ device, selected, onSelect }: { device: Device } & Pick<ViewProps, 'selected' | 'onSelect'>) {
  const { t } = useTranslation('device');
  return (
    <Checkbox
      checked={selected.includes(device.id)}
      onChange={(event) => onSelect(toggle(selected, device.id, event.target.checked))}
      onClick={(event) => event.stopPropagation()}
      aria-label={t('batch.pick', { name: device.deviceName })}
      data-testid="device-pick"
    />
  );
}

const detailPath = (device: Device) => `/device/detail/${device.id}`;

function Values({ device, compact = false }: { device: Device; compact?: boolean }) {
  const { t } = useTranslation('common');
  const entries = valueEntries(device.values, device.sensors, { on: t('reading.running'), off: t('reading.stopped') });
  if (!entries.length) return <Typography.Text type="secondary">-</Typography.Text>;
  return (
    <Space size={compact ? 4 : 8} wrap data-testid="device-values">
      {entries.map((entry) => (
        <span key={entry.sensor} title={entry.label} data-testid="device-value">
          {compact ? null : <Typography.Text type="secondary">{entry.label} </Typography.Text>}
          <Typography.Text strong>{entry.text}</Typography.Text>
          {entry.unit ? <Typography.Text type="secondary"> {entry.unit}</Typography.Text> : null}
        </span>
      ))}
    </Space>
  );
}

function Actions({ device, onAction, onEdit }: { device: Device } & Pick<ViewProps, 'onAction' | 'onEdit'>) {
  const { t } = useTranslation('device');
  const { t: to } = useTranslation('organization');
  const { granted } = useSession();
  // A device shared with the account is only looked at: its template governs the detail page.
  if (device.shareFlag) return <Typography.Text type="secondary">{to('share.sharedWithMe')}</Typography.Text>;
  const actions: (RowAction | ShareAction)[] = [
    ...actionsFor(device),
    ...(device.status === 'deactivated' ? [] : (['share', 'transfer'] as const)),
  ];
  const items = actions
    .filter((action) => hasPermission(granted, ACTION_KEYS[action]))
    .map((action) => ({
      key: action,
      label: action === 'share' || action === 'transfer' ? to(`action.${action}`) : t(`action.${action}`),
      danger: action === 'scrap' || action === 'delete',
    }));
  return (
    <Space size={4}>
      <Permitted route="device.list" action="edit" show>
        <Button
          type="link"
          size="small"
          onClick={() => onEdit(device)}
          disabled={device.status === 'deactivated'}
          data-testid="device-edit"
        >
          {t('action.edit')}
        </Button>
      </Permitted>
      <Dropdown menu={{ items, onClick: ({ key }) => onAction(key as RowAction, device) }} trigger={['click']}>
        <Button type="link" size="small" data-testid="device-more">
          {t('action.more')}
        </Button>
      </Dropdown>
    </Space>
  );
}

function Name({ device }: { device: Device }) {
  return (
    <Space size={4}>
      {device.focus ? <PushpinFilled aria-label="pinned" /> : null}
      <Link href={detailPath(device)} data-testid="device-name">
        {device.deviceName}
      </Link>
    </Space>
  );
}

/** The list mode: the shared list (table on desktop and tablet, cards below the tablet breakpoint). */
export function DeviceTable({
  devices,
  loading,
  onAction,
  onEdit,
  pagination,
  selected,
  onSelect,
}: ViewProps & { pagination: TablePaginationConfig }) {
  const { t } = useTranslation('device');
  const columns: ListColumn<Device>[] = [
    {
      key: 'name',
      title: t('column.name'),
      card: 'title',
      render: (_, device) => <Name device={device} />,
      fixed: 'left',
    },
    { key: 'guid', title: t('column.guid'), dataIndex: 'deviceGuid', desktopOnly: true },
    { key: 'type', title: t('column.type'), dataIndex: 'typeName', long: 140, responsive: ['lg'], card: false },
    {
      key: 'status',
      title: t('column.status'),
      important: true,
      render: (_, device) => <StatusTag status={device.status} />,
    },
    // A bounded width: a controller's many probes wrap inside it instead of pushing the column under the actions.
    {
      key: 'values',
      title: t('column.values'),
      important: true,
      width: 300,
      render: (_, device) => <Values device={device} />,
    },
    {
      key: 'lastData',
      title: t('column.lastData'),
      render: (_, device) => formatZoned(device.lastDataTime, device.timeZone),
      desktopOnly: true,
    },
    {
      key: 'serviceExpiry',
      title: t('column.serviceExpiry'),
      render: (_, device) => formatDate(device.serviceExpiredDate),
      responsive: ['xl'],
      card: false,
    },
    {
      key: 'actions',
      title: t('column.actions'),
      render: (_, device) => <Actions device={device} onAction={onAction} onEdit={onEdit} />,
    },
  ];
  return (
    <DataList<Device>
      rowKey="id"
      testId="device-table"
      columns={columns}
      data={devices}
      loading={loading}
      pagination={pagination}
      rowSelection={{
        selectedRowKeys: selected,
        onChange: (keys) => onSelect(keys.map(Number)),
        preserveSelectedRowKeys: true,
      }}
      emptyText={t('empty')}
    />
  );
}

const Grid = styled.div<{ $min: number }>`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(${({ $min }) => $min}px, 1fr));
  gap: 12px;
`;

export function DeviceCards({ devices, onAction, onEdit, selected, onSelect }: ViewProps) {
  const { t } = useTranslation('device');
  if (!devices.length) return <Empty description={t('empty')} />;
  return (
    <Grid $min={260} data-testid="device-cards">
      {devices.map((device) => (
        <Card
          key={device.id}
          size="small"
          title={
            <Space size={8}>
              <Pick device={device} selected={selected} onSelect={onSelect} />
              <Name device={device} />
            </Space>
          }
          extra={<StatusTag status={device.status} />}
          actions={[<Actions key="actions" device={device} onAction={onAction} onEdit={onEdit} />]}
        >
          <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
            {device.typeName} · {device.deviceGuid}
          </Typography.Paragraph>
          <Values device={device} />
          <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
            {t('column.lastData')}: {formatZoned(device.lastDataTime, device.timeZone)}
          </Typography.Paragraph>
        </Card>
      ))}
    </Grid>
  );
}

const Tile = styled.div<{ $picked: boolean }>`
  position: relative;
  padding: 8px 10px;
  border: 1px solid ${({ theme, $picked }) => ($picked ? theme.colors.primary : theme.colors.border)};
  border-radius: ${({ theme }) => theme.radius}px;
  color: ${({ theme }) => theme.colors.text};
  background: ${({ theme, $picked }) => ($picked ? theme.colors.primaryBg : theme.colors.container)};

  &:hover {
    border-color: ${({ theme }) => theme.colors.primary};
  }
`;

const TileHead = styled.div`
  display: flex;
  gap: 6px;
  align-items: center;
  min-width: 0;

  a {
    flex: 1;
    min-width: 0;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
    font-weight: 600;
    color: inherit;
  }
`;

/** Board: compact tiles, name, state and values only. */
export function DeviceBoard({ devices, selected, onSelect }: Pick<ViewProps, 'devices' | 'selected' | 'onSelect'>) {
  const { t } = useTranslation('device');
  if (!devices.length) return <Empty description={t('empty')} />;
  return (
    <Grid $min={170} data-testid="device-board">
      {devices.map((device) => (
        <Tile key={device.id} $picked={selected.includes(device.id)} data-testid="device-tile">
          <TileHead>
            <Pick device={device} selected={selected} onSelect={onSelect} />
            <Link href={detailPath(device)} title={device.deviceName}>
              {device.deviceName}
            </Link>
          </TileHead>
          <StatusTag status={device.status} />
          <div>
            <Values device={device} compact />
          </div>
        </Tile>
      ))}
    </Grid>
  );
}

/**
 * Map mode: the page's devices with a position on the map (Google Maps with a configured key, else
 * the offline projection), coloured by state; a marker opens the device. Below, every device of the
 * page with its latest values and position (refreshed with the list).
 */
export function DeviceMapView({ devices }: Pick<ViewProps, 'devices'>) {
  const { t } = useTranslation('device');
  const router = useRouter();
  const located = positioned(devices);
  const markers = useMemo<MapMarker[]>(
    () =>
      located.map((device) => ({
        id: device.id,
        name: device.deviceName,
        status: device.status,
        lat: device.lat as number,
        lng: device.lng as number,
      })),
    [located],
  );
  return (
    <Space orientation="vertical" size="small" style={{ width: '100%' }} data-testid="device-map">
      <DeviceMap
        markers={markers}
        onSelect={(marker) => void router.push(`/device/detail/${marker.id}`)}
        height={460}
      />
      <MapLegend statuses={markers.map((marker) => marker.status)} />
      <Table<Device>
        rowKey="id"
        size="small"
        pagination={false}
        dataSource={devices}
        scroll={{ x: 'max-content' }}
        data-testid="map-devices"
        columns={[
          { key: 'name', title: t('column.name'), render: (_, device) => <Name device={device} /> },
          { key: 'status', title: t('column.status'), render: (_, device) => <StatusTag status={device.status} /> },
          { key: 'values', title: t('column.values'), render: (_, device) => <Values device={device} /> },
          {
            key: 'position',
            title: t('column.position'),
            render: (_, device) =>
              device.lat !== null && device.lng !== null
                ? `${device.lat.toFixed(4)}, ${device.lng.toFixed(4)}`
                : t('map.noPosition'),
          },
          {
            key: 'lastData',
            title: t('column.lastData'),
            render: (_, device) => formatZoned(device.lastDataTime, device.timeZone),
          },
        ]}
      />
    </Space>
  );
}
