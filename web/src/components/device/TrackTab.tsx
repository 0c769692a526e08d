import { Descriptions, Segmented, Space, Spin, Typography } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useMemo, useState } from 'react';
import { trackDataKey, type DeviceDetail, type TrackPoint } from '@/api/device';
import { DeviceMap, type MapMarker } from '@/components/map/DeviceMap';
import { useRead } from '@/hooks/useRead';
import { formatZoned, isoWithOffset } from '@/lib/format';
import { presetRange, type RangePreset } from './helpers';

type TrackRange = Extract<RangePreset, 'h24' | 'd7' | 'd30'>;
export const TRACK_RANGES: TrackRange[] = ['h24', 'd7', 'd30'];

/** Distance along a track in km (haversine between consecutive points). */
export function trackLengthKm(points: { lat: number; lng: number }[]): number {
  const radius = 6371;
  const rad = (degrees: number) => (degrees * Math.PI) / 180;
  let total = 0;
  for (let index = 1; index < points.length; index += 1) {
    const [a, b] = [points[index - 1], points[index]];
    const h =
      Math.sin(rad(b.lat - a.lat) / 2) ** 2 +
      Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(rad(b.lng - a.lng) / 2) ** 2;
    total += 2 * radius * Math.asin(Math.min(1, Math.sqrt(h)));
  }
  return Math.round(total * 10) / 10;
}

/** Map tab: the device's position and its track over 24 hours, 7 or 30 days. */
export function TrackTab({ device }: { device: DeviceDetail }) {
  const { t } = useTranslation('device');
  const [range, setRange] = useState<TrackRange>('h24');
  // The range is fixed when chosen (not at every render), so the request key stays stable.
  const [bounds, setBounds] = useState(() => presetRange('h24').map(isoWithOffset));
  const { data, isLoading } = useRead<TrackPoint[]>(trackDataKey(device.id, bounds[0], bounds[1]), {
    keepPreviousData: true,
    revalidateOnFocus: false,
  });
  const track = useMemo(() => (data ?? []).map((point) => ({ lat: point.lat, lng: point.lng })), [data]);
  const markers = useMemo<MapMarker[]>(() => {
    const last = data?.[data.length - 1];
    const lat = device.lat ?? last?.lat;
    const lng = device.lng ?? last?.lng;
    return lat !== undefined && lat !== null && lng !== undefined && lng !== null
      ? [{ id: device.id, name: device.deviceName, status: device.status, lat, lng }]
      : [];
  }, [data, device]);

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="device-track">
      <Segmented<TrackRange>
        value={range}
        onChange={(next) => {
          setRange(next);
          setBounds(presetRange(next).map(isoWithOffset));
        }}
        options={TRACK_RANGES.map((value) => ({ value, label: t(`chart.range.${value}`) }))}
        data-testid="track-range"
      />
      <Spin spinning={isLoading}>
        <DeviceMap markers={markers} track={track} height={440} />
      </Spin>
      {data?.length ? (
        <Descriptions size="small" column={{ xs: 1, md: 3 }} data-testid="track-summary">
          <Descriptions.Item label={t('track.points')}>{data.length}</Descriptions.Item>
          <Descriptions.Item label={t('track.from')}>{formatZoned(data[0].t, device.timeZone)}</Descriptions.Item>
          <Descriptions.Item label={t('track.to')}>
            {formatZoned(data[data.length - 1].t, device.timeZone)}
          </Descriptions.Item>
          <Descriptions.Item label={t('track.distance')}>{trackLengthKm(track)} km</Descriptions.Item>
        </Descriptions>
      ) : (
        <Typography.Text type="secondary">{t('track.none')}</Typography.Text>
      )}
    </Space>
  );
}
