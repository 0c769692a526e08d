import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { App, Button, Card, Checkbox, Form, Input, InputNumber, Radio, Select, Skeleton, Space, Switch, TimePicker, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'next-i18next/pages';
import { useMemo, useState } from 'react';
import {
  ALARM_KINDS,
  CHANNELS,
  saveSensorLimits,
  savePushSetting,
  type AlarmKind,
  type Channel,
  type PushSetting,
  type Recipient,
  type SensorLimit,
} from '@/api/alarm';
import type { DeviceDetail } from '@/api/device';
import { usePushSetting, useSensorLimits } from '@/hooks/useAlarms';
import { levelTimesRise, MAX_LEVELS } from './push';
import { useFormSubmit } from '@/hooks/useFormSubmit';

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
  const sensors = useMemo(() => device.params.filter((param) => param.paramType === 'sensor' && param.probeId !== null), [device.params]);
  const { data, mutate } = useSensorLimits(device.id);
  const [form] = Form.useForm<Record<string, LimitRow>>();
  const [saving, setSaving] = useState(false);
  const initial = useMemo(() => {
    const byProbe = Object.fromEntries((data ?? []).map((limit) => [limit.sensor, limit]));
    return Object.fromEntries(
      sensors.map((param) => {
        const limit = byProbe[param.probeId as number];
        return [String(param.probeId), { upperLimit: limit?.upperLimit ?? null, lowerLimit: limit?.lowerLimit ?? null, delayMinutes: limit?.delayMinutes ?? 0, enabled: limit?.enabled ?? true }];
      }),
    );
  }, [data, sensors]);

  const save = async (values: Record<string, LimitRow>) => {
    const limits: SensorLimit[] = Object.entries(values)
      .filter(([, row]) => row.upperLimit !== null || row.lowerLimit !== null)
      .map(([sensor, row]) => ({ sensor: Number(sensor), upperLimit: row.upperLimit, lowerLimit: row.lowerLimit, delayMinutes: row.delayMinutes ?? 0, enabled: row.enabled ?? true }));
    setSaving(true);
    try {
      await mutate(saveSensorLimits(device.id, limits), { revalidate: false });
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
              return upper === null || upper === undefined || lower === null || lower === undefined || upper > lower ? Promise.resolve() : Promise.reject(new Error(t('limits.order')));
            },
          });
          const range = { min: param.paramMin ?? undefined, max: param.paramMax ?? undefined };
          return (
            <div key={key} data-testid={`limit-row-${key}`}>
              <Typography.Text strong>{param.paramName}</Typography.Text>
              <Space wrap align="end" style={{ display: 'flex' }}>
                <Form.Item name={[key, 'upperLimit']} label={t('limits.upper')} dependencies={[[key, 'lowerLimit']]} rules={[ordered]}>
                  <InputNumber {...range} suffix={param.unit ?? undefined} data-testid={`limit-upper-${key}`} />
                </Form.Item>
                <Form.Item name={[key, 'lowerLimit']} label={t('limits.lower')}>
                  <InputNumber {...range} suffix={param.unit ?? undefined} data-testid={`limit-lower-${key}`} />
                </Form.Item>
                <Form.Item name={[key, 'delayMinutes']} label={t('limits.delay')}>
                  <InputNumber min={0} max={1440} suffix="min" />
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

interface PushForm {
  enabled: boolean;
  multiLevel: boolean;
  levels: { minutes: number; recipients: Recipient[] }[];
  channels: Channel[];
  repeatCount: number;
  intervalMinutes: number;
  delayMinutes: number;
  schedule: [Dayjs, Dayjs] | null;
  urgentKinds: AlarmKind[];
  webhookUrl: string | null;
}

const EMPTY_RECIPIENT: Recipient = { name: '', phone: '', email: '', lang: 'zh-CN' };

function toForm(setting: PushSetting): PushForm {
  return {
    enabled: setting.levels.length ? setting.enabled : true,
    multiLevel: setting.multiLevel,
    levels: setting.levels.length ? setting.levels.map((level) => ({ minutes: level.minutes, recipients: level.recipients })) : [{ minutes: 0, recipients: [EMPTY_RECIPIENT] }],
    channels: setting.channels.length ? setting.channels : ['email'],
    repeatCount: setting.repeatCount,
    intervalMinutes: setting.intervalMinutes,
    delayMinutes: setting.delayMinutes,
    schedule: setting.scheduleStart && setting.scheduleEnd ? [dayjs(setting.scheduleStart, 'HH:mm'), dayjs(setting.scheduleEnd, 'HH:mm')] : null,
    urgentKinds: setting.urgentKinds,
    webhookUrl: setting.webhookUrl,
  };
}

function fromForm(deviceId: number, values: PushForm): PushSetting {
  const levels = (values.multiLevel ? values.levels : values.levels.slice(0, 1)).map((level, index) => ({
    level: index + 1,
    minutes: level.minutes ?? 0,
    recipients: level.recipients.map((recipient) => ({
      name: recipient.name.trim(),
      phone: recipient.phone?.trim() || null,
      email: recipient.email?.trim() || null,
      lang: recipient.lang,
    })),
  }));
  return {
    deviceId,
    enabled: values.enabled,
    multiLevel: values.multiLevel,
    levels,
    channels: values.channels,
    repeatCount: values.repeatCount ?? 0,
    intervalMinutes: values.intervalMinutes ?? 10,
    delayMinutes: values.delayMinutes ?? 0,
    scheduleStart: values.schedule ? values.schedule[0].format('HH:mm') : null,
    scheduleEnd: values.schedule ? values.schedule[1].format('HH:mm') : null,
    urgentKinds: values.urgentKinds ?? [],
    webhookUrl: values.channels.includes('webhook') ? values.webhookUrl?.trim() || null : null,
  };
}

/** Push settings: single or multi-level (up to three, minutes rising), recipients, channels, repeats, delay, scheduled hours, urgent kinds, webhook. */
function PushCard({ device }: { device: DeviceDetail }) {
  const { t } = useTranslation('alarm');
  const { message } = App.useApp();
  const { data, mutate } = usePushSetting(device.id);
  const [form] = Form.useForm<PushForm>();
  const [saving, setSaving] = useState(false);
  const multiLevel = Form.useWatch('multiLevel', form);
  const channels = Form.useWatch('channels', form) ?? [];

  const save = async (values: PushForm) => {
    const setting = fromForm(device.id, values);
    if (!levelTimesRise(setting.levels.map((level) => level.minutes))) {
      void message.error(t('push.timeError'));
      throw new Error(t('push.timeError')); // a refusal: the corrected form may be sent at once
    }
    setSaving(true);
    try {
      await mutate(savePushSetting(setting), { revalidate: false });
      void message.success(t('saved'));
    } finally {
      setSaving(false);
    }
  };
  // Spec 9: every form and modal submits once per 500 ms.
  const { submit: saveOnce } = useFormSubmit(null, save);

  const recipientRules = (levelIndex: number, recipientIndex: number) => [
    ({ getFieldValue }: { getFieldValue: (name: (string | number)[]) => unknown }) => ({
      validator: () => {
        const recipient = getFieldValue(['levels', levelIndex, 'recipients', recipientIndex]) as Recipient | undefined;
        return recipient?.phone?.trim() || recipient?.email?.trim() ? Promise.resolve() : Promise.reject(new Error(t('push.phoneOrEmail')));
      },
    }),
  ];

  if (!data)
    return (
      <Card size="small" title={t('push.title')}>
        <Skeleton active />
      </Card>
    );

  return (
    <Card size="small" title={t('push.title')} data-testid="push-card">
      <Form form={form} layout="vertical" onFinish={saveOnce} initialValues={toForm(data)}>
        <Space wrap size="large">
          <Form.Item name="enabled" label={t('push.enabled')} valuePropName="checked">
            <Switch data-testid="push-enabled" />
          </Form.Item>
          <Form.Item name="multiLevel" label={t('push.mode')}>
            <Radio.Group
              data-testid="push-mode"
              options={[
                { value: false, label: t('push.single') },
                { value: true, label: t('push.multi') },
              ]}
            />
          </Form.Item>
        </Space>
        <Form.List name="levels">
          {(levels, { add, remove }) => (
            <Space orientation="vertical" style={{ width: '100%' }}>
              {levels.slice(0, multiLevel ? MAX_LEVELS : 1).map((level, levelIndex) => (
                <Card
                  key={level.key}
                  size="small"
                  type="inner"
                  title={t('push.level', { n: levelIndex + 1 })}
                  extra={multiLevel && levelIndex > 0 ? <Button type="text" icon={<DeleteOutlined />} onClick={() => remove(level.name)} aria-label={t('action.remove')} /> : null}
                  data-testid={`push-level-${levelIndex + 1}`}
                >
                  <Form.Item name={[level.name, 'minutes']} label={t('push.minutes')} rules={[{ required: true, message: t('push.minutesRequired') }]}>
                    <InputNumber min={0} max={10080} suffix="min" data-testid={`level-minutes-${levelIndex + 1}`} />
                  </Form.Item>
                  <Form.List name={[level.name, 'recipients']}>
                    {(recipients, recipientOps) => (
                      <>
                        {recipients.map((recipient, recipientIndex) => (
                          <Space key={recipient.key} wrap align="start">
                            <Form.Item name={[recipient.name, 'name']} rules={[{ required: true, whitespace: true, message: t('push.nameRequired') }, { max: 50 }]}>
                              <Input placeholder={t('push.name')} maxLength={50} data-testid={`recipient-name-${levelIndex + 1}-${recipientIndex + 1}`} />
                            </Form.Item>
                            <Form.Item name={[recipient.name, 'phone']} rules={recipientRules(levelIndex, recipientIndex)} dependencies={[['levels', levelIndex, 'recipients', recipientIndex, 'email']]}>
                              <Input placeholder={t('push.phone')} data-testid={`recipient-phone-${levelIndex + 1}-${recipientIndex + 1}`} />
                            </Form.Item>
                            <Form.Item name={[recipient.name, 'email']} rules={[{ type: 'email', message: t('push.emailInvalid') }]}>
                              <Input placeholder={t('push.email')} data-testid={`recipient-email-${levelIndex + 1}-${recipientIndex + 1}`} />
                            </Form.Item>
                            <Form.Item name={[recipient.name, 'lang']} initialValue="zh-CN">
                              <Select
                                style={{ width: 110 }}
                                options={[
                                  { value: 'zh-CN', label: '中文' },
                                  { value: 'en-US', label: 'English' },
                                ]}
                              />
                            </Form.Item>
                            {recipients.length > 1 ? <Button type="text" icon={<DeleteOutlined />} onClick={() => recipientOps.remove(recipient.name)} aria-label={t('action.remove')} /> : null}
                          </Space>
                        ))}
                        <Button type="dashed" icon={<PlusOutlined />} onClick={() => recipientOps.add(EMPTY_RECIPIENT)} data-testid={`recipient-add-${levelIndex + 1}`}>
                          {t('push.addRecipient')}
                        </Button>
                      </>
                    )}
                  </Form.List>
                </Card>
              ))}
              {multiLevel && levels.length < MAX_LEVELS ? (
                <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ minutes: null, recipients: [EMPTY_RECIPIENT] })} data-testid="level-add">
                  {t('push.addLevel')}
                </Button>
              ) : null}
            </Space>
          )}
        </Form.List>
        <Form.Item name="channels" label={t('push.channels')} rules={[{ required: true, message: t('push.channelsRequired') }]} style={{ marginTop: 16 }}>
          <Checkbox.Group options={CHANNELS.map((channel) => ({ value: channel, label: t(`channel.${channel}`) }))} data-testid="push-channels" />
        </Form.Item>
        {channels.includes('webhook') ? (
          <>
            <Form.Item name="webhookUrl" label={t('push.webhookUrl')} extra={t('push.webhookHint')} rules={[{ required: true, type: 'url', message: t('push.webhookInvalid') }]}>
              <Input placeholder="https://" data-testid="push-webhook" />
            </Form.Item>
            {/* Write-only: the api never sends the secret back; it only says whether one is set. */}
            <Form.Item
              name="webhookSecret"
              label={t('push.webhookSecret')}
              extra={data?.webhookSecretSet ? t('push.webhookSecretSet') : t('push.webhookSecretHint')}
              rules={[{ required: !data?.webhookSecretSet, min: 16, max: 128, message: t('push.webhookSecretInvalid') }]}
            >
              <Input.Password autoComplete="new-password" data-testid="push-webhook-secret" />
            </Form.Item>
          </>
        ) : null}
        <Space wrap size="large">
          <Form.Item name="repeatCount" label={t('push.repeatCount')}>
            <InputNumber min={0} max={10} />
          </Form.Item>
          <Form.Item name="intervalMinutes" label={t('push.interval')}>
            <InputNumber min={1} max={1440} suffix="min" />
          </Form.Item>
          <Form.Item name="delayMinutes" label={t('push.delay')}>
            <InputNumber min={0} max={1440} suffix="min" />
          </Form.Item>
          <Form.Item name="schedule" label={t('push.schedule')} extra={t('push.scheduleHint')}>
            <TimePicker.RangePicker format="HH:mm" order={false} />
          </Form.Item>
        </Space>
        <Form.Item name="urgentKinds" label={t('push.urgent')} extra={t('push.urgentHint')}>
          <Checkbox.Group options={ALARM_KINDS.map((kind) => ({ value: kind, label: t(`kind.${kind}`) }))} />
        </Form.Item>
        <Typography.Paragraph type="secondary">{t('push.balance', { sms: data?.smsCount ?? 0, voice: data?.voiceCount ?? 0 })}</Typography.Paragraph>
        <Button type="primary" htmlType="submit" loading={saving} data-testid="push-save">
          {t('action.save')}
        </Button>
      </Form>
    </Card>
  );
}

/** Device detail 'notification settings': the sensor limits and the push settings. */
export function PushSettingsTab({ device }: { device: DeviceDetail }) {
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }} data-testid="push-settings">
      <LimitsCard device={device} />
      <PushCard device={device} />
    </Space>
  );
}
