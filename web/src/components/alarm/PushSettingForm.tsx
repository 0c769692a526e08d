import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  App,
  Button,
  Card,
  Checkbox,
  Form,
  Input,
  InputNumber,
  Radio,
  Select,
  Skeleton,
  Space,
  Switch,
  TimePicker,
  Typography,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import {
  ALARM_KINDS,
  CHANNELS,
  type AlarmKind,
  type Channel,
  type PushSetting,
  type PushSettingSave,
  type Recipient,
} from '@/api/alarm';
import { useFormSubmit } from '@/hooks/useFormSubmit';
import { levelTimesRise, MAX_LEVELS } from './push';
import { RecipientFields } from './RecipientFields';
import { rangeRules } from '@/components/ui/rangeRules';

interface PushForm {
  enabled: boolean;
  multiLevel: boolean;
  levels: { minutes: number; recipients: Recipient[] }[];
  channels: Channel[];
  repeatCount: number;
  repeatUntilAck: boolean;
  intervalMinutes: number;
  delayMinutes: number;
  schedule: [Dayjs, Dayjs] | null;
  urgentKinds: AlarmKind[];
  webhookUrl: string | null;
}

/** A new recipient is told in the language of the page that adds them (they can pick the other). */
function emptyRecipient(lang: string): Recipient {
  return { kind: 'contact', name: '', phone: '', email: '', lang: lang === 'en-US' ? 'en-US' : 'zh-CN' };
}

/** The form shows what is stored: nothing saved is "off" with nothing ticked (and a hint says so). */
function toForm(setting: Omit<PushSetting, 'deviceId'>, lang: string): PushForm {
  return {
    enabled: setting.saved ? setting.enabled : false,
    multiLevel: setting.multiLevel,
    levels: setting.levels.length
      ? setting.levels.map((level) => ({ minutes: level.minutes, recipients: level.recipients }))
      : [{ minutes: 0, recipients: [emptyRecipient(lang)] }],
    channels: setting.channels,
    repeatCount: setting.repeatCount,
    repeatUntilAck: setting.repeatUntilAck ?? false,
    intervalMinutes: setting.intervalMinutes,
    delayMinutes: setting.delayMinutes,
    schedule:
      setting.scheduleStart && setting.scheduleEnd
        ? [dayjs(setting.scheduleStart, 'HH:mm'), dayjs(setting.scheduleEnd, 'HH:mm')]
        : null,
    urgentKinds: setting.urgentKinds,
    webhookUrl: setting.webhookUrl,
  };
}

/** Every level and field the form shows; `levelCount` removes the levels the user removed. */
function fromForm(values: PushForm): PushSettingSave {
  const levels = (values.multiLevel ? values.levels : values.levels.slice(0, 1)).map((level, index) => ({
    level: index + 1,
    minutes: level.minutes ?? 0,
    recipients: level.recipients.map((recipient) =>
      recipient.kind === 'onCall'
        ? { kind: 'onCall' as const, scheduleId: recipient.scheduleId ?? null, name: null, lang: recipient.lang }
        : {
            kind: 'contact' as const,
            name: (recipient.name ?? '').trim(),
            phone: recipient.phone?.trim() || null,
            email: recipient.email?.trim() || null,
            lang: recipient.lang,
          },
    ),
  }));
  return {
    enabled: values.enabled,
    multiLevel: values.multiLevel,
    levels,
    // Multi-level: the levels shown are all there are (removed ones go); single-level keeps levels 2 and 3 stored.
    levelCount: values.multiLevel ? levels.length : undefined,
    channels: values.channels,
    repeatCount: values.repeatCount ?? 0,
    repeatUntilAck: values.repeatUntilAck ?? false,
    intervalMinutes: values.intervalMinutes ?? 10,
    delayMinutes: values.delayMinutes ?? 0,
    scheduleStart: values.schedule ? values.schedule[0].format('HH:mm') : null,
    scheduleEnd: values.schedule ? values.schedule[1].format('HH:mm') : null,
    urgentKinds: values.urgentKinds ?? [],
    webhookUrl: values.channels.includes('webhook') ? values.webhookUrl?.trim() || null : null,
  };
}

interface PushSettingFormProps {
  /** The stored setting (a device's, or a storage's: its controller's or first device's). */
  data: Omit<PushSetting, 'deviceId'> | undefined;
  /** Saves the whole form (every level and field it shows) and returns the stored setting. */
  onSave: (setting: PushSettingSave) => Promise<unknown>;
  disabled?: boolean;
  testId?: string;
  /** Shown above the form (the storage tab says the setting goes to every device). */
  note?: string;
}

/** Push settings: single or multi-level (up to three, minutes rising), recipients, channels, repeats,
 * delay, scheduled hours, urgent kinds, webhook. The device's notification tab and the storage's push tab
 * both use it, so the storage tab loads and sends back every level and field. */
export function PushSettingForm({ data, onSave, disabled, testId = 'push-card', note }: PushSettingFormProps) {
  const { t, i18n } = useTranslation('alarm');
  const { message } = App.useApp();
  const [form] = Form.useForm<PushForm>();
  const [saving, setSaving] = useState(false);
  const multiLevel = Form.useWatch('multiLevel', form);
  const channels = Form.useWatch('channels', form) ?? [];

  const save = async (values: PushForm) => {
    const setting = fromForm(values);
    if (!levelTimesRise(setting.levels.map((level) => level.minutes))) {
      void message.error(t('push.timeError'));
      throw new Error(t('push.timeError')); // a refusal: the corrected form may be sent at once
    }
    setSaving(true);
    try {
      await onSave(setting);
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
        return recipient?.phone?.trim() || recipient?.email?.trim()
          ? Promise.resolve()
          : Promise.reject(new Error(t('push.phoneOrEmail')));
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
    <Card size="small" title={t('push.title')} data-testid={testId}>
      {note ? <Typography.Paragraph type="secondary">{note}</Typography.Paragraph> : null}
      {data.saved ? null : (
        <Typography.Paragraph type="secondary" data-testid="push-unsaved">
          {t('push.unsaved')}
        </Typography.Paragraph>
      )}
      <Form
        form={form}
        layout="vertical"
        onFinish={saveOnce}
        initialValues={toForm(data, i18n.language)}
        disabled={disabled}
      >
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
                  extra={
                    multiLevel && levelIndex > 0 ? (
                      <Button
                        type="text"
                        icon={<DeleteOutlined />}
                        onClick={() => remove(level.name)}
                        aria-label={t('action.remove')}
                      />
                    ) : null
                  }
                  data-testid={`push-level-${levelIndex + 1}`}
                >
                  <Form.Item
                    name={[level.name, 'minutes']}
                    label={t('push.minutes')}
                    rules={[{ required: true, message: t('push.minutesRequired') }, ...rangeRules(t, 0, 10080)]}
                  >
                    <InputNumber suffix="min" data-testid={`level-minutes-${levelIndex + 1}`} />
                  </Form.Item>
                  <Form.List name={[level.name, 'recipients']}>
                    {(recipients, recipientOps) => (
                      <>
                        {recipients.map((recipient, recipientIndex) => (
                          <Space key={recipient.key} wrap align="start">
                            <RecipientFields
                              field={recipient.name}
                              path={['levels', levelIndex, 'recipients', recipientIndex]}
                              testId={`${levelIndex + 1}-${recipientIndex + 1}`}
                              contactRules={recipientRules(levelIndex, recipientIndex)}
                            />
                            <Form.Item name={[recipient.name, 'lang']}>
                              <Select
                                style={{ width: 110 }}
                                options={[
                                  { value: 'zh-CN', label: '中文' },
                                  { value: 'en-US', label: 'English' },
                                ]}
                              />
                            </Form.Item>
                            {recipients.length > 1 ? (
                              <Button
                                type="text"
                                icon={<DeleteOutlined />}
                                onClick={() => recipientOps.remove(recipient.name)}
                                aria-label={t('action.remove')}
                              />
                            ) : null}
                          </Space>
                        ))}
                        <Button
                          type="dashed"
                          icon={<PlusOutlined />}
                          onClick={() => recipientOps.add(emptyRecipient(i18n.language))}
                          data-testid={`recipient-add-${levelIndex + 1}`}
                        >
                          {t('push.addRecipient')}
                        </Button>
                      </>
                    )}
                  </Form.List>
                </Card>
              ))}
              {multiLevel && levels.length < MAX_LEVELS ? (
                <Button
                  type="dashed"
                  icon={<PlusOutlined />}
                  onClick={() => add({ minutes: null, recipients: [emptyRecipient(i18n.language)] })}
                  data-testid="level-add"
                >
                  {t('push.addLevel')}
                </Button>
              ) : null}
            </Space>
          )}
        </Form.List>
        <Form.Item
          name="channels"
          label={t('push.channels')}
          rules={[{ required: true, message: t('push.channelsRequired') }]}
          style={{ marginTop: 16 }}
        >
          <Checkbox.Group
            options={CHANNELS.map((channel) => ({ value: channel, label: t(`channel.${channel}`) }))}
            data-testid="push-channels"
          />
        </Form.Item>
        {channels.includes('webhook') ? (
          <>
            <Form.Item
              name="webhookUrl"
              label={t('push.webhookUrl')}
              extra={t('push.webhookHint')}
              rules={[{ required: true, type: 'url', message: t('push.webhookInvalid') }]}
            >
              <Input placeholder="https://" data-testid="push-webhook" />
            </Form.Item>
            {/* Write-only: the api never sends the secret back; it only says whether one is set. */}
            <Form.Item
              name="webhookSecret"
              label={t('push.webhookSecret')}
              extra={data?.webhookSecretSet ? t('push.webhookSecretSet') : t('push.webhookSecretHint')}
              rules={[
                { required: !data?.webhookSecretSet, min: 16, max: 128, message: t('push.webhookSecretInvalid') },
              ]}
            >
              <Input.Password autoComplete="new-password" data-testid="push-webhook-secret" />
            </Form.Item>
          </>
        ) : null}
        <Space wrap size="large">
          <Form.Item name="repeatCount" label={t('push.repeatCount')} rules={rangeRules(t, 0, 10)}>
            <InputNumber />
          </Form.Item>
          <Form.Item
            name="repeatUntilAck"
            label={t('push.repeatUntilAck')}
            valuePropName="checked"
            extra={t('push.repeatUntilAckHint')}
          >
            <Switch data-testid="push-repeat-until-ack" />
          </Form.Item>
          <Form.Item name="intervalMinutes" label={t('push.interval')} rules={rangeRules(t, 1, 1440)}>
            <InputNumber suffix="min" />
          </Form.Item>
          <Form.Item name="delayMinutes" label={t('push.delay')} rules={rangeRules(t, 0, 1440)}>
            <InputNumber suffix="min" />
          </Form.Item>
          <Form.Item name="schedule" label={t('push.schedule')} extra={t('push.scheduleHint')}>
            <TimePicker.RangePicker format="HH:mm" order={false} />
          </Form.Item>
        </Space>
        <Form.Item name="urgentKinds" label={t('push.urgent')} extra={t('push.urgentHint')}>
          <Checkbox.Group options={ALARM_KINDS.map((kind) => ({ value: kind, label: t(`kind.${kind}`) }))} />
        </Form.Item>
        <Typography.Paragraph type="secondary">
          {t('push.balance', { sms: data?.smsCount ?? 0, voice: data?.voiceCount ?? 0 })}
        </Typography.Paragraph>
        <Button type="primary" htmlType="submit" loading={saving} data-testid="push-save">
          {t('action.save')}
        </Button>
      </Form>
    </Card>
  );
}
