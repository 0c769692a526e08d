import { theme as antdTheme, Typography } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useMemo, useRef, type MouseEvent } from 'react';
import { formatTime } from '@/lib/format';
import type { TrackStop } from '@/api/waybill';
import { outlinesIn, useBaseMap } from '@/components/map/baseMap';
import { PLACES } from '@/components/map/places';
import type { LatLng } from '@/components/map/projection';
import type { TrackSegment } from './trackLook';

/** A fence as drawn: a circle (centre, radius in metres) or a polygon ([[lat, lng], ...]). */
export interface FenceShape {
  id?: number | string;
  name?: string;
  shape: 'circle' | 'polygon';
  center?: [number, number] | null;
  radius?: number | null;
  points?: [number, number][];
}

export interface FenceCanvasProps {
  fences?: FenceShape[];
  track?: LatLng[];
  /** The track drawn in stretches of a colour (a track template); default: one line in the theme's info colour. */
  segments?: TrackSegment[];
  lineWidth?: number;
  /** Stops to mark on the track. */
  stops?: TrackStop[];
  position?: LatLng | null;
  markers?: { lat: number; lng: number; label: string }[];
  onPick?: (point: [number, number]) => void;
  height?: number;
  testId?: string;
  /** Where to look when there is nothing to fit (Shanghai). */
  home?: LatLng;
  /** Look here (a place found by the search) instead of fitting what is drawn. */
  focus?: LatLng | null;
}

const WIDTH = 800;
const METRES_PER_DEGREE = 111_320;

function circlePoints(center: [number, number], radius: number): LatLng[] {
  const [lat, lng] = center;
  const dLat = radius / METRES_PER_DEGREE;
  const dLng = radius / (METRES_PER_DEGREE * Math.cos((lat * Math.PI) / 180));
  return Array.from({ length: 48 }, (_, i) => {
    const angle = (2 * Math.PI * i) / 48;
    return { lat: lat + dLat * Math.sin(angle), lng: lng + dLng * Math.cos(angle) };
  });
}

function outline(fence: FenceShape): LatLng[] {
  if (fence.shape === 'circle')
    return fence.center && fence.radius
      ? circlePoints(fence.center, fence.radius)
      : fence.center
        ? [{ lat: fence.center[0], lng: fence.center[1] }]
        : [];
  return (fence.points ?? []).map(([lat, lng]) => ({ lat, lng }));
}

/**
 * The offline projection of fences, a track and positions (no map tiles needed), on which a fence is
 * drawn by clicking: each click gives the position under the pointer.
 */
export function FenceCanvas({
  fences = [],
  track = [],
  segments,
  lineWidth = 3,
  stops = [],
  position,
  markers = [],
  onPick,
  height = 420,
  testId = 'fence-canvas',
  home = { lat: 31.2304, lng: 121.4737 },
  focus = null,
}: FenceCanvasProps) {
  const { t, i18n } = useTranslation('waybill');
  const { token } = antdTheme.useToken();
  const svg = useRef<SVGSVGElement>(null);
  const outlines = useBaseMap();
  const view = useMemo(() => {
    const all = focus ? [] : [...fences.flatMap(outline), ...track, ...(position ? [position] : []), ...markers];
    const around = focus ?? home;
    const lats = all.length ? all.map((p) => p.lat) : [around.lat - 0.05, around.lat + 0.05];
    const lngs = all.length ? all.map((p) => p.lng) : [around.lng - 0.05, around.lng + 0.05];
    let [south, north, west, east] = [Math.min(...lats), Math.max(...lats), Math.min(...lngs), Math.max(...lngs)];
    const minSpan = 0.01;
    if (north - south < minSpan) [south, north] = [south - minSpan, north + minSpan];
    if (east - west < minSpan) [west, east] = [west - minSpan, east + minSpan];
    const padLat = (north - south) * 0.15;
    const padLng = (east - west) * 0.15;
    [south, north, west, east] = [south - padLat, north + padLat, west - padLng, east + padLng];
    const aspect = Math.cos((((south + north) / 2) * Math.PI) / 180);
    const scale = Math.min(WIDTH / ((east - west) * aspect), height / (north - south));
    const offsetX = (WIDTH - (east - west) * aspect * scale) / 2;
    const offsetY = (height - (north - south) * scale) / 2;
    const invert = (x: number, y: number): [number, number] => [
      north - (y - offsetY) / scale,
      west + (x - offsetX) / (aspect * scale),
    ];
    const [top, left] = invert(0, 0);
    const [bottom, right] = invert(WIDTH, height);
    return {
      project: (p: LatLng) => ({ x: offsetX + (p.lng - west) * aspect * scale, y: offsetY + (north - p.lat) * scale }),
      invert,
      /** What the box shows: [south, west, north, east]. */
      bounds: [bottom, left, top, right] as [number, number, number, number],
    };
  }, [fences, track, position, markers, height, home, focus]);

  const path = (points: LatLng[], close: boolean) =>
    points.map((p, i) => `${i ? 'L' : 'M'}${view.project(p).x.toFixed(1)} ${view.project(p).y.toFixed(1)}`).join(' ') +
    (close && points.length > 2 ? ' Z' : '');

  // The shipped outlines and place names under what is drawn (no tiles, no key, no network needed).
  const land = useMemo(
    () =>
      outlinesIn(outlines, view.bounds).map((country) => ({
        name: country.name,
        d: country.rings.map((ring) => path(ring, true)).join(' '),
      })),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- path() reads only `view`
    [outlines, view],
  );
  const [south, west, north, east] = view.bounds;
  const places = PLACES.filter((p) => p.lat >= south && p.lat <= north && p.lng >= west && p.lng <= east);
  const english = i18n.language?.startsWith('en');

  const pick = (event: MouseEvent<SVGSVGElement>) => {
    if (!onPick || !svg.current) return;
    const box = svg.current.getBoundingClientRect();
    const x = ((event.clientX - box.left) / box.width) * WIDTH;
    const y = ((event.clientY - box.top) / box.height) * height;
    const [lat, lng] = view.invert(x, y);
    onPick([Number(lat.toFixed(6)), Number(lng.toFixed(6))]);
  };

  return (
    <div>
      <svg
        ref={svg}
        viewBox={`0 0 ${WIDTH} ${height}`}
        style={{
          width: '100%',
          height: 'auto',
          background: token.colorFillQuaternary,
          borderRadius: token.borderRadius,
          cursor: onPick ? 'crosshair' : 'default',
        }}
        onClick={pick}
        data-testid={testId}
      >
        <g data-testid="base-map" pointerEvents="none">
          {land.map((country, index) => (
            <path
              key={`${country.name}-${index}`}
              d={country.d}
              fill={token.colorBgContainer}
              stroke={token.colorBorder}
              strokeWidth={1}
            >
              <title>{country.name}</title>
            </path>
          ))}
          {places.map((place) => (
            <g key={`${place.kind}-${place.en}`} data-testid="base-map-place">
              <circle cx={view.project(place).x} cy={view.project(place).y} r={2.5} fill={token.colorTextTertiary} />
              <text
                x={view.project(place).x + 5}
                y={view.project(place).y - 4}
                fontSize={11}
                fill={token.colorTextTertiary}
              >
                {english ? place.en : place.zh}
              </text>
            </g>
          ))}
        </g>
        {fences.map((fence, index) => {
          const points = outline(fence);
          const first = points[0];
          return (
            <g key={fence.id ?? index} data-testid="fence-shape">
              {points.length > 1 ? (
                <path
                  d={path(points, true)}
                  fill={token.colorPrimaryBg}
                  fillOpacity={0.6}
                  stroke={token.colorPrimary}
                  strokeWidth={2}
                />
              ) : null}
              {fence.shape === 'polygon'
                ? points.map((p, i) => (
                    <circle key={i} cx={view.project(p).x} cy={view.project(p).y} r={4} fill={token.colorPrimary} />
                  ))
                : first && (
                    <circle
                      cx={view.project(fence.center ? { lat: fence.center[0], lng: fence.center[1] } : first).x}
                      cy={view.project(fence.center ? { lat: fence.center[0], lng: fence.center[1] } : first).y}
                      r={4}
                      fill={token.colorPrimary}
                    />
                  )}
              {fence.name && first ? (
                <text x={view.project(first).x + 6} y={view.project(first).y - 6} fontSize={13} fill={token.colorText}>
                  {fence.name}
                </text>
              ) : null}
            </g>
          );
        })}
        {track.length > 1 ? (
          <g data-testid="waybill-track">
            {(segments ?? [{ points: track, color: token.colorInfo, breach: null }]).map((segment, index) =>
              segment.points.length > 1 ? (
                <path
                  key={index}
                  d={path(segment.points, false)}
                  fill="none"
                  stroke={segment.color}
                  strokeWidth={lineWidth}
                  strokeLinejoin="round"
                  data-breach={segment.breach ?? 'none'}
                />
              ) : null,
            )}
          </g>
        ) : null}
        {stops.map((stop) => (
          <g key={stop.startedAt} data-testid="track-stop">
            <title>
              {t('track.stopped', {
                minutes: stop.minutes,
                from: formatTime(stop.startedAt),
                to: formatTime(stop.endedAt),
              })}
            </title>
            <rect
              x={view.project(stop).x - 6}
              y={view.project(stop).y - 6}
              width={12}
              height={12}
              rx={2}
              fill={token.colorBgContainer}
              stroke={token.colorText}
              strokeWidth={2}
            />
            <text
              x={view.project(stop).x}
              y={view.project(stop).y + 4}
              fontSize={9}
              textAnchor="middle"
              fill={token.colorText}
            >
              P
            </text>
          </g>
        ))}
        {track.length ? (
          <>
            <circle cx={view.project(track[0]).x} cy={view.project(track[0]).y} r={7} fill={token.colorSuccess} />
            <text
              x={view.project(track[0]).x + 9}
              y={view.project(track[0]).y + 4}
              fontSize={12}
              fill={token.colorText}
            >
              {t('status.start')}
            </text>
            <circle
              cx={view.project(track[track.length - 1]).x}
              cy={view.project(track[track.length - 1]).y}
              r={7}
              fill={token.colorError}
            />
            <text
              x={view.project(track[track.length - 1]).x + 9}
              y={view.project(track[track.length - 1]).y + 4}
              fontSize={12}
              fill={token.colorText}
            >
              {t('status.end')}
            </text>
          </>
        ) : null}
        {position ? (
          <circle
            cx={view.project(position).x}
            cy={view.project(position).y}
            r={8}
            fill={token.colorWarning}
            stroke="#fff"
            strokeWidth={2}
            data-testid="waybill-position"
          />
        ) : null}
        {markers.map((m, i) => (
          <g key={i}>
            <circle cx={view.project(m).x} cy={view.project(m).y} r={5} fill={token.colorTextSecondary} />
            <text x={view.project(m).x + 7} y={view.project(m).y + 4} fontSize={12} fill={token.colorTextSecondary}>
              {m.label}
            </text>
          </g>
        ))}
      </svg>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('fence.offline')}
      </Typography.Text>
    </div>
  );
}
