import { Button, Form, Input, Select, Space, Switch, Tag } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useMemo, useState } from 'react';
import {
  deleteDeviceType,
  deviceTypePageKey,
  seriesOptionsKey,
  type DeviceSeries,
  insertDeviceType,
  releaseDeviceType,
  testDeviceType,
  updateDeviceType,
  type DeviceType,
  type TypeStatus,
} from '@/api/product';
import { ConfirmAction } from '@/components/ui/ConfirmAction';
import { DataList, type ListColumn } from '@/components/ui/DataList';
import { DrawerForm, type DrawerField } from '@/components/ui/DrawerForm';
import { Permitted } from '@/components/ui/Permitted';
import { usePagedQuery } from '@/hooks/usePagedQuery';
import { useRead } from '@/hooks/useRead';

const ROUTE = 'operation.product.type';
const STATUS_COLOR: Record<TypeStatus, string> = { to_test: 'default', testing: 'orange', published: 'green' };
const FLAGS = [
  'supportsEnergy',
  'supportsPhone',
  'supportsGps',
  'autoPush',
  'batchParam',
  'onlineUpgrade',
  'supportsWaybill',
] as const;

/** The model codes of a type, edited in the type's drawer (name 2-50, code hex up to four digits). */
function ModelCodes() {
  const { t } = useTranslation('product');
  return (
    <Form.List name="models">
      {(rows, { add, remove }) => (
        <div data-testid="model-codes">
          {rows.map((row) => (
            <Space key={row.key} align="start" wrap style={{ marginBottom: 4 }}>
              <Form.Item
                name={[row.name, 'modelName']}
                rules={[{ required: true, min: 2, max: 50, message: t('len', { min: 2, max: 50 }) }]}
              >
                <Input placeholder={t('field.modelName')} maxLength={50} style={{ width: 150 }} />
              </Form.Item>
              <Form.Item
                name={[row.name, 'modelCode']}
                rules={[{ required: true, pattern: /^(0x)?[0-9a-fA-F]{1,4}$/, message: t('hex', { digits: 4 }) }]}
              >
                <Input placeholder={t('field.modelCode')} maxLength={6} style={{ width: 90 }} />
              </Form.Item>
              <Form.Item name={[row.name, 'temperatureRange']}>
                <Input placeholder={t('field.temperatureRange')} maxLength={50} style={{ width: 110 }} />
              </Form.Item>
              <Form.Item name={[row.name, 'voltage']}>
                <Input placeholder={t('field.voltage')} maxLength={30} style={{ width: 80 }} />
              </Form.Item>
              <Form.Item name={[row.name, 'modelFlag']} valuePropName="checked">
                <Switch checkedChildren={t('enabled')} unCheckedChildren={t('disabled')} />
              </Form.Item>
              <Button type="link" danger onClick={() => remove(row.name)}>
                {t('delete')}
              </Button>
            </Space>
          ))}
          <Button
            type="dashed"
            onClick={() => add({ modelName: '', modelCode: '', modelFlag: true })}
            data-testid="model-code-add"
          >
            {t('addModel')}
          </Button>
        </div>
      )}
    </Form.List>
  );
}

const blankToNull = (value: unknown) => (value === '' || value === undefined ? null : value);

/** /operation/device/type: device types with model codes; Test and Release move the status on. */
export function DeviceTypeView() {
  const { t } = useTranslation('product');
  const [filters, setFilters] = useState<{ keyword?: string; typeStatus?: string }>({});
  const [editing, setEditing] = useState<{ type: DeviceType | null } | null>(null);
  const { data, loading, pagination, mutate } = usePagedQuery<DeviceType, typeof filters>(deviceTypePageKey, filters);
  const statusOptions = (['to_test', 'testing', 'published'] as const).map((value) => ({
    value,
    label: t(`status.${value}`),
  }));
  const columns: ListColumn<DeviceType>[] = [
    { key: 'typeName', title: t('field.typeName'), dataIndex: 'typeName', card: 'title' },
    { key: 'typeCode', title: t('field.typeCode'), render: (_, row) => `0x${row.typeCode.toUpperCase()}` },
    { key: 'typeSeries', title: t('field.typeSeries'), dataIndex: 'typeSeries', desktopOnly: true },
    { key: 'netType', title: t('field.netType'), dataIndex: 'netType', desktopOnly: true },
    { key: 'addType', title: t('field.addType'), render: (_, row) => t(`addType.${row.addType}`), desktopOnly: true },
    {
      key: 'models',
      title: t('field.models'),
      render: (_, row) => row.models.map((m) => `${m.modelName} (${m.modelCode})`).join(', ') || '-',
      long: 220,
    },
    {
      key: 'status',
      title: t('field.typeStatus'),
      important: true,
      render: (_, row) => <Tag color={STATUS_COLOR[row.typeStatus]}>{t(`status.${row.typeStatus}`)}</Tag>,
    },
    {
      key: 'actions',
      title: t('actions'),
      important: true,
      render: (_, row) => (
        <Space size={0} wrap>
          <Permitted route={ROUTE} action="edit">
            <Button type="link" size="small" onClick={() => setEditing({ type: row })}>
              {t('edit')}
            </Button>
          </Permitted>
          {row.typeStatus === 'to_test' ? (
            <ConfirmAction
              route={ROUTE}
              action="edit"
              danger={false}
              title={t('testConfirm')}
              onConfirm={() => testDeviceType(row.id).then(() => mutate())}
              testId={`type-test-${row.id}`}
            >
              {t('test')}
            </ConfirmAction>
          ) : null}
          {row.typeStatus === 'testing' ? (
            <ConfirmAction
              route={ROUTE}
              action="edit"
              danger={false}
              title={t('releaseConfirm')}
              onConfirm={() => releaseDeviceType(row.id).then(() => mutate())}
              testId={`type-release-${row.id}`}
            >
              {t('release')}
            </ConfirmAction>
          ) : null}
          <ConfirmAction
            route={ROUTE}
            action="delete"
            title={t('deleteConfirm', { name: row.typeName })}
            onConfirm={() => deleteDeviceType(row.id).then(() => mutate())}
          >
            {t('delete')}
          </ConfirmAction>
        </Space>
      ),
    },
  ];
  const { data: series } = useRead<DeviceSeries[]>(seriesOptionsKey());
  const seriesOptions = (series ?? []).map((s) => ({ value: s.seriesName, label: s.seriesName }));
  const options = (name: string, values: readonly string[]) =>
    values.map((value) => ({ value, label: t(`${name}.${value}`) }));
  const fields: DrawerField[] = [
    {
      type: 'input',
      name: 'typeName',
      label: t('field.typeName'),
      maxLength: 50,
      rules: [{ required: true, min: 2, message: t('len', { min: 2, max: 50 }) }],
    },
    {
      type: 'input',
      name: 'typeCode',
      label: t('field.typeCode'),
      maxLength: 8,
      clearSymbols: false,
      extra: t('typeCodeHint'),
      rules: [{ required: true, pattern: /^(0x)?[0-9a-fA-F]{4,6}$/, message: t('hex', { digits: 6 }) }],
    },
    {
      type: 'select',
      name: 'typeSeries',
      label: t('field.typeSeries'),
      options: seriesOptions,
      search: true,
      extra: t('seriesHint'),
      rules: [{ required: true, message: t('required') }],
    },
    {
      type: 'select',
      name: 'category',
      label: t('field.category'),
      options: options('category', ['cold_chain', 'cold_storage', 'freezer']),
    },
    {
      type: 'select',
      name: 'mapMode',
      label: t('field.mapMode'),
      options: options('mapMode', ['none', 'gps', 'lbs', 'gps_lbs']),
    },
    {
      type: 'select',
      name: 'connectType',
      label: t('field.connectType'),
      options: options('connectType', ['mqtt', 'http', 'tcp']),
    },
    {
      type: 'input',
      name: 'netType',
      label: t('field.netType'),
      maxLength: 20,
      rules: [{ required: true, message: t('required') }],
    },
    { type: 'input', name: 'wifiType', label: t('field.wifiType'), maxLength: 20 },
    { type: 'input', name: 'nodeType', label: t('field.nodeType'), maxLength: 20 },
    ...FLAGS.map((name): DrawerField => ({ type: 'switch', name, label: t(`field.${name}`) })),
    {
      type: 'select',
      name: 'cfMode',
      label: t('field.cfMode'),
      options: options('cfMode', ['none', 'device', 'platform']),
    },
    { type: 'input', name: 'manualUrl', label: t('field.manualUrl'), maxLength: 255, clearSymbols: false },
    {
      type: 'radio',
      name: 'addType',
      label: t('field.addType'),
      options: [0, 1, 2].map((value) => ({ value, label: t(`addType.${value}`) })),
    },
    {
      type: 'slot',
      name: 'typeScenes',
      label: t('field.typeScenes'),
      render: () => <Select mode="tags" maxCount={20} tokenSeparators={[',']} />,
    },
    // A number field: the drawer form refuses a value out of range instead of clamping it (issue 47).
    { type: 'number', name: 'defaultIntervalS', label: t('field.defaultIntervalS'), min: 10, max: 86400 },
    { type: 'input', name: 'explanation', label: t('field.explanation'), maxLength: 200, textarea: true },
    { type: 'title', name: 'modelsTitle', label: t('field.models') },
    { type: 'slot', name: 'models', render: () => <ModelCodes /> },
  ];
  const current = editing?.type ?? null;
  const initial = useMemo(
    () =>
      current
        ? { ...current, models: current.models.map((m) => ({ ...m })) }
        : {
            category: 'cold_chain',
            mapMode: 'none',
            connectType: 'mqtt',
            cfMode: 'none',
            addType: 0,
            typeScenes: [],
            defaultIntervalS: 300,
            models: [],
            ...Object.fromEntries(FLAGS.map((f) => [f, false])),
          },
    [current],
  );
  const submit = async (values: Record<string, unknown>) => {
    const models = ((values.models as Record<string, unknown>[] | undefined) ?? []).map((m) => ({
      modelName: m.modelName,
      modelCode: m.modelCode,
      modelType: blankToNull(m.modelType),
      modelVolume: blankToNull(m.modelVolume),
      temperatureRange: blankToNull(m.temperatureRange),
      voltage: blankToNull(m.voltage),
      refrigerationPower: blankToNull(m.refrigerationPower),
      defrostPower: blankToNull(m.defrostPower),
      modelFlag: m.modelFlag !== false,
    }));
    const body = {
      ...Object.fromEntries(
        [
          'typeName',
          'typeCode',
          'typeSeries',
          'category',
          'mapMode',
          'connectType',
          'netType',
          'cfMode',
          'addType',
          'defaultIntervalS',
        ].map((k) => [k, values[k]]),
      ),
      ...Object.fromEntries(
        ['wifiType', 'nodeType', 'manualUrl', 'explanation'].map((k) => [k, blankToNull(values[k])]),
      ),
      ...Object.fromEntries(FLAGS.map((k) => [k, Boolean(values[k])])),
      typeScenes: values.typeScenes ?? [],
      models,
    };
    if (current) await updateDeviceType({ id: current.id, ...body });
    else await insertDeviceType(body);
    void mutate();
  };
  return (
    <div data-testid="device-type-list">
      <DataList<DeviceType>
        rowKey="id"
        columns={columns}
        data={data}
        loading={loading}
        pagination={pagination}
        rowProps={(row) => ({ 'data-type-code': row.typeCode })}
        filters={
          <Space wrap>
            <Input
              allowClear
              placeholder={t('keyword')}
              onChange={(e) => setFilters((f) => ({ ...f, keyword: e.target.value || undefined }))}
              style={{ width: 200 }}
            />
            <Select
              allowClear
              placeholder={t('field.typeStatus')}
              options={statusOptions}
              onChange={(v?: string) => setFilters((f) => ({ ...f, typeStatus: v }))}
              style={{ width: 150 }}
            />
          </Space>
        }
        actions={
          <Permitted route={ROUTE} action="add">
            <Button type="primary" onClick={() => setEditing({ type: null })} data-testid="device-type-add">
              {t('newType')}
            </Button>
          </Permitted>
        }
      />
      <DrawerForm<Record<string, unknown>>
        key={current?.id ?? 'new'}
        open={Boolean(editing)}
        title={current ? t('editType') : t('newType')}
        fields={fields}
        initialValues={initial}
        width={720}
        onClose={() => setEditing(null)}
        onSubmit={submit}
      />
    </div>
  );
}
