import { Card, Table } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { limitHistoryKey, type SensorLimitPeriod } from '@/api/alarm';
import type { DeviceDetail } from '@/api/device';
import { formatTime } from '@/lib/format';
import { useRead } from '@/hooks/useRead';

const EVER = '1970-01-01';

/** Every period of the device's limits, newest first: what applied when, who changed it and why
 * (reports judge each reading by the limits in force at its time). */
export function LimitHistoryCard({ device }: { device: DeviceDetail }) {
  const { t } = useTranslation('alarm');
  const { data, isLoading } = useRead<SensorLimitPeriod[]>(limitHistoryKey(device.id));
  const names = Object.fromEntries(
    device.params.filter((p) => p.probeId !== null).map((p) => [p.probeId as number, p.paramName]),
  );
  const value = (v: number | null) => (v === null ? '-' : String(v));
  return (
    <Card size="small" title={t('limitHistory.title')} data-testid="limit-history">
      <Table<SensorLimitPeriod>
        rowKey={(row) => `${row.sensor}-${row.validFrom}`}
        size="small"
        loading={isLoading}
        dataSource={data ?? []}
        pagination={{ pageSize: 10 }}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('limitHistory.empty') }}
        columns={[
          {
            key: 'sensor',
            title: t('limitHistory.sensor'),
            render: (_, row) => names[row.sensor] ?? String(row.sensor),
          },
          {
            key: 'limits',
            title: t('limitHistory.limits'),
            render: (_, row) =>
              row.enabled ? `${value(row.lowerLimit)} ~ ${value(row.upperLimit)}` : t('limitHistory.none'),
          },
          {
            key: 'from',
            title: t('limitHistory.validFrom'),
            render: (_, row) => (row.validFrom.startsWith(EVER) ? t('limitHistory.ever') : formatTime(row.validFrom)),
          },
          {
            key: 'to',
            title: t('limitHistory.validTo'),
            render: (_, row) => (row.validTo ? formatTime(row.validTo) : t('limitHistory.now')),
          },
          { key: 'by', title: t('limitHistory.changedBy'), render: (_, row) => row.changedBy ?? '-' },
          { key: 'reason', title: t('limitHistory.reason'), render: (_, row) => row.reason ?? '-' },
        ]}
      />
    </Card>
  );
}
