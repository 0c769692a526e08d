import {
  APILoadingStatus,
  APIProvider,
  Circle,
  Map as GoogleMap,
  Marker,
  Polygon,
  useApiLoadingStatus,
} from '@vis.gl/react-google-maps';
import { theme as antdTheme, Typography } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { GOOGLE_MAPS_API_KEY } from '@/components/map/DeviceMap';
import { FenceCanvas, type FenceCanvasProps } from './FenceCanvas';

/**
 * Where fences are drawn: the Google map when this build has a key (a click gives the position under
 * the pointer), else, or when Google cannot load, the offline base map (FenceCanvas). Coordinates typed
 * in and the place search work with either.
 */
export function FenceMap(props: FenceCanvasProps) {
  if (!GOOGLE_MAPS_API_KEY) return <FenceCanvas {...props} />;
  return (
    <APIProvider apiKey={GOOGLE_MAPS_API_KEY}>
      <GoogleFences {...props} />
    </APIProvider>
  );
}

function GoogleFences(props: FenceCanvasProps) {
  const { t } = useTranslation('waybill');
  const { token } = antdTheme.useToken();
  const status = useApiLoadingStatus();
  const { fences = [], onPick, height = 420, focus, home = { lat: 31.2304, lng: 121.4737 } } = props;
  if (status === APILoadingStatus.FAILED || status === APILoadingStatus.AUTH_FAILURE) return <FenceCanvas {...props} />;
  const first = fences
    .map((fence) => (fence.shape === 'circle' ? fence.center : fence.points?.[0]))
    .find((point): point is [number, number] => Boolean(point));
  const center = focus ?? (first ? { lat: first[0], lng: first[1] } : home);
  const style = { strokeColor: token.colorPrimary, strokeWeight: 2, fillColor: token.colorPrimary, fillOpacity: 0.2 };
  return (
    <div data-testid="fence-canvas" data-mode="google">
      <GoogleMap
        key={`${center.lat},${center.lng}`}
        defaultCenter={center}
        defaultZoom={13}
        gestureHandling="cooperative"
        style={{ width: '100%', height }}
        onClick={(event) => {
          const at = event.detail.latLng;
          if (at && onPick) onPick([Number(at.lat.toFixed(6)), Number(at.lng.toFixed(6))]);
        }}
      >
        {fences.map((fence, index) =>
          fence.shape === 'circle' ? (
            fence.center ? (
              <Circle
                key={fence.id ?? index}
                center={{ lat: fence.center[0], lng: fence.center[1] }}
                radius={fence.radius ?? 0}
                clickable={false}
                {...style}
              />
            ) : null
          ) : (
            <Polygon
              key={fence.id ?? index}
              paths={[(fence.points ?? []).map(([lat, lng]) => ({ lat, lng }))]}
              clickable={false}
              {...style}
            />
          ),
        )}
        {(fences[0]?.shape === 'polygon' ? (fences[0].points ?? []) : []).map(([lat, lng], index) => (
          <Marker key={index} position={{ lat, lng }} clickable={false} />
        ))}
      </GoogleMap>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('fence.google')}
      </Typography.Text>
    </div>
  );
}
