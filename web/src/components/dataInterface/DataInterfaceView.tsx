import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Empty, Form, Input, Select, Space, Switch, Tabs, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useEffect, useState } from 'react';
import {
  connectorsKey,
  DELIVERY_STATUSES,
  deleteConnector,
  deliveryPageKey,
  insertConnector,
  INTERVALS,
  mappingKey,
  saveMapping,
  targetsKey,
  updateConnector,
  type Connector,
  type ConnectorInput,
  type ConnectorTarget,
  type Delivery,
  type DeliveryStatus,
  type MappingItem,
} from '@/api/dataInterface';
import { formatTime } from '@/lib/format';
import { ConfirmAction } from '@/components/ui/ConfirmAction';
import { DataList } from '@/components/ui/DataList';
import { DrawerForm, type DrawerField } from '@/components/ui/DrawerForm';
import { Permitted } from '@/components/ui/Permitted';
import { useFormSubmit } from '@/hooks/useFormSubmit';
import { usePagedQuery } from '@/hooks/usePagedQuery';
import { useRead } from '@/hooks/useRead';

const ROUTE = 'dataInterface.index';
/** The log fills as the intervals pass: looked at again every 15 s while open. */
const LOG_REFRESH_MS = 15_000;
const STATUS_COLOURS: Record<DeliveryStatus, string> = {
  pending: 'default',
  sending: 'processing',
  accepted: 'success',
  refused: 'error',
  failed: 'warning',
};

type ConnectorValues = Required<Omit<ConnectorInput, 'secret'>> & { secret?: string };
interface MappingRow {
  target?: string;
  equipmentCode?: string;
}

const targetValue = (item: { targetType: string; targetId: number }) => `${item.targetType}:${item.targetId}`;

function MappingEditor({ connector, onSaved }: { connector: Connector; onSaved: () => void }) {
  const { t } = useTranslation('dataInterface');
  const [form] = Form.useForm<{ rows: MappingRow[] }>();
  const { data: targets } = useRead<ConnectorTarget[]>(targetsKey());
  const { data: mapping, mutate } = useRead<MappingItem[]>(mappingKey(connector.connectorId));
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (mapping)
      form.setFieldsValue({
        rows: mapping.map((item) => ({ target: targetValue(item), equipmentCode: item.equipmentCode })),
      });
  }, [mapping, form]);
  const { submit, submitting } = useFormSubmit<{ rows: MappingRow[] }>(
    form,
    async ({ rows }) => {
      const items = (rows ?? []).map((row) => {
        const [targetType, targetId] = String(row.target).split(':');
        return {
          targetType: targetType as MappingItem['targetType'],
          targetId: Number(targetId),
          equipmentCode: String(row.equipmentCode ?? '').trim(),
        };
      });
      await mutate(await saveMapping(connector.connectorId, items), { revalidate: false });
    },
    {
      onDone: () => {
        setSaved(true);
        onSaved();
      },
    },
  );
  const options = (targets ?? []).map((target) => ({
    value: targetValue(target),
    label: `${t(`targetType.${target.targetType}`)} · ${target.targetName}`,
  }));
  return (
    <Form
      form={form}
      layout="vertical"
      onFinish={submit}
      onValuesChange={() => setSaved(false)}
      data-testid="di-mapping"
    >
      <Typography.Paragraph type="secondary">{t('mapping.hint')}</Typography.Paragraph>
      <Form.List name="rows">
        {(rows, { add, remove }) => (
          <>
            {rows.map((row) => (
              <Space key={row.key} align="start" wrap style={{ display: 'flex', marginBottom: 4 }}>
                <Form.Item
                  name={[row.name, 'target']}
                  rules={[{ required: true, message: t('mapping.targetRequired') }]}
                  style={{ width: 280, marginBottom: 8 }}
                >
                  <Select
                    showSearch
                    optionFilterProp="label"
                    options={options}
                    placeholder={t('mapping.target')}
                    data-testid="di-mapping-target"
                  />
                </Form.Item>
                <Form.Item
                  name={[row.name, 'equipmentCode']}
                  rules={[
                    { required: true, message: t('mapping.codeRequired') },
                    { pattern: /^[A-Za-z0-9_.:-]{1,64}$/, message: t('mapping.codeInvalid') },
                  ]}
                  style={{ width: 220, marginBottom: 8 }}
                >
                  <Input placeholder={t('mapping.code')} maxLength={64} data-testid="di-mapping-code" />
                </Form.Item>
                <Button icon={<DeleteOutlined />} onClick={() => remove(row.name)} aria-label={t('mapping.remove')} />
              </Space>
            ))}
            <Form.Item style={{ marginBottom: 8 }}>
              <Permitted route={ROUTE} action="edit">
                <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({})} data-testid="di-mapping-add">
                  {t('mapping.add')}
                </Button>
              </Permitted>
            </Form.Item>
          </>
        )}
      </Form.List>
      <Space>
        <Permitted route={ROUTE} action="edit">
          <Button type="primary" htmlType="submit" loading={submitting} data-testid="di-mapping-save">
            {t('mapping.save')}
          </Button>
        </Permitted>
        {saved ? <Typography.Text type="success">{t('mapping.saved')}</Typography.Text> : null}
      </Space>
    </Form>
  );
}

function DeliveryLog({ connector }: { connector: Connector }) {
  const { t } = useTranslation('dataInterface');
  const [status, setStatus] = useState<DeliveryStatus | undefined>();
  const log = usePagedQuery<Delivery, { connectorId: number; status?: DeliveryStatus }>(deliveryPageKey, {
    connectorId: connector.connectorId,
    status,
  });
  const { mutate } = log;
  useEffect(() => {
    const timer = window.setInterval(() => void mutate(), LOG_REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [mutate]);
  return (
    <DataList<Delivery>
      rowKey="deliveryId"
      data={log.data}
      loading={log.loading}
      pagination={log.pagination}
      testId="di-log"
      rowProps={(row) => ({ 'data-status': row.status })}
      filters={
        <Select
          allowClear
          placeholder={t('log.allStatuses')}
          value={status}
          onChange={(value?: DeliveryStatus) => setStatus(value)}
          options={DELIVERY_STATUSES.map((value) => ({ value, label: t(`status.${value}`) }))}
          style={{ width: 160 }}
        />
      }
      actions={
        <Button onClick={() => void mutate()} data-testid="di-log-refresh">
          {t('log.refresh')}
        </Button>
      }
      emptyText={
        <Empty
          description={
            connector.enabled ? t('log.emptyEnabled', { minutes: connector.intervalMinutes }) : t('log.emptyDisabled')
          }
        />
      }
      columns={[
        {
          key: 'window',
          title: t('log.window'),
          important: true,
          card: 'title',
          render: (_, row) => `${formatTime(row.windowStart, 'MM-DD HH:mm')} – ${formatTime(row.windowEnd, 'HH:mm')}`,
        },
        {
          key: 'status',
          title: t('log.status'),
          important: true,
          render: (_, row) => <Tag color={STATUS_COLOURS[row.status]}>{t(`status.${row.status}`)}</Tag>,
        },
        { key: 'records', title: t('log.records'), render: (_, row) => row.recordCount ?? '-' },
        { key: 'attempts', title: t('log.attempts'), dataIndex: 'attempts' },
        {
          key: 'remote',
          title: t('log.remote'),
          long: 260,
          render: (_, row) =>
            row.remoteMessage || row.remoteCode ? [row.remoteCode, row.remoteMessage].filter(Boolean).join(' · ') : '-',
        },
        { key: 'sent', title: t('log.sentAt'), desktopOnly: true, render: (_, row) => formatTime(row.sentAt) },
        { key: 'batch', title: t('log.batchNo'), desktopOnly: true, dataIndex: 'batchNo' },
      ]}
    />
  );
}

/** /dataInterface/index: the account's provincial connectors, their equipment codes and delivery logs. */
export function DataInterfaceView() {
  const { t } = useTranslation('dataInterface');
  const { data: connectors, isLoading, mutate } = useRead<Connector[]>(connectorsKey());
  const [editing, setEditing] = useState<{ connector: Connector | null } | null>(null);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const selected = connectors?.find((c) => c.connectorId === selectedId) ?? connectors?.[0] ?? null;
  const connector = editing?.connector ?? null;
  const required = { required: true, message: t('form.required') };
  const fields: DrawerField[] = [
    { type: 'input', name: 'name', label: t('field.name'), maxLength: 50, rules: [required] },
    {
      type: 'input',
      name: 'endpoint',
      label: t('field.endpoint'),
      maxLength: 255,
      placeholder: 'https://',
      rules: [required, { pattern: /^https?:\/\/[^\s/]+/, message: t('form.endpointInvalid') }],
      extra: t('form.endpointHint'),
    },
    { type: 'input', name: 'appId', label: t('field.appId'), maxLength: 64, rules: [required] },
    {
      type: 'password',
      name: 'secret',
      label: t('field.secret'),
      maxLength: 128,
      rules: connector
        ? [{ min: 8, message: t('form.secretLength') }]
        : [required, { min: 8, message: t('form.secretLength') }],
      extra: connector?.secretSet ? t('form.secretSet') : t('form.secretHint'),
    },
    {
      type: 'select',
      name: 'intervalMinutes',
      label: t('field.interval'),
      options: INTERVALS.map((value) => ({ value, label: t('intervalValue', { count: value }) })),
    },
    { type: 'switch', name: 'enabled', label: t('field.enabled'), extra: t('form.enabledHint') },
  ];
  return (
    <div data-testid="data-interface">
      <Alert type="info" showIcon message={t('intro')} style={{ marginBottom: 16 }} />
      <DataList<Connector>
        rowKey="connectorId"
        data={connectors ?? []}
        loading={isLoading}
        pagination={false}
        testId="di-connectors"
        rowClassName={(row) => (row.connectorId === selected?.connectorId ? 'ant-table-row-selected' : '')}
        actions={
          <Permitted route={ROUTE} action="add">
            <Button type="primary" onClick={() => setEditing({ connector: null })} data-testid="di-add">
              {t('add')}
            </Button>
          </Permitted>
        }
        columns={[
          {
            key: 'name',
            title: t('field.name'),
            card: 'title',
            render: (_, row) => <a onClick={() => setSelectedId(row.connectorId)}>{row.name}</a>,
          },
          { key: 'endpoint', title: t('field.endpoint'), long: 260, dataIndex: 'endpoint' },
          { key: 'appId', title: t('field.appId'), dataIndex: 'appId', desktopOnly: true },
          {
            key: 'interval',
            title: t('field.interval'),
            render: (_, row) => t('intervalValue', { count: row.intervalMinutes }),
          },
          { key: 'mapped', title: t('field.mapped'), dataIndex: 'mappingCount' },
          {
            key: 'enabled',
            title: t('field.enabled'),
            important: true,
            render: (_, row) => (
              <Permitted route={ROUTE} action="edit" show>
                <Tooltip title={row.enabled ? t('form.disableHint') : t('form.enabledHint')}>
                  <Switch
                    checked={row.enabled}
                    onChange={(enabled) => void updateConnector(row.connectorId, { enabled }).then(() => mutate())}
                    data-testid="di-enabled"
                  />
                </Tooltip>
              </Permitted>
            ),
          },
          {
            key: 'actions',
            title: t('actions'),
            important: true,
            render: (_, row) => (
              <Space size={0}>
                <Button type="link" size="small" onClick={() => setSelectedId(row.connectorId)}>
                  {t('open')}
                </Button>
                <Permitted route={ROUTE} action="edit">
                  <Button type="link" size="small" onClick={() => setEditing({ connector: row })}>
                    {t('edit')}
                  </Button>
                </Permitted>
                <ConfirmAction
                  route={ROUTE}
                  action="delete"
                  title={t('deleteConfirm', { name: row.name })}
                  onConfirm={() => deleteConnector(row.connectorId).then(() => mutate())}
                >
                  {t('delete')}
                </ConfirmAction>
              </Space>
            ),
          },
        ]}
      />
      {selected ? (
        <Card title={selected.name} size="small" style={{ marginTop: 16 }} data-testid="di-selected">
          <Tabs
            items={[
              {
                key: 'mapping',
                label: t('tab.mapping'),
                children: (
                  <MappingEditor key={selected.connectorId} connector={selected} onSaved={() => void mutate()} />
                ),
              },
              {
                key: 'log',
                label: t('tab.log'),
                children: <DeliveryLog key={selected.connectorId} connector={selected} />,
              },
            ]}
          />
        </Card>
      ) : null}
      <DrawerForm<ConnectorValues>
        key={connector?.connectorId ?? 'new'}
        open={Boolean(editing)}
        title={connector ? t('edit') : t('add')}
        fields={fields}
        initialValues={
          connector
            ? {
                name: connector.name,
                endpoint: connector.endpoint,
                appId: connector.appId,
                intervalMinutes: connector.intervalMinutes,
                enabled: connector.enabled,
              }
            : { intervalMinutes: 5, enabled: true }
        }
        onClose={() => setEditing(null)}
        onSubmit={async (values) => {
          const input: ConnectorInput = { ...values, secret: values.secret || undefined };
          const saved = connector ? await updateConnector(connector.connectorId, input) : await insertConnector(input);
          await mutate();
          setSelectedId(saved.connectorId);
        }}
      />
    </div>
  );
}
