import { SettingOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Checkbox, Drawer, Empty, Input, List, Space, Statistic, Typography } from 'antd';
import Link from 'next/link';
import { useRouter } from 'next/router';
import { useTranslation } from 'next-i18next/pages';
import { useMemo, useState } from 'react';
import styled from 'styled-components';
import {
  devicePageKey,
  expiredServiceDevicesKey,
  type Device,
  type DeviceCategory,
  type ExpiredDevice,
  type StatusCount,
} from '@/api/device';
import { useDevicePage, useStatusCount } from '@/hooks/resources';
import { useRead, useReads } from '@/hooks/useRead';
import type { Page } from '@/components/ui/table';
import { useSession } from '@/lib/SessionContext';
import { valueEntries } from '@/components/device/format';
import { formatDate, formatTime } from '@/lib/format';
import { positioned } from '@/components/device/helpers';
import { LIST_REFRESH_MS } from '@/components/device/DeviceListView';
import { StatusTag } from '@/components/device/StatusTag';
import { DeviceMap, MapLegend, type MapMarker } from '@/components/map/DeviceMap';
import { HOME_PANELS, loadPanels, MIN_HOME_PANELS, savePanels, statusListHref, type HomePanel } from './homePanels';
import { CloudControlPromotion } from './CloudControlPromotion';

/** The counts of the home page, in the spec's order, with the answer's key of each. */
export const COUNT_KEYS: { key: keyof StatusCount; status: string }[] = [
  { key: 'all', status: 'all' },
  { key: 'online', status: 'online' },
  { key: 'offline', status: 'offline' },
  { key: 'alarm', status: 'alarm' },
  { key: 'disabled', status: 'disabled' },
  { key: 'deactivated', status: 'deactivated' },
  { key: 'expired', status: 'expired' },
  { key: 'organization', status: 'organization' },
  { key: 'notEnabled', status: 'not_enabled' },
];
const CATEGORIES: DeviceCategory[] = ['cold_chain', 'cold_storage', 'freezer'];
/** Devices on the home map (one page of the device list). */
export const HOME_MAP_DEVICES = 200;

const Head = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 12px;
  align-items: center;
  justify-content: space-between;
  margin-bottom: 16px;
`;

const Counts = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(130px, 1fr));
  gap: 12px;
  margin-bottom: 16px;

  @media (max-width: ${({ theme }) => theme.breakpoints.tablet - 1}px) {
    grid-template-columns: repeat(3, minmax(0, 1fr));
    gap: 8px;
  }
`;

const CountCard = styled(Link)`
  display: block;
  padding: 12px;
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius}px;
  background: ${({ theme }) => theme.colors.container};
  color: ${({ theme }) => theme.colors.text};

  &:hover {
    border-color: ${({ theme }) => theme.colors.primary};
  }

  @media (max-width: ${({ theme }) => theme.breakpoints.tablet - 1}px) {
    padding: 8px;

    .ant-statistic-content {
      font-size: 18px;
    }
  }
`;

const Columns = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(300px, 1fr));
  gap: 16px;
  margin-top: 16px;

  @media (max-width: ${({ theme }) => theme.breakpoints.tablet - 1}px) {
    grid-template-columns: minmax(0, 1fr);
  }
`;

function DeviceLine({ device }: { device: Device }) {
  const { t } = useTranslation('common');
  const values = valueEntries(device.values, device.sensors, { on: t('reading.running'), off: t('reading.stopped') })
    .map((entry) => `${entry.text}${entry.unit ? ` ${entry.unit}` : ''}`)
    .join(' · ');
  return (
    <List.Item>
      <div style={{ flex: 1, minWidth: 0 }}>
        <Link href={`/device/detail/${device.id}`}>{device.deviceName}</Link>
        <Typography.Text type="secondary" ellipsis style={{ display: 'block' }}>
          {values || '-'} · {formatTime(device.lastDataTime, 'MM-DD HH:mm')}
        </Typography.Text>
      </div>
      <span style={{ whiteSpace: 'nowrap', marginLeft: 8 }}>
        <StatusTag status={device.status} />
      </span>
    </List.Item>
  );
}

/**
 * Home (business spec 2): device search, order search (the receipt of an order by its code), status counts, a map of the devices and panels the user
 * chooses in a drawer (at least five kept): pinned devices, latest reports, expiring services and
 * devices per category. Counts and values refresh every 30 s.
 */
export function HomeView() {
  const { t } = useTranslation('device');
  const router = useRouter();
  const { info } = useSession();
  // The shell renders pages in the browser only (after the session check): storage is readable here.
  const [panels, setPanels] = useState<HomePanel[]>(loadPanels);
  const [drawer, setDrawer] = useState<HomePanel[] | null>(null);
  const on = (panel: HomePanel) => panels.includes(panel);

  const counts = useStatusCount({ refreshInterval: LIST_REFRESH_MS });
  const devices = useDevicePage({ start: 1, pageSize: HOME_MAP_DEVICES }, { refreshInterval: LIST_REFRESH_MS });
  const expiring = useRead<Page<ExpiredDevice>>(
    on('expiring') && info
      ? expiredServiceDevicesKey({ start: 1, pageSize: 5, accountId: info.baseAccount.id, expiredFlag: 1 })
      : null,
  );
  // One total per category: the key is the list of requests themselves.
  const categoryPages = useReads<Page<Device>>(
    on('categories') ? CATEGORIES.map((category) => devicePageKey({ start: 1, pageSize: 1, category })) : null,
  );
  const categories = useMemo(
    () => categoryPages.data?.map((page, index) => ({ category: CATEGORIES[index], total: page.total })),
    [categoryPages.data],
  );

  const list = useMemo(() => devices.data?.list ?? [], [devices.data]);
  const markers = useMemo<MapMarker[]>(
    () =>
      positioned(list).map((device) => ({
        id: device.id,
        name: device.deviceName,
        status: device.status,
        lat: device.lat as number,
        lng: device.lng as number,
      })),
    [list],
  );
  const pinned = list.filter((device) => device.focus);
  const recent = [...list]
    .filter((device) => device.lastDataTime)
    .sort((a, b) => (b.lastDataTime ?? '').localeCompare(a.lastDataTime ?? ''))
    .slice(0, 5);

  const search = (value: string) => {
    const name = value.trim();
    void router.push(name ? `/device/list?deviceName=${encodeURIComponent(name)}` : '/device/list');
  };

  return (
    <div data-testid="home">
      <Head>
        {on('search') ? (
          <Input.Search
            placeholder={t('home.search')}
            enterButton
            allowClear
            onSearch={search}
            style={{ maxWidth: 420, flex: '1 1 240px' }}
            data-testid="home-search"
          />
        ) : (
          <span />
        )}
        <Input.Search
          placeholder={t('home.orderSearch')}
          allowClear
          onSearch={(value) =>
            value.trim() && void router.push(`/receipt?orderCode=${encodeURIComponent(value.trim().toUpperCase())}`)
          }
          style={{ maxWidth: 260, flex: '1 1 180px' }}
          data-testid="home-order-search"
        />
        <Button icon={<SettingOutlined />} onClick={() => setDrawer(panels)} data-testid="home-customize">
          {t('home.customize')}
        </Button>
      </Head>

      {on('counts') ? (
        <Counts data-testid="home-counts">
          {COUNT_KEYS.map(({ key, status }) => (
            <CountCard
              key={key}
              href={status === 'organization' ? '/organization/list' : statusListHref(status)}
              data-testid={`count-${status}`}
            >
              <Statistic title={t(`home.count.${status}`)} value={counts.data?.[key] ?? '-'} />
            </CountCard>
          ))}
        </Counts>
      ) : null}

      <CloudControlPromotion />

      {on('map') ? (
        <Card
          size="small"
          title={t('home.map')}
          extra={<MapLegend statuses={markers.map((marker) => marker.status)} />}
          data-testid="home-map"
        >
          <DeviceMap
            markers={markers}
            onSelect={(marker) => void router.push(`/device/detail/${marker.id}`)}
            height={400}
          />
        </Card>
      ) : null}

      <Columns>
        {on('pinned') ? (
          <Card size="small" title={t('home.pinned')} data-testid="home-pinned">
            {pinned.length ? (
              <List size="small" dataSource={pinned} renderItem={(device) => <DeviceLine device={device} />} />
            ) : (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('home.noPinned')} />
            )}
          </Card>
        ) : null}
        {on('recent') ? (
          <Card size="small" title={t('home.recent')} data-testid="home-recent">
            {recent.length ? (
              <List size="small" dataSource={recent} renderItem={(device) => <DeviceLine device={device} />} />
            ) : (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('realtime.noData')} />
            )}
          </Card>
        ) : null}
        {on('expiring') ? (
          <Card size="small" title={t('home.expiring')} data-testid="home-expiring">
            {expiring.data?.list.length ? (
              <List
                size="small"
                dataSource={expiring.data.list}
                renderItem={(device) => (
                  <List.Item>
                    <Link href={`/device/list?deviceName=${encodeURIComponent(device.deviceName)}`}>
                      {device.deviceName}
                    </Link>
                    <Typography.Text type="secondary">{formatDate(device.serviceExpiredDate)}</Typography.Text>
                  </List.Item>
                )}
              />
            ) : (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('home.noExpiring')} />
            )}
          </Card>
        ) : null}
        {on('categories') ? (
          <Card size="small" title={t('home.categories')} data-testid="home-categories">
            <List
              size="small"
              dataSource={categories ?? []}
              loading={categoryPages.isLoading}
              renderItem={(row) => (
                <List.Item>
                  <Typography.Text>{t(`category.${row.category}`)}</Typography.Text>
                  <Typography.Text strong>{row.total}</Typography.Text>
                </List.Item>
              )}
            />
          </Card>
        ) : null}
      </Columns>

      <Drawer
        open={drawer !== null}
        title={t('home.customize')}
        onClose={() => setDrawer(null)}
        size={360}
        data-testid="home-drawer"
        footer={
          <Space style={{ width: '100%', justifyContent: 'flex-end' }}>
            <Button onClick={() => setDrawer(null)}>{t('action.cancel')}</Button>
            <Button
              type="primary"
              disabled={(drawer?.length ?? 0) < MIN_HOME_PANELS}
              onClick={() => {
                if (!drawer) return;
                savePanels(drawer);
                setPanels(HOME_PANELS.filter((panel) => drawer.includes(panel)));
                setDrawer(null);
              }}
              data-testid="home-drawer-save"
            >
              {t('action.save')}
            </Button>
          </Space>
        }
      >
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Typography.Text type="secondary">{t('home.customizeHint', { min: MIN_HOME_PANELS })}</Typography.Text>
          {(drawer?.length ?? 0) < MIN_HOME_PANELS ? (
            <Alert type="warning" showIcon title={t('home.tooFew', { min: MIN_HOME_PANELS })} />
          ) : null}
          <Checkbox.Group
            value={drawer ?? []}
            onChange={(values) => setDrawer(values as HomePanel[])}
            style={{ display: 'flex', flexDirection: 'column', gap: 8 }}
            options={HOME_PANELS.map((panel) => ({ value: panel, label: t(`home.panel.${panel}`) }))}
          />
        </Space>
      </Drawer>
    </div>
  );
}
