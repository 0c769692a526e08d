import {
  Button,
  Card,
  Descriptions,
  Empty,
  Form,
  InputNumber,
  Space,
  Statistic,
  Table,
  Tag,
  Typography,
  App,
} from 'antd';
import type { ApexOptions } from 'apexcharts';
import { useTranslation } from 'next-i18next/pages';
import { useEffect, useMemo, useState } from 'react';
import styled, { useTheme } from 'styled-components';
import {
  deviceCommandsKey,
  deviceEventsKey,
  energyDataKey,
  latestDataKey,
  sendCommand,
  type DeviceCommand,
  type DeviceDetail,
  type DeviceEvent,
  type DeviceParam,
  type EnergyMonth,
  type Latest,
} from '@/api/device';
import { ApexChart } from './ApexChart';
import { chartLocale } from './chartAxes';
import { formatDate, formatReading, formatValue, formatZoned } from '@/lib/format';
import { checkSetting, unitLabel, valueOf, writableParams } from './helpers';
import { LIST_REFRESH_MS } from './DeviceListView';
import { Permitted } from '@/components/ui/Permitted';
import { devicePermissionState } from '@/routes/permissions';
import { StatusTag } from './StatusTag';
import { commandText, eventDetailText } from './format';
import { useFormSubmit } from '@/hooks/useFormSubmit';
import { useRead } from '@/hooks/useRead';

const Grid = styled.div`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(180px, 1fr));
  gap: 12px;
`;

/** Real-time data: each sensor's latest value, battery and signal, refreshed every 30 s. */
export function RealtimeTab({ device }: { device: DeviceDetail }) {
  const { t } = useTranslation('device');
  const { t: tc } = useTranslation('common');
  const { data } = useRead<Latest>(latestDataKey(device.id), {
    refreshInterval: LIST_REFRESH_MS,
    fallbackData: { ...device, deviceId: device.id },
  });
  const sensors = device.params
    .filter((param) => param.probeId !== null)
    .sort((a, b) => (a.probeId ?? 0) - (b.probeId ?? 0));
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="realtime">
      <Typography.Text type="secondary">
        {data?.lastDataTime
          ? t('realtime.lastData', { time: formatZoned(data.lastDataTime, device.timeZone) })
          : t('realtime.noData')}
      </Typography.Text>
      <Grid>
        {sensors.map((param) => (
          <Card size="small" key={param.paramKey}>
            {param.unitCode === 'onoff' ? (
              <Statistic
                title={param.paramName}
                value={formatReading(valueOf(data?.values, param), param, {
                  on: tc('reading.running'),
                  off: tc('reading.stopped'),
                })}
              />
            ) : (
              <Statistic
                title={param.paramName}
                value={formatValue(valueOf(data?.values, param), param.precision)}
                suffix={unitLabel(param, 'C')}
              />
            )}
          </Card>
        ))}
        <Card size="small">
          <Statistic title={t('column.battery')} value={formatValue(data?.battery, 0)} suffix="%" />
        </Card>
        <Card size="small">
          <Statistic title={t('column.signal')} value={formatValue(data?.signal, 0)} suffix="dBm" />
        </Card>
      </Grid>
    </Space>
  );
}

export function InfoTab({ device }: { device: DeviceDetail }) {
  const { t } = useTranslation('device');
  return (
    <Descriptions bordered column={{ xs: 1, md: 2 }} size="small" data-testid="device-info">
      <Descriptions.Item label={t('column.name')}>{device.deviceName}</Descriptions.Item>
      <Descriptions.Item label={t('column.guid')}>{device.deviceGuid}</Descriptions.Item>
      <Descriptions.Item label={t('column.type')}>{device.typeName}</Descriptions.Item>
      <Descriptions.Item label={t('column.category')}>{t(`category.${device.category}`)}</Descriptions.Item>
      <Descriptions.Item label={t('column.status')}>
        <StatusTag status={device.status} />
      </Descriptions.Item>
      <Descriptions.Item label={t('column.timeZone')}>{device.timeZone}</Descriptions.Item>
      <Descriptions.Item label={t('column.interval')}>{Math.round(device.intervalSeconds / 60)} min</Descriptions.Item>
      <Descriptions.Item label={t('column.lastData')}>
        {formatZoned(device.lastDataTime, device.timeZone)}
      </Descriptions.Item>
      <Descriptions.Item label={t('column.serviceExpiry')}>{formatDate(device.serviceExpiredDate)}</Descriptions.Item>
      <Descriptions.Item label={t('column.dataExpiry')}>{formatDate(device.dataExpiredDate)}</Descriptions.Item>
      <Descriptions.Item label={t('column.remark')}>{device.remark || '-'}</Descriptions.Item>
    </Descriptions>
  );
}

/** The value each parameter was last set to by an applied command (commands newest first). */
export function appliedValues(commands: DeviceCommand[]): Record<string, number> {
  const values: Record<string, number> = {};
  for (const command of commands) {
    if (command.status !== 'applied') continue;
    for (const [key, value] of Object.entries(command.params))
      if (!(key in values) && typeof value === 'number') values[key] = value;
  }
  return values;
}

/** The logging interval's parameter (0x0101, in minutes): its value is the device's interval. */
export const LOGGING_INTERVAL_KEY = '0101';

/**
 * What each setting holds now, to fill the form with: the last applied value, and the logging
 * interval from the device itself (never an empty field for a value the platform knows).
 */
export function settingValues(
  device: Pick<DeviceDetail, 'intervalSeconds'>,
  commands: DeviceCommand[],
): Record<string, number> {
  const values = appliedValues(commands);
  if (device.intervalSeconds > 0) values[LOGGING_INTERVAL_KEY] = Math.round(device.intervalSeconds / 60);
  return values;
}

const COMMAND_TONES: Record<DeviceCommand['status'], string> = {
  pending: 'processing',
  applied: 'success',
  failed: 'error',
};

/** Parameter settings: writable parameters within their bounds, sent as a downlink command. */
export function ParamsTab({ device }: { device: DeviceDetail }) {
  const { t } = useTranslation('device');
  const { message } = App.useApp();
  // A shared device: only the parameters its template makes operable (spec 6 setStatus / viewStatus).
  const writable = useMemo(
    () =>
      writableParams(device.params).filter(
        (param) => devicePermissionState(device.permissions, param.paramKey) === 'enabled',
      ),
    [device.params, device.permissions],
  );
  const [form] = Form.useForm<Record<string, number | null>>();
  const [sending, setSending] = useState(false);
  const commands = useRead<DeviceCommand[]>(writable.length ? deviceCommandsKey(device.id) : null, {
    refreshInterval: 10_000,
  });
  const current = useMemo(() => settingValues(device, commands.data ?? []), [device, commands.data]);
  // The form shows each setting's current value; a field the user changed is left alone.
  useEffect(() => {
    const untouched = Object.fromEntries(Object.entries(current).filter(([key]) => !form.isFieldTouched(key)));
    form.setFieldsValue(untouched);
  }, [current, form]);

  const send = async (values: Record<string, number | null>) => {
    // Only what changed is sent: a value left as it is sends no command.
    const params = Object.fromEntries(
      Object.entries(values).filter(([key, value]) => value !== null && value !== undefined && value !== current[key]),
    ) as Record<string, number>;
    if (!Object.keys(params).length) return;
    setSending(true);
    try {
      await sendCommand(device.id, params);
      void message.success(t('params.sent'));
      form.resetFields();
      form.setFieldsValue(current);
      void commands.mutate();
    } catch {
      // The request client showed the error.
    } finally {
      setSending(false);
    }
  };

  const rule = (param: DeviceParam) => ({
    validator: (_: unknown, value: number | null | undefined) =>
      value === null || value === undefined || checkSetting(param, value) === null
        ? Promise.resolve()
        : Promise.reject(new Error(t('params.outOfRange', { min: param.paramMin, max: param.paramMax }))),
  });

  // Spec 9: every form and modal submits once per 500 ms.
  const { submit: sendOnce } = useFormSubmit(null, send);
  if (!writable.length) return <Empty description={t('params.none')} />;
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }} data-testid="device-params">
      <Form form={form} layout="vertical" onFinish={sendOnce} style={{ maxWidth: 520 }}>
        {writable.map((param) => (
          <Form.Item
            key={param.paramKey}
            name={param.paramKey}
            label={param.paramName}
            extra={
              <span data-testid={`param-current-${param.paramKey}`}>
                {t('params.range', { min: param.paramMin, max: param.paramMax })}
                {current[param.paramKey] !== undefined
                  ? ` · ${t('params.current', { value: current[param.paramKey] })}`
                  : ''}
              </span>
            }
            rules={[rule(param)]}
          >
            {/* No min/max: rule(param) refuses a value out of range; antd would clamp it unseen (issue 47). */}
            <InputNumber
              style={{ width: '100%' }}
              precision={param.precision}
              suffix={param.unit ?? undefined}
              data-testid={`param-${param.paramKey}`}
            />
          </Form.Item>
        ))}
        <Permitted route="device.list" action="edit" show>
          <Button type="primary" htmlType="submit" loading={sending} data-testid="params-send">
            {t('action.send')}
          </Button>
        </Permitted>
      </Form>
      <div>
        <Typography.Title level={5}>{t('params.history')}</Typography.Title>
        <Table<DeviceCommand>
          rowKey="id"
          size="small"
          data-testid="command-list"
          dataSource={commands.data ?? []}
          loading={commands.isLoading}
          pagination={{ pageSize: 10, hideOnSinglePage: true }}
          scroll={{ x: 'max-content' }}
          columns={[
            {
              key: 'sentAt',
              title: t('params.sentAt'),
              render: (_, command) => formatZoned(command.gmtCreate, device.timeZone),
            },
            {
              key: 'params',
              title: t('params.name'),
              render: (_, command) => commandText(command.params, device.params, t),
            },
            {
              key: 'status',
              title: t('column.status'),
              render: (_, command) => (
                <Tag color={COMMAND_TONES[command.status]}>{t(`params.commandStatus.${command.status}`)}</Tag>
              ),
            },
            {
              key: 'ackedAt',
              title: t('params.ackedAt'),
              render: (_, command) => formatZoned(command.ackedAt, device.timeZone),
            },
          ]}
        />
      </div>
    </Space>
  );
}

/** Energy consumption of the last 12 months (devices with an energy parameter). */
export function EnergyTab({ device }: { device: DeviceDetail }) {
  const { t, i18n } = useTranslation('device');
  const theme = useTheme();
  const { data } = useRead<EnergyMonth[]>(energyDataKey(device.id));
  const months = data ?? [];
  const options: ApexOptions = {
    chart: {
      id: 'energy-chart',
      toolbar: { show: false },
      foreColor: theme.colors.textSecondary,
      fontFamily: theme.fontFamily,
      ...chartLocale(i18n.language),
    },
    colors: [theme.colors.primary],
    dataLabels: { enabled: false },
    grid: { borderColor: theme.colors.border },
    xaxis: {
      categories: months.map((month) => formatDate(month.month).slice(0, 7)),
      title: { text: t('energy.month') },
    },
    yaxis: { title: { text: t('energy.kwh') }, decimalsInFloat: 1 },
  };
  return (
    <div data-testid="energy-chart">
      <ApexChart
        type="bar"
        height={340}
        options={options}
        series={[{ name: t('energy.kwh'), data: months.map((month) => month.kwh) }]}
      />
    </div>
  );
}

/** Operation log of the device. */
export function LogTab({ device }: { device: DeviceDetail }) {
  const { t } = useTranslation('device');
  const { data, isLoading } = useRead<DeviceEvent[]>(deviceEventsKey(device.id));
  return (
    <Table<DeviceEvent>
      rowKey="id"
      size="small"
      data-testid="device-log"
      loading={isLoading}
      dataSource={data ?? []}
      scroll={{ x: 'max-content' }}
      columns={[
        { key: 'time', title: t('log.time'), render: (_, event) => formatZoned(event.gmtCreate, device.timeZone) },
        {
          key: 'action',
          title: t('log.action'),
          render: (_, event) => t(`log.actions.${event.action}`, { defaultValue: event.action }),
        },
        {
          key: 'actor',
          title: t('log.actor'),
          render: (_, event) => event.actorName ?? t('log.platform'),
        },
        {
          key: 'detail',
          title: t('log.detail'),
          render: (_, event) => eventDetailText(event.action, event.detail, device.params, t, device.timeZone) || '-',
        },
      ]}
    />
  );
}
