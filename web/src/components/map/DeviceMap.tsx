import { EnvironmentOutlined } from '@ant-design/icons';
import {
  APIProvider,
  APILoadingStatus,
  Map as GoogleMap,
  Marker,
  Polyline,
  useApiLoadingStatus,
} from '@vis.gl/react-google-maps';
import { Empty, Space, theme as antdTheme, Typography } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useEffect, useMemo, useRef, useState } from 'react';
import styled from 'styled-components';
import type { DeviceStatus } from '@/api/device';
import { useViewport } from '@/hooks/useViewport';
import { displayLength, shortLabel } from '@/utils/displayLength';
import { useBaseMap } from './baseMap';
import { fitProjection, trackPath, type LatLng } from './projection';

/** The Google Maps key of this build; without one (or offline) the plain projection is drawn. */
export const GOOGLE_MAPS_API_KEY = process.env.NEXT_PUBLIC_GOOGLE_MAPS_API_KEY ?? '';

export interface MapMarker extends LatLng {
  id: number;
  name: string;
  status: DeviceStatus;
}

interface DeviceMapProps {
  markers: MapMarker[];
  /** A track drawn as a line (oldest first); its first and last points get start / end marks. */
  track?: LatLng[];
  onSelect?: (marker: MapMarker) => void;
  height?: number;
  testId?: string;
}

type Token = ReturnType<typeof antdTheme.useToken>['token'];

/** Marker colour of a device state, from the antd theme tokens. */
export function statusColor(
  status: DeviceStatus,
  token: Pick<Token, 'colorSuccess' | 'colorError' | 'colorWarning' | 'colorPrimary' | 'colorTextQuaternary'>,
): string {
  switch (status) {
    case 'online':
      return token.colorSuccess;
    case 'alarm':
      return token.colorError;
    case 'fault':
    case 'expired':
      return token.colorWarning;
    case 'not_enabled':
      return token.colorPrimary;
    default:
      return token.colorTextQuaternary;
  }
}

const Frame = styled.div<{ $height: number }>`
  position: relative;
  width: 100%;
  height: ${({ $height }) => $height}px;
  border: 1px solid ${({ theme }) => theme.colors.border};
  border-radius: ${({ theme }) => theme.radius}px;
  overflow: hidden;
  background: ${({ theme }) => theme.colors.container};
`;

const Note = styled.div`
  margin-bottom: 6px;
  font-size: 12px;
`;

/** Map height on a phone (the desktop height would push everything else out of sight). */
const PHONE_MAP_HEIGHT = 300;

function useMapHeight(height: number): number {
  return useViewport() === 'mobile' ? Math.min(height, PHONE_MAP_HEIGHT) : height;
}

/** Rough width of a marker label (SVG text is not measured before it is drawn). */
// A label's width by its display length (spec 5: a character above code 128 counts two): at 12 px a
// Latin letter is about 6.5 px wide, a Chinese character about 12 px. Long names are shortened.
const LABEL_COLUMN_PX = 6.5;
const LABEL_MAX_COLUMNS = 24;

function useWidth<T extends HTMLElement>(): [React.RefObject<T | null>, number] {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const element = ref.current;
    if (!element) return undefined;
    setWidth(element.clientWidth);
    const observer = new ResizeObserver(() => setWidth(element.clientWidth));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

/**
 * Device positions and a track without map tiles: a Web Mercator projection fitted to the points,
 * a graticule, markers coloured by state (click opens the device) and the track as a line.
 */
export function OfflineMap({
  markers,
  track = [],
  onSelect,
  height: wanted = 420,
  reason,
  testId = 'device-map-canvas',
}: DeviceMapProps & { reason: string }) {
  const { t } = useTranslation('device');
  const { token } = antdTheme.useToken();
  const [ref, width] = useWidth<HTMLDivElement>();
  const height = useMapHeight(wanted);
  const projection = useMemo(
    () => fitProjection([...markers, ...track], Math.max(width, 1), height, 44),
    [markers, track, width, height],
  );
  const line = trackPath(track, projection);
  const labels = markers.length <= 40;
  // The shipped country outlines beneath (no tiles, key or network needed: baseMap.ts).
  const outlines = useBaseMap();
  const land = useMemo(
    () =>
      outlines.map((country) => ({
        name: country.name,
        d: country.rings.map((ring) => `${trackPath(ring, projection)} Z`).join(' '),
      })),
    [outlines, projection],
  );

  return (
    <div>
      <Note>
        <Typography.Text type="secondary" data-testid="map-note">
          <EnvironmentOutlined /> {reason}
        </Typography.Text>
      </Note>
      <Frame ref={ref} $height={height} data-testid={testId} data-mode="offline">
        {width > 0 ? (
          <svg width={width} height={height} role="img" aria-label={t('map.offlineLabel')}>
            <rect width={width} height={height} fill={token.colorFillQuaternary} />
            <g data-testid="base-map" pointerEvents="none">
              {land.map((country, index) => (
                <path
                  key={`${country.name}-${index}`}
                  d={country.d}
                  fill={token.colorBgContainer}
                  stroke={token.colorBorder}
                />
              ))}
            </g>
            {projection.latLines.map((lat) => {
              const { y } = projection.project({ lat, lng: 0 });
              return (
                <g key={`lat${lat}`}>
                  <line x1={0} x2={width} y1={y} y2={y} stroke={token.colorBorderSecondary} />
                  <text x={4} y={y - 3} fontSize={10} fill={token.colorTextTertiary}>
                    {lat.toFixed(2)}°
                  </text>
                </g>
              );
            })}
            {projection.lngLines.map((lng) => {
              const { x } = projection.project({ lat: 0, lng });
              return (
                <g key={`lng${lng}`}>
                  <line x1={x} x2={x} y1={0} y2={height} stroke={token.colorBorderSecondary} />
                  <text x={x + 3} y={height - 4} fontSize={10} fill={token.colorTextTertiary}>
                    {lng.toFixed(2)}°
                  </text>
                </g>
              );
            })}
            {line ? (
              <path
                d={line}
                fill="none"
                stroke={token.colorPrimary}
                strokeWidth={3}
                strokeLinejoin="round"
                data-testid="map-track"
              />
            ) : null}
            {track.length > 1
              ? [track[0], track[track.length - 1]].map((point, index) => {
                  const { x, y } = projection.project(point);
                  return (
                    <circle
                      key={index}
                      cx={x}
                      cy={y}
                      r={5}
                      fill={token.colorBgContainer}
                      stroke={token.colorPrimary}
                      strokeWidth={3}
                    />
                  );
                })
              : null}
            {/* Labels are drawn beneath every pin, so a neighbour's label never covers a pin. */}
            {labels
              ? markers.map((marker) => {
                  const { x, y } = projection.project(marker);
                  const label = shortLabel(marker.name, LABEL_MAX_COLUMNS);
                  // Near the right edge the label goes to the left of the pin.
                  const flip = x + 13 + displayLength(label) * LABEL_COLUMN_PX > width;
                  return (
                    <text
                      key={marker.id}
                      x={x + (flip ? -13 : 13)}
                      y={y - 15}
                      textAnchor={flip ? 'end' : 'start'}
                      fontSize={12}
                      fill={token.colorText}
                      stroke={token.colorBgContainer}
                      strokeWidth={3}
                      paintOrder="stroke"
                      onClick={onSelect ? () => onSelect(marker) : undefined}
                      style={{ cursor: onSelect ? 'pointer' : 'default' }}
                      data-testid="map-marker-label"
                    >
                      {label}
                    </text>
                  );
                })
              : null}
            {markers.map((marker) => {
              const { x, y } = projection.project(marker);
              return (
                <g
                  key={marker.id}
                  transform={`translate(${x.toFixed(1)} ${y.toFixed(1)})`}
                  onClick={onSelect ? () => onSelect(marker) : undefined}
                  onKeyDown={onSelect ? (event) => event.key === 'Enter' && onSelect(marker) : undefined}
                  role={onSelect ? 'link' : undefined}
                  tabIndex={onSelect ? 0 : undefined}
                  style={{ cursor: onSelect ? 'pointer' : 'default' }}
                  data-testid="map-marker"
                  data-status={marker.status}
                >
                  <title>{marker.name}</title>
                  <path
                    d="M0 0 C-4 -8 -10 -12 -10 -19 A10 10 0 1 1 10 -19 C10 -12 4 -8 0 0 Z"
                    fill={statusColor(marker.status, token)}
                    stroke={token.colorBgContainer}
                    strokeWidth={1.5}
                  />
                  <circle cx={0} cy={-19} r={4} fill={token.colorBgContainer} />
                </g>
              );
            })}
          </svg>
        ) : null}
      </Frame>
    </div>
  );
}

function GoogleDeviceMap(props: DeviceMapProps) {
  const { t } = useTranslation('device');
  const status = useApiLoadingStatus();
  const { token } = antdTheme.useToken();
  const { markers, track = [], onSelect, height: wanted = 420, testId = 'device-map-canvas' } = props;
  const height = useMapHeight(wanted);
  const bounds = useMemo(() => {
    const points = [...markers, ...track];
    if (!points.length) return undefined;
    const lats = points.map((point) => point.lat);
    const lngs = points.map((point) => point.lng);
    return {
      south: Math.min(...lats) - 0.01,
      north: Math.max(...lats) + 0.01,
      west: Math.min(...lngs) - 0.01,
      east: Math.max(...lngs) + 0.01,
    };
  }, [markers, track]);

  if (status === APILoadingStatus.FAILED || status === APILoadingStatus.AUTH_FAILURE) {
    return <OfflineMap {...props} reason={t('map.loadFailed')} />;
  }
  return (
    <Frame $height={height} data-testid={testId} data-mode="google">
      <GoogleMap
        defaultBounds={bounds}
        defaultCenter={bounds ? undefined : { lat: 31.23, lng: 121.47 }}
        defaultZoom={bounds ? undefined : 4}
        gestureHandling="cooperative"
        style={{ width: '100%', height: '100%' }}
      >
        {track.length > 1 ? <Polyline path={track} strokeColor={token.colorPrimary} strokeWeight={3} /> : null}
        {markers.map((marker) => (
          <Marker
            key={marker.id}
            position={marker}
            title={marker.name}
            onClick={onSelect ? () => onSelect(marker) : undefined}
          />
        ))}
      </GoogleMap>
    </Frame>
  );
}

/**
 * A map of device positions (and optionally a track): Google Maps with the configured key, else
 * (no key, or the API cannot load) the same points on a plain projection, saying why.
 */
export function DeviceMap(props: DeviceMapProps) {
  const { t } = useTranslation('device');
  if (!props.markers.length && !(props.track && props.track.length)) {
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('map.noPositions')} />;
  }
  if (!GOOGLE_MAPS_API_KEY) {
    return <OfflineMap {...props} reason={t('map.noKey')} />;
  }
  return (
    <APIProvider apiKey={GOOGLE_MAPS_API_KEY}>
      <GoogleDeviceMap {...props} />
    </APIProvider>
  );
}

/** Legend of marker colours for the states present. */
export function MapLegend({ statuses }: { statuses: DeviceStatus[] }) {
  const { t } = useTranslation('device');
  const { token } = antdTheme.useToken();
  const unique = [...new Set(statuses)];
  return (
    <Space wrap size={12} data-testid="map-legend">
      {unique.map((status) => (
        <Space key={status} size={4}>
          <span
            style={{
              display: 'inline-block',
              width: 10,
              height: 10,
              borderRadius: '50%',
              background: statusColor(status, token),
            }}
          />
          <Typography.Text type="secondary">{t(`status.${status}`)}</Typography.Text>
        </Space>
      ))}
    </Space>
  );
}
