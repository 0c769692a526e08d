import { Descriptions, Empty, List, Space, Table, Tag, theme as antdTheme, Typography } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useMemo } from 'react';
import type { WaybillState, WaybillStatus } from '@/api/waybill';
import { ApexChart } from '@/components/device/ApexChart';
import { chartLocale, timeAxis } from '@/components/device/chartAxes';
import { displayZone, formatDuration, formatTime, zonedEpoch } from '@/lib/format';
import { FenceCanvas, type FenceShape } from './FenceCanvas';
import { shownStops, standardLook, trackSegments, type TrackLook } from './trackLook';

export const STATE_COLOR: Record<WaybillState, string> = {
  not_started: 'default',
  in_progress: 'processing',
  completed: 'success',
};

/** Metres or kilometres (spec 9: tracks in meters and kilometres). */
export function formatDistance(metres: number): string {
  return metres < 1000 ? `${Math.round(metres)} m` : `${(metres / 1000).toFixed(1)} km`;
}

export function StateTag({ state }: { state: WaybillState }) {
  const { t } = useTranslation('waybill');
  return (
    <Tag color={STATE_COLOR[state]} data-testid="waybill-state">
      {t(`state.${state}`)}
    </Tag>
  );
}

/** Status / real-time: position and track on the map, last value, elapsed time, distance, fence events. */
export function StatusTab({
  status,
  fences = [],
  compact = false,
  look,
}: {
  status: WaybillStatus;
  fences?: FenceShape[];
  compact?: boolean;
  look?: TrackLook;
}) {
  const { t, i18n } = useTranslation('waybill');
  const { token } = antdTheme.useToken();
  const track = useMemo(() => status.track.map((p) => ({ lat: p.lat, lng: p.lng })), [status.track]);
  const drawn = look ?? standardLook(token.colorInfo);
  const alarmColors = { upper: token.colorError, lower: token.purple };
  const segments = trackSegments(status.track, drawn, alarmColors);
  const stops = shownStops(status.stops ?? [], drawn);
  const breaches = new Set(segments.map((segment) => segment.breach).filter((breach) => breach !== null));
  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="waybill-status">
      <Descriptions size="small" column={{ xs: 1, sm: 2, lg: 4 }}>
        <Descriptions.Item label={t('field.state')}>
          <StateTag state={status.state} />
        </Descriptions.Item>
        <Descriptions.Item label={t('status.elapsed')}>
          {formatDuration(status.elapsedSeconds, i18n.language)}
        </Descriptions.Item>
        <Descriptions.Item label={t('status.distance')}>
          <span data-testid="waybill-distance">{formatDistance(status.distanceMeters)}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('status.lastValue')}>
          {status.lastValue === null ? '-' : `${status.lastValue} °C`}
        </Descriptions.Item>
        <Descriptions.Item label={t('status.lastData')}>{formatTime(status.lastDataAt)}</Descriptions.Item>
        <Descriptions.Item label={t('field.startedAt')}>{formatTime(status.startedAt)}</Descriptions.Item>
        <Descriptions.Item label={t('field.completedAt')}>{formatTime(status.completedAt)}</Descriptions.Item>
      </Descriptions>
      {track.length ? (
        <>
          <FenceCanvas
            fences={fences}
            track={track}
            segments={segments}
            lineWidth={drawn.lineWidth}
            stops={stops}
            position={status.position}
            height={compact ? 300 : 420}
            testId="waybill-map"
          />
          {breaches.size || stops.length ? (
            <Space wrap size="middle" data-testid="track-legend">
              {[...breaches].map((breach) => (
                <Space key={breach} size={4}>
                  <span style={{ display: 'inline-block', width: 24, height: 4, background: alarmColors[breach] }} />
                  {t(`track.${breach}`)}
                </Space>
              ))}
              {stops.length ? <span>P {t('track.stops', { count: stops.length })}</span> : null}
            </Space>
          ) : null}
        </>
      ) : (
        <Empty description={t('status.noData')} />
      )}
      {status.events.length ? (
        <List
          size="small"
          header={t('status.events')}
          dataSource={status.events}
          renderItem={(event) => (
            <List.Item>
              <Typography.Text>
                {formatTime(event.ts)} · {t(`status.${event.kind}`)} {event.fenceName} ({event.lat.toFixed(4)},{' '}
                {event.lng.toFixed(4)})
              </Typography.Text>
            </List.Item>
          )}
        />
      ) : null}
    </Space>
  );
}

/** Data graph: the temperatures of the waybill's window with its limits. */
export function ChartTab({ status, height = 340 }: { status: WaybillStatus; height?: number }) {
  const { t, i18n } = useTranslation('waybill');
  if (!status.temperatures.length) return <Empty description={t('status.noData')} />;
  return (
    <div data-testid="waybill-chart">
      <ApexChart
        type="line"
        height={height}
        series={[{ name: '°C', data: status.temperatures.map(([x, y]) => ({ x: zonedEpoch(x, displayZone()), y })) }]}
        options={{
          // ApexCharts' own locale: the axis dates follow the page's language.
          chart: { animations: { enabled: false }, toolbar: { show: false }, ...chartLocale(i18n.language) },
          xaxis: timeAxis(i18n.language, displayZone()),
          yaxis: { title: { text: '°C' }, decimalsInFloat: 1 },
          stroke: { width: 2 },
          annotations: {
            yaxis: [
              {
                y: status.upperLimit,
                borderColor: '#ff4d4f',
                label: { text: `${t('field.upperLimit')} ${status.upperLimit}` },
              },
              {
                y: status.lowerLimit,
                borderColor: '#1677ff',
                label: { text: `${t('field.lowerLimit')} ${status.lowerLimit}` },
              },
            ],
          },
        }}
      />
    </div>
  );
}

/** Alarm status: the alarms raised while the waybill ran. */
export function AlarmTab({ status }: { status: WaybillStatus }) {
  const { t } = useTranslation('waybill');
  if (!status.alarms.length) return <Empty description={t('alarm.none')} />;
  return (
    <Table
      rowKey={(a) => `${a.kind}-${a.startedAt}`}
      size="small"
      pagination={false}
      dataSource={status.alarms}
      scroll={{ x: 'max-content' }}
      data-testid="waybill-alarms"
      columns={[
        { key: 'kind', title: t('field.state'), render: (_, a) => t(`alarm.kind.${a.kind}`, { defaultValue: a.kind }) },
        { key: 'value', title: t('status.lastValue'), render: (_, a) => (a.value === null ? '-' : `${a.value} °C`) },
        { key: 'start', title: t('field.startedAt'), render: (_, a) => formatTime(a.startedAt) },
        { key: 'end', title: t('field.completedAt'), render: (_, a) => formatTime(a.closedAt) },
      ]}
    />
  );
}
