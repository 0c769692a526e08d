import { Button, Select, Space, Tag } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useMemo, useState } from 'react';
import {
  alarmRuleListKey,
  deleteAlarmRule,
  deviceTypeOptionsKey,
  messageTemplateListKey,
  saveAlarmRule,
  saveMessageTemplate,
  type AlarmRule,
  type DeviceTypeOption,
  type MessageTemplate,
} from '@/api/product';
import { ConfirmAction } from '@/components/ui/ConfirmAction';
import { DataList, type ListColumn } from '@/components/ui/DataList';
import { DrawerForm, type DrawerField } from '@/components/ui/DrawerForm';
import { Permitted } from '@/components/ui/Permitted';
import { useRead } from '@/hooks/useRead';

const KINDS = ['upper', 'lower', 'offline', 'battery', 'fault', 'fence', 'budget'] as const;
const CHANNELS = ['sms', 'voice', 'email', 'webhook'] as const;
const PLACEHOLDER = /\{(device|guid|sensor|value|limit|time|level|alarm)\}/;

/** /operation/device/alarm and /operation/device/warning: the rules per device type and alarm kind. */
export function AlarmRuleView({ ruleClass }: { ruleClass: 'alarm' | 'warning' }) {
  const { t } = useTranslation('product');
  const route = `operation.product.${ruleClass}`;
  const { data: types } = useRead<DeviceTypeOption[]>(deviceTypeOptionsKey());
  const { data: templates } = useRead<MessageTemplate[]>(messageTemplateListKey());
  const { data, isLoading, mutate } = useRead<AlarmRule[]>(alarmRuleListKey(ruleClass));
  const [typeId, setTypeId] = useState<number | undefined>(undefined);
  const [editing, setEditing] = useState<{ rule: AlarmRule | null } | null>(null);
  const typeName = (id: number) => types?.find((type) => type.id === id)?.typeName ?? String(id);
  const rows = (data ?? []).filter((rule) => typeId === undefined || rule.deviceTypeId === typeId);
  const columns: ListColumn<AlarmRule>[] = [
    { key: 'ruleName', title: t('field.ruleName'), dataIndex: 'ruleName', card: 'title' },
    { key: 'type', title: t('field.deviceType'), render: (_, r) => typeName(r.deviceTypeId) },
    { key: 'kind', title: t('field.alarmKind'), render: (_, r) => t(`alarmKind.${r.alarmKind}`) },
    { key: 'level', title: t('field.alarmLevel'), dataIndex: 'alarmLevel' },
    {
      key: 'active',
      title: t('field.activeDefault'),
      important: true,
      render: (_, r) => (r.activeDefault ? <Tag color="green">{t('yes')}</Tag> : <Tag>{t('no')}</Tag>),
    },
    {
      key: 'template',
      title: t('field.template'),
      render: (_, r) => templates?.find((m) => m.id === r.templateId)?.msgName ?? '-',
      desktopOnly: true,
    },
    {
      key: 'actions',
      title: t('actions'),
      important: true,
      render: (_, r) => (
        <Space size={0}>
          <Permitted route={route} action="edit">
            <Button type="link" size="small" onClick={() => setEditing({ rule: r })}>
              {t('edit')}
            </Button>
          </Permitted>
          <ConfirmAction
            route={route}
            action="delete"
            title={t('deleteConfirm', { name: r.ruleName })}
            onConfirm={() => deleteAlarmRule(r.id).then(() => mutate())}
          >
            {t('delete')}
          </ConfirmAction>
        </Space>
      ),
    },
  ];
  const required = { required: true, message: t('required') };
  const fields: DrawerField[] = [
    {
      type: 'select',
      name: 'deviceTypeId',
      label: t('field.deviceType'),
      options: (types ?? []).map((type) => ({ value: type.id, label: type.typeName })),
      rules: [required],
    },
    {
      type: 'select',
      name: 'alarmKind',
      label: t('field.alarmKind'),
      options: KINDS.map((value) => ({ value, label: t(`alarmKind.${value}`) })),
      rules: [required],
    },
    { type: 'input', name: 'ruleName', label: t('field.ruleName'), maxLength: 100, rules: [required] },
    { type: 'number', name: 'alarmLevel', label: t('field.alarmLevel'), min: 1, max: 3, precision: 0 },
    { type: 'switch', name: 'activeDefault', label: t('field.activeDefault') },
    { type: 'number', name: 'threshold', label: t('field.threshold') },
    {
      type: 'select',
      name: 'templateId',
      label: t('field.template'),
      allowClear: true,
      options: (templates ?? []).map((m) => ({ value: m.id, label: `${m.msgName} (${m.type})` })),
    },
    { type: 'input', name: 'content', label: t('field.ruleContent'), maxLength: 500, textarea: true },
  ];
  const current = editing?.rule ?? null;
  const initial = useMemo<Record<string, unknown>>(
    () => (current ? { ...current } : { alarmLevel: 1, activeDefault: true, deviceTypeId: typeId }),
    [current, typeId],
  );
  return (
    <div data-testid={`${ruleClass}-rule-list`}>
      <DataList<AlarmRule>
        rowKey="id"
        columns={columns}
        data={rows}
        loading={isLoading}
        pagination={false}
        filters={
          <Select
            allowClear
            placeholder={t('field.deviceType')}
            style={{ width: 260 }}
            options={(types ?? []).map((type) => ({ value: type.id, label: type.typeName }))}
            onChange={(v?: number) => setTypeId(v)}
          />
        }
        actions={
          <Permitted route={route} action="edit">
            <Button type="primary" onClick={() => setEditing({ rule: null })} data-testid="rule-add">
              {t(`addRule.${ruleClass}`)}
            </Button>
          </Permitted>
        }
      />
      <DrawerForm<Record<string, unknown>>
        key={current?.id ?? 'new'}
        open={Boolean(editing)}
        title={t(`addRule.${ruleClass}`)}
        fields={fields}
        initialValues={initial}
        onClose={() => setEditing(null)}
        onSubmit={async (v) => {
          await saveAlarmRule({
            deviceTypeId: v.deviceTypeId,
            alarmKind: v.alarmKind,
            ruleClass,
            ruleName: v.ruleName,
            alarmLevel: v.alarmLevel ?? 1,
            activeDefault: Boolean(v.activeDefault),
            threshold: v.threshold ?? null,
            templateId: v.templateId ?? null,
            content: v.content || null,
          });
          void mutate();
        }}
      />
    </div>
  );
}

/** /operation/device/message/temlate: message templates used by the alarm notifications. */
export function MessageTemplateView() {
  const { t } = useTranslation('product');
  const route = 'operation.product.template';
  const { data, isLoading, mutate } = useRead<MessageTemplate[]>(messageTemplateListKey());
  const [editing, setEditing] = useState<{ template: MessageTemplate | null } | null>(null);
  const columns: ListColumn<MessageTemplate>[] = [
    { key: 'msgName', title: t('field.msgName'), dataIndex: 'msgName', card: 'title' },
    { key: 'type', title: t('field.channel'), render: (_, m) => t(`channel.${m.type}`) },
    { key: 'zh', title: '中文', render: (_, m) => m.content['zh-CN'] ?? '-', long: 260 },
    { key: 'en', title: 'English', render: (_, m) => m.content['en-US'] ?? '-', long: 260 },
    {
      key: 'actions',
      title: t('actions'),
      important: true,
      render: (_, m) => (
        <Permitted route={route} action="edit">
          <Button type="link" size="small" onClick={() => setEditing({ template: m })}>
            {t('edit')}
          </Button>
        </Permitted>
      ),
    },
  ];
  const placeholder = { pattern: PLACEHOLDER, message: t('placeholderRule') };
  const fields: DrawerField[] = [
    {
      type: 'input',
      name: 'msgName',
      label: t('field.msgName'),
      maxLength: 20,
      rules: [{ required: true, message: t('required') }],
    },
    {
      type: 'select',
      name: 'type',
      label: t('field.channel'),
      options: CHANNELS.map((value) => ({ value, label: t(`channel.${value}`) })),
    },
    {
      type: 'input',
      name: 'zh',
      label: '中文',
      maxLength: 1000,
      textarea: true,
      clearSymbols: false,
      rules: [placeholder],
      extra: t('placeholderHint'),
    },
    {
      type: 'input',
      name: 'en',
      label: 'English',
      maxLength: 1000,
      textarea: true,
      clearSymbols: false,
      rules: [placeholder],
    },
  ];
  const current = editing?.template ?? null;
  const initial = useMemo<Record<string, unknown>>(
    () =>
      current
        ? {
            msgName: current.msgName,
            type: current.type,
            zh: current.content['zh-CN'] ?? '',
            en: current.content['en-US'] ?? '',
          }
        : { type: 'sms' },
    [current],
  );
  return (
    <div data-testid="message-template-list">
      <DataList<MessageTemplate>
        rowKey="id"
        columns={columns}
        data={data ?? []}
        loading={isLoading}
        pagination={false}
        actions={
          <Permitted route={route} action="edit">
            <Button type="primary" onClick={() => setEditing({ template: null })} data-testid="template-add">
              {t('addTemplate')}
            </Button>
          </Permitted>
        }
      />
      <DrawerForm<Record<string, unknown>>
        key={current?.id ?? 'new'}
        open={Boolean(editing)}
        title={t('addTemplate')}
        fields={fields}
        initialValues={initial}
        onClose={() => setEditing(null)}
        onSubmit={async (v) => {
          const content = Object.fromEntries(
            [
              ['zh-CN', v.zh],
              ['en-US', v.en],
            ].filter(([, text]) => Boolean(text)),
          );
          await saveMessageTemplate({ id: current?.id ?? null, msgName: v.msgName, type: v.type, content });
          void mutate();
        }}
      />
    </div>
  );
}
