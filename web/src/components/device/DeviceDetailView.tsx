import { ArrowLeftOutlined } from '@ant-design/icons';
import { Button, Result, Skeleton, Space, Tabs, Typography } from 'antd';
import { useRouter } from 'next/router';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import { useDeviceDetail } from '@/hooks/resources';
import { AlarmStatusTab } from '@/components/alarm/AlarmStatusTab';
import { TopUpTab } from '@/components/billing/TopUpTab';
import { DeviceCalibration } from '@/components/calibration/DeviceCalibration';
import { ProbeCalibrationTab } from '@/components/calibration/ProbeCalibrationTab';
import { PushSettingsTab } from '@/components/alarm/PushSettingsTab';
import { ExportButton } from '@/components/report/ExportDialog';
import { useShareDialogs } from '@/components/organization/DeviceShareActions';
import { PageHead } from '@/components/ui/PageHead';
import { Permitted } from '@/components/ui/Permitted';
import { devicePermissionState } from '@/routes/permissions';
import { ChartTab } from './ChartTab';
import { EnergyTab, InfoTab, LogTab, ParamsTab, RealtimeTab } from './DetailTabs';
import { hasEnergy, sensorParams } from './helpers';
import { RecordsTab } from './RecordsTab';
import { StatusTag } from './StatusTag';
import { TrackTab } from './TrackTab';

/** Device detail (business spec 2): its tabs, the top-up tab (billing) last. */
export function DeviceDetailView({ deviceId }: { deviceId: number | null }) {
  const { t } = useTranslation('device');
  const router = useRouter();
  const { data: device, error } = useDeviceDetail(deviceId);
  // Local state, not the address: every address gets its own tab in the shell's tab bar.
  const [tab, setTab] = useState('realtime');
  const { t: to } = useTranslation('organization');
  const shareDialogs = useShareDialogs();

  // A refresh that fails keeps the device on screen (SWR keeps its data); only a device never read is unknown.
  if (!deviceId || (error && !device))
    return (
      <Result
        status="warning"
        title={t('unknownDevice')}
        extra={<Button onClick={() => router.push('/device/list')}>{t('action.cancel')}</Button>}
      />
    );
  if (!device) return <Skeleton active />;

  const items = [
    { key: 'realtime', label: t('tabs.realtime'), children: <RealtimeTab device={device} /> },
    { key: 'chart', label: t('tabs.chart'), children: <ChartTab device={device} /> },
    { key: 'alarm', label: t('tabs.alarm'), children: <AlarmStatusTab device={device} /> },
    { key: 'push', label: t('tabs.push'), children: <PushSettingsTab device={device} /> },
    { key: 'map', label: t('tabs.map'), children: <TrackTab device={device} /> },
    { key: 'info', label: t('tabs.info'), children: <InfoTab device={device} /> },
    { key: 'params', label: t('tabs.params'), children: <ParamsTab device={device} /> },
    ...(hasEnergy(device.params)
      ? [{ key: 'energy', label: t('tabs.energy'), children: <EnergyTab device={device} /> }]
      : []),
    { key: 'log', label: t('tabs.log'), children: <LogTab device={device} /> },
    { key: 'records', label: t('tabs.records'), children: <RecordsTab deviceId={device.id} /> },
    {
      key: 'calibration',
      label: t('tabs.calibration'),
      children: (
        <ProbeCalibrationTab
          deviceId={device.id}
          deviceGuid={device.deviceGuid}
          probes={sensorParams(device.params).map((param) => ({
            sensor: param.probeId ?? 0,
            name: param.paramName,
          }))}
        />
      ),
    },
    ...(device.shareFlag ? [] : [{ key: 'topUp', label: t('tabs.topUp'), children: <TopUpTab device={device} /> }]),
    // A shared device shows only the blocks its permission template lets the account see.
    // The probes' certificates are the device's records (the api gates them as the records block).
  ].filter(
    (item) => devicePermissionState(device.permissions, item.key === 'calibration' ? 'records' : item.key) !== 'hidden',
  );
  const owned = !device.shareFlag && !device.permissions;
  const active = items.find((item) => item.key === tab) ?? items[0];

  return (
    <div data-testid="device-detail">
      {/* Each tab its own title: "<site> - Cold Room 1 · Data chart". */}
      <PageHead name={active ? `${device.deviceName} · ${active.label}` : device.deviceName} />
      <Space wrap align="center" style={{ marginBottom: 8 }}>
        <Button
          type="text"
          icon={<ArrowLeftOutlined />}
          onClick={() => router.push('/device/list')}
          aria-label="back"
        />
        <Typography.Title level={4} style={{ margin: 0 }} data-testid="device-title">
          {device.deviceName}
        </Typography.Title>
        <StatusTag status={device.status} />
        <Typography.Text type="secondary">
          {device.typeName} · {device.deviceGuid}
        </Typography.Text>
        <ExportButton device={device} />
        <DeviceCalibration deviceId={device.id} />
        {owned ? (
          <Permitted route="device.list" action="share">
            <Button size="small" onClick={() => shareDialogs.open('share', device)} data-testid="device-share">
              {to('action.share')}
            </Button>
          </Permitted>
        ) : null}
      </Space>
      {shareDialogs.modals}
      <Tabs activeKey={active?.key} onChange={setTab} items={items} destroyOnHidden />
    </div>
  );
}
