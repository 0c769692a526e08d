import { App, Button, Card, Form, InputNumber, Skeleton, Space, Switch, Typography } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useMemo, useState } from 'react';
import { useSWRConfig } from 'swr';
import { limitHistoryKey, saveSensorLimits, savePushSetting, type SensorLimit } from '@/api/alarm';
import type { DeviceDetail } from '@/api/device';
import { usePushSetting, useSensorLimits } from '@/hooks/useAlarms';
import { LimitHistoryCard } from './LimitHistoryCard';
import { PushSettingForm } from './PushSettingForm';
import { useFormSubmit } from '@/hooks/useFormSubmit';
import { rangeRules } from '@/components/ui/rangeRules';

interface LimitRow {
  upperLimit: number | null;
  lowerLimit: number | null;
  delayMinutes: number;
  enabled: boolean;
}

/** Per-sensor upper and lower limits with a delay (the owner's alarm rules for this device). */
function LimitsCard({ device }: { device: DeviceDetail }) {
  const { t } = useTranslation('alarm');
  const { message } = App.useApp();
  // Memoised, so the form's initial values change only with the stored limits or the sensors, never on
  // a mere re-render (which would wipe what the user is typing).
  const sensors = useMemo(
    () => device.params.filter((param) => param.paramType === 'sensor' && param.probeId !== null),
    [device.params],
  );
  const { data, mutate } = useSensorLimits(device.id);
  const { mutate: mutateGlobal } = useSWRConfig();
  const [form] = Form.useForm<Record<string, LimitRow>>();
  const [saving, setSaving] = useState(false);
  const initial = useMemo(() => {
    const byProbe = Object.fromEntries((data ?? []).map((limit) => [limit.sensor, limit]));
    return Object.fromEntries(
      sensors.map((param) => {
        const limit = byProbe[param.probeId as number];
        return [
          String(param.probeId),
          {
            upperLimit: limit?.upperLimit ?? null,
            lowerLimit: limit?.lowerLimit ?? null,
            delayMinutes: limit?.delayMinutes ?? 0,
            enabled: limit?.enabled ?? true,
          },
        ];
      }),
    );
  }, [data, sensors]);

  const save = async (values: Record<string, LimitRow>) => {
    const limits: SensorLimit[] = Object.entries(values)
      .filter(([, row]) => row.upperLimit !== null || row.lowerLimit !== null)
      .map(([sensor, row]) => ({
        sensor: Number(sensor),
        upperLimit: row.upperLimit,
        lowerLimit: row.lowerLimit,
        delayMinutes: row.delayMinutes ?? 0,
        enabled: row.enabled ?? true,
      }));
    setSaving(true);
    try {
      await mutate(saveSensorLimits(device.id, limits), { revalidate: false });
      void mutateGlobal(limitHistoryKey(device.id)); // the change opened a period of the history
      void message.success(t('saved'));
    } catch {
      // The request client showed the error.
    } finally {
      setSaving(false);
    }
  };
  // Spec 9: every form and modal submits once per 500 ms.
  const { submit: saveOnce } = useFormSubmit(null, save);

  // The form shows once the stored limits are in, so filling it never races their arrival.
  if (!data)
    return (
      <Card size="small" title={t('limits.title')}>
        <Skeleton active />
      </Card>
    );

  return (
    <Card size="small" title={t('limits.title')} data-testid="limits-card">
      <Form form={form} layout="vertical" initialValues={initial} onFinish={saveOnce}>
        {sensors.map((param) => {
          const key = String(param.probeId);
          const ordered = ({ getFieldValue }: { getFieldValue: (name: string[]) => unknown }) => ({
            validator: (_: unknown, upper: number | null) => {
              const lower = getFieldValue([key, 'lowerLimit']) as number | null;
              return upper === null || upper === undefined || lower === null || lower === undefined || upper > lower
                ? Promise.resolve()
                : Promise.reject(new Error(t('limits.order')));
            },
          });
          const range = rangeRules(t, param.paramMin ?? undefined, param.paramMax ?? undefined);
          return (
            <div key={key} data-testid={`limit-row-${key}`}>
              <Typography.Text strong>{param.paramName}</Typography.Text>
              <Space wrap align="end" style={{ display: 'flex' }}>
                <Form.Item
                  name={[key, 'upperLimit']}
                  label={t('limits.upper')}
                  dependencies={[[key, 'lowerLimit']]}
                  rules={[ordered, ...range]}
                >
                  <InputNumber suffix={param.unit ?? undefined} data-testid={`limit-upper-${key}`} />
                </Form.Item>
                <Form.Item name={[key, 'lowerLimit']} label={t('limits.lower')} rules={range}>
                  <InputNumber suffix={param.unit ?? undefined} data-testid={`limit-lower-${key}`} />
                </Form.Item>
                <Form.Item name={[key, 'delayMinutes']} label={t('limits.delay')} rules={rangeRules(t, 0, 1440)}>
                  <InputNumber suffix="min" />
                </Form.Item>
                <Form.Item name={[key, 'enabled']} label={t('limits.enabled')} valuePropName="checked">
                  <Switch />
                </Form.Item>
              </Space>
            </div>
          );
        })}
        <div>
          <Button type="primary" htmlType="submit" loading={saving} data-testid="limits-save">
            {t('action.save')}
          </Button>
        </div>
      </Form>
    </Card>
  );
}

/** The device's push setting, saved as one object (every level and field of the form). */
function PushCard({ device }: { device: DeviceDetail }) {
  const { data, mutate } = usePushSetting(device.id);
  return (
    <PushSettingForm
      data={data}
      onSave={(setting) => mutate(savePushSetting({ deviceId: device.id, ...setting }), { revalidate: false })}
    />
  );
}

/** Device detail 'notification settings': the sensor limits and the push settings. */
export function PushSettingsTab({ device }: { device: DeviceDetail }) {
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }} data-testid="push-settings">
      <LimitsCard device={device} />
      <LimitHistoryCard device={device} />
      <PushCard device={device} />
    </Space>
  );
}
