import { EnvironmentOutlined, PushpinFilled } from '@ant-design/icons';
import { Button, Card, Dropdown, Empty, Space, Table, Tooltip, Typography } from 'antd';
import type { ColumnsType, TablePaginationConfig } from 'antd/es/table';
import Link from 'next/link';
import { useTranslation } from 'next-i18next/pages';
import styled from 'styled-components';
import type { Device } from '@/api/device';
import type { ShareAction } from '@/components/organization/DeviceShareActions';
import { Permitted } from '@/components/ui/Permitted';
import { useSession } from '@/components/session/SessionContext';
import { hasPermission } from '@/routes/permissions';
import { formatDate, formatTime, valueEntries } from './format';
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
}

const detailPath = (device: Device) => `/device/detail/${device.id}`;

function Values({ device, compact = false }: { device: Device; compact?: boolean }) {
  const entries = valueEntries(device.values);
  if (!entries.length) return <Typography.Text type="secondary">-</Typography.Text>;
  return (
    <Space size={compact ? 4 : 8} wrap data-testid="device-values">
      {entries.map((entry) => (
        <span key={entry.sensor}>
          <Typography.Text type="secondary">#{entry.sensor} </Typography.Text>
          <Typography.Text strong>{entry.text}</Typography.Text>
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
  const actions: (RowAction | ShareAction)[] = [...actionsFor(device), ...(device.status === 'deactivated' ? [] : (['share', 'transfer'] as const))];
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
        <Button type="link" size="small" onClick={() => onEdit(device)} disabled={device.status === 'deactivated'} data-testid="device-edit">
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

export function DeviceTable({ devices, loading, onAction, onEdit, pagination }: ViewProps & { pagination: TablePaginationConfig }) {
  const { t } = useTranslation('device');
  const columns: ColumnsType<Device> = [
    { key: 'name', title: t('column.name'), render: (_, device) => <Name device={device} />, fixed: 'left' },
    { key: 'guid', title: t('column.guid'), dataIndex: 'deviceGuid' },
    { key: 'type', title: t('column.type'), dataIndex: 'typeName', responsive: ['lg'] },
    { key: 'status', title: t('column.status'), render: (_, device) => <StatusTag status={device.status} /> },
    { key: 'values', title: t('column.values'), render: (_, device) => <Values device={device} /> },
    { key: 'lastData', title: t('column.lastData'), render: (_, device) => formatTime(device.lastDataTime), responsive: ['md'] },
    { key: 'serviceExpiry', title: t('column.serviceExpiry'), render: (_, device) => formatDate(device.serviceExpiredDate), responsive: ['xl'] },
    { key: 'actions', title: t('column.actions'), render: (_, device) => <Actions device={device} onAction={onAction} onEdit={onEdit} /> },
  ];
  return (
    <Table<Device>
      rowKey="id"
      data-testid="device-table"
      columns={columns}
      dataSource={devices}
      loading={loading}
      pagination={pagination}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: <Empty description={t('empty')} /> }}
    />
  );
}

const Grid = styled.div<{ $min: number }>`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(${({ $min }) => $min}px, 1fr));
  gap: 12px;
`;

export function DeviceCards({ devices, onAction, onEdit }: ViewProps) {
  const { t } = useTranslation('device');
  if (!devices.length) return <Empty description={t('empty')} />;
  return (
    <Grid $min={260} data-testid="device-cards">
      {devices.map((device) => (
        <Card
          key={device.id}
          size="small"
          title={<Name device={device} />}
          extra={<StatusTag status={device.status} />}
          actions={[<Actions key="actions" device={device} onAction={onAction} onEdit={onEdit} />]}
        >
          <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
            {device.typeName} · {device.deviceGuid}
          </Typography.Paragraph>
          <Values device={device} />
          <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
            {t('column.lastData')}: {formatTime(device.lastDataTime)}
          </Typography.Paragraph>
        </Card>
      ))}
    </Grid>
  );
}

const Tile = styled(Link)`
  display: block;
  padding: 8px 10px;
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius}px;
  color: ${({ theme }) => theme.colors.text};
  background: ${({ theme }) => theme.colors.container};

  &:hover {
    border-color: ${({ theme }) => theme.colors.primary};
  }
`;

/** Board: compact tiles, name, state and values only. */
export function DeviceBoard({ devices }: Pick<ViewProps, 'devices'>) {
  const { t } = useTranslation('device');
  if (!devices.length) return <Empty description={t('empty')} />;
  return (
    <Grid $min={170} data-testid="device-board">
      {devices.map((device) => (
        <Tile key={device.id} href={detailPath(device)}>
          <Typography.Text strong ellipsis style={{ display: 'block' }}>
            {device.deviceName}
          </Typography.Text>
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
 * Map mode. A Google map needs NEXT_PUBLIC_GOOGLE_MAPS_KEY; none is configured for this build, so
 * the positions are listed (the design's fallback when no key is configured or offline).
 */
export function DeviceMapFallback({ devices }: Pick<ViewProps, 'devices'>) {
  const { t } = useTranslation('device');
  const located = positioned(devices);
  return (
    <div data-testid="device-map">
      <Typography.Paragraph type="secondary">
        <EnvironmentOutlined /> {t('map.noKey')}
      </Typography.Paragraph>
      {located.length ? (
        <Table<Device>
          rowKey="id"
          size="small"
          pagination={false}
          dataSource={located}
          columns={[
            { key: 'name', title: t('column.name'), render: (_, device) => <Name device={device} /> },
            { key: 'status', title: t('column.status'), render: (_, device) => <StatusTag status={device.status} /> },
            { key: 'lat', title: t('map.lat'), render: (_, device) => device.lat?.toFixed(5) },
            { key: 'lng', title: t('map.lng'), render: (_, device) => device.lng?.toFixed(5) },
            {
              key: 'open',
              title: t('column.position'),
              render: (_, device) => (
                <Tooltip title="OpenStreetMap">
                  <a href={`https://www.openstreetmap.org/?mlat=${device.lat}&mlon=${device.lng}#map=12/${device.lat}/${device.lng}`} target="_blank" rel="noreferrer">
                    <EnvironmentOutlined />
                  </a>
                </Tooltip>
              ),
            },
          ]}
        />
      ) : (
        <Empty description={t('map.noPositions')} />
      )}
    </div>
  );
}
