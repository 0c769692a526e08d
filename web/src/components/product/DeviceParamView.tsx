import { Button, Input, InputNumber, Select, Space, Tag } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useMemo, useState } from 'react';
import {
  deleteDeviceParam,
  deviceParamPageKey,
  deviceTypeOptionsKey,
  insertDeviceParam,
  mergeDeviceParams,
  paramUnitOptionsKey,
  separateDeviceParams,
  updateDeviceParam,
  type Bound,
  type DeviceParam,
  type DeviceTypeOption,
  type ParamUnit,
} from '@/api/product';
import { ConfirmAction } from '@/components/ui/ConfirmAction';
import { DataList, type ListColumn } from '@/components/ui/DataList';
import { DrawerForm, type DrawerField } from '@/components/ui/DrawerForm';
import { Permitted } from '@/components/ui/Permitted';
import { usePagedQuery } from '@/hooks/usePagedQuery';
import { useRead } from '@/hooks/useRead';

const ROUTE = 'operation.product.param';
const HEX = (digits: number) => new RegExp(`^(0x)?[0-9a-fA-F]{1,${digits}}$`);
const NO_SEPARATORS = /^[^,:，：]*$/;

/** A minimum or maximum: a fixed number, or another parameter of the type. */
function BoundInput({
  value,
  onChange,
  keys,
}: {
  value?: Bound | null;
  onChange?: (next: Bound | null) => void;
  keys: { value: string; label: string }[];
}) {
  const { t } = useTranslation('product');
  const byParam = Boolean(value?.paramKey);
  return (
    <Space.Compact style={{ width: '100%' }}>
      <Select
        style={{ width: 120 }}
        value={byParam ? 'param' : 'fixed'}
        options={[
          { value: 'fixed', label: t('bound.fixed') },
          { value: 'param', label: t('bound.param') },
        ]}
        onChange={(kind) => onChange?.(kind === 'param' ? { value: null, paramKey: keys[0]?.value ?? null } : null)}
      />
      {byParam ? (
        <Select
          style={{ flex: 1 }}
          value={value?.paramKey ?? undefined}
          options={keys}
          onChange={(paramKey: string) => onChange?.({ value: null, paramKey })}
        />
      ) : (
        <InputNumber
          style={{ flex: 1 }}
          value={value?.value ?? null}
          onChange={(n) => onChange?.(n === null ? null : { value: Number(n), paramKey: null })}
        />
      )}
    </Space.Compact>
  );
}

/** /operation/device/param: the parameters of one type; merge and separate sensor parameters. */
export function DeviceParamView() {
  const { t } = useTranslation('product');
  const { data: types } = useRead<DeviceTypeOption[]>(deviceTypeOptionsKey());
  const { data: units } = useRead<ParamUnit[]>(paramUnitOptionsKey());
  const [typeId, setTypeId] = useState<number | undefined>(undefined);
  const deviceTypeId = typeId ?? types?.[0]?.id;
  const [keyword, setKeyword] = useState<string | undefined>(undefined);
  const [selected, setSelected] = useState<number[]>([]);
  const [editing, setEditing] = useState<{ param: DeviceParam | null } | null>(null);
  const { data, loading, pagination, mutate } = usePagedQuery<DeviceParam, { deviceTypeId?: number; keyword?: string }>(
    deviceTypeId ? deviceParamPageKey : null,
    { deviceTypeId, keyword },
  );
  const keyOptions = data
    .filter((p) => p.id !== editing?.param?.id)
    .map((p) => ({ value: p.paramKey, label: `${p.paramName} (${p.paramKey})` }));
  const bound = (b: Bound | null) => (b === null ? '-' : b.paramKey ? `[${b.paramKey}]` : String(b.value));
  const columns: ListColumn<DeviceParam>[] = [
    {
      key: 'paramName',
      title: t('field.paramName'),
      card: 'title',
      render: (_, p) => (
        <Space>
          {p.paramName}
          {p.mergeGroup ? <Tag color="blue">{t('merged', { group: p.mergeGroup })}</Tag> : null}
        </Space>
      ),
    },
    { key: 'paramKey', title: t('field.paramKey'), dataIndex: 'paramKey' },
    { key: 'paramType', title: t('field.paramType'), render: (_, p) => t(`paramType.${p.paramType}`) },
    { key: 'probeId', title: t('field.probeId'), render: (_, p) => p.probeId ?? '-', desktopOnly: true },
    { key: 'unit', title: t('field.unit'), render: (_, p) => p.unitName ?? '-' },
    {
      key: 'range',
      title: t('field.range'),
      render: (_, p) => `${bound(p.paramMin)} ~ ${bound(p.paramMax)}`,
      desktopOnly: true,
    },
    { key: 'rw', title: t('field.readWriteType'), render: (_, p) => t(`rw.${p.readWriteType}`), desktopOnly: true },
    { key: 'sort', title: t('field.paramSortNo'), dataIndex: 'paramSortNo', desktopOnly: true },
    {
      key: 'actions',
      title: t('actions'),
      important: true,
      render: (_, p) => (
        <Space size={0}>
          <Permitted route={ROUTE} action="edit">
            <Button type="link" size="small" onClick={() => setEditing({ param: p })}>
              {t('edit')}
            </Button>
          </Permitted>
          <ConfirmAction
            route={ROUTE}
            action="delete"
            title={t('deleteConfirm', { name: p.paramName })}
            onConfirm={() => deleteDeviceParam(p.id).then(() => mutate())}
          >
            {t('delete')}
          </ConfirmAction>
        </Space>
      ),
    },
  ];
  const options = (name: string, values: readonly string[]) =>
    values.map((value) => ({ value, label: t(`${name}.${value}`) }));
  const required = { required: true, message: t('required') };
  const fields: DrawerField[] = [
    {
      type: 'select',
      name: 'paramClassify',
      label: t('field.paramClassify'),
      options: options('classify', ['basic', 'advanced', 'alarm', 'status']),
    },
    {
      type: 'select',
      name: 'paramType',
      label: t('field.paramType'),
      options: options('paramType', ['sensor', 'setting', 'status', 'energy']),
      rules: [required],
    },
    { type: 'input', name: 'paramName', label: t('field.paramName'), maxLength: 40, rules: [required] },
    {
      type: 'input',
      name: 'paramKey',
      label: t('field.paramKey'),
      maxLength: 6,
      clearSymbols: false,
      rules: [required, { pattern: HEX(4), message: t('hex', { digits: 4 }) }],
    },
    {
      type: 'input',
      name: 'paramCode',
      label: t('field.paramCode'),
      maxLength: 8,
      clearSymbols: false,
      rules: [{ pattern: HEX(6), message: t('hex', { digits: 6 }) }],
    },
    { type: 'number', name: 'paramSortNo', label: t('field.paramSortNo'), min: 1, precision: 0, rules: [required] },
    {
      type: 'select',
      name: 'dataType',
      label: t('field.dataType'),
      options: options('dataType', ['number', 'text', 'enum', 'bit', 'boolean']),
    },
    { type: 'number', name: 'probeId', label: t('field.probeId'), min: 1, max: 255, precision: 0 },
    {
      type: 'number',
      name: 'precisionUnit',
      label: t('field.precisionUnit'),
      min: 0,
      max: 4,
      precision: 0,
      rules: [required],
    },
    {
      type: 'number',
      name: 'viewPrecisionUnit',
      label: t('field.viewPrecisionUnit'),
      min: 0,
      max: 4,
      precision: 0,
      rules: [
        ({ getFieldValue }) => ({
          validator: (_, v) =>
            v === null || v === undefined || v <= getFieldValue('precisionUnit')
              ? Promise.resolve()
              : Promise.reject(new Error(t('viewPrecisionRule'))),
        }),
      ],
    },
    { type: 'slot', name: 'paramMin', label: t('field.paramMin'), render: () => <BoundInput keys={keyOptions} /> },
    { type: 'slot', name: 'paramMax', label: t('field.paramMax'), render: () => <BoundInput keys={keyOptions} /> },
    { type: 'number', name: 'stepLength', label: t('field.stepLength'), min: 0 },
    {
      type: 'select',
      name: 'unitId',
      label: t('field.unit'),
      allowClear: true,
      options: (units ?? []).map((u) => ({ value: u.id, label: `${u.unitName} (${u.unitCode})` })),
    },
    {
      type: 'select',
      name: 'readWriteType',
      label: t('field.readWriteType'),
      options: options('rw', ['R', 'W', 'RW']),
    },
    { type: 'switch', name: 'enforceSend', label: t('field.enforceSend') },
    {
      type: 'input',
      name: 'defaultValue',
      label: t('field.defaultValue'),
      maxLength: 40,
      clearSymbols: false,
      rules: [{ pattern: NO_SEPARATORS, message: t('noSeparators') }],
    },
    {
      type: 'input',
      name: 'refParamExpression',
      label: t('field.refParamExpression'),
      maxLength: 100,
      clearSymbols: false,
    },
    { type: 'number', name: 'bitLength', label: t('field.bitLength'), min: 1, max: 64, precision: 0 },
    {
      type: 'slot',
      name: 'bitList',
      label: t('field.bitList'),
      hidden: (v) => v.dataType !== 'bit',
      render: () => <BitListInput />,
    },
    { type: 'input', name: 'regExp', label: t('field.regExp'), maxLength: 200, clearSymbols: false },
    { type: 'input', name: 'regExpTip', label: t('field.regExpTip'), maxLength: 100 },
  ];
  const current = editing?.param ?? null;
  const initial = useMemo(
    () =>
      current
        ? { ...current, bitList: current.bitList.map((b) => `${b.bit}=${b.name}`).join('\n') }
        : {
            paramClassify: 'basic',
            paramType: 'sensor',
            dataType: 'number',
            precisionUnit: 1,
            paramSortNo: 1,
            readWriteType: 'R',
            enforceSend: false,
          },
    [current],
  );
  const submit = async (v: Record<string, unknown>) => {
    const blank = (x: unknown) => (x === '' || x === undefined ? null : x);
    const bitList = String(v.bitList ?? '')
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean)
      .map((line) => {
        const [bit, ...name] = line.split('=');
        return { bit: Number(bit), name: name.join('=') };
      });
    const body = {
      deviceTypeId,
      paramClassify: v.paramClassify,
      paramType: v.paramType,
      paramName: v.paramName,
      paramKey: v.paramKey,
      paramCode: blank(v.paramCode),
      paramSortNo: v.paramSortNo,
      dataType: v.dataType,
      probeId: blank(v.probeId),
      precisionUnit: v.precisionUnit,
      viewPrecisionUnit: blank(v.viewPrecisionUnit),
      paramMin: blank(v.paramMin),
      paramMax: blank(v.paramMax),
      stepLength: blank(v.stepLength),
      unitId: blank(v.unitId),
      readWriteType: v.readWriteType,
      enforceSend: Boolean(v.enforceSend),
      defaultValue: blank(v.defaultValue),
      refParamExpression: blank(v.refParamExpression),
      bitLength: blank(v.bitLength),
      bitList,
      regExp: blank(v.regExp),
      regExpTip: blank(v.regExpTip),
    };
    if (current) await updateDeviceParam({ id: current.id, ...body });
    else await insertDeviceParam(body);
    void mutate();
  };
  return (
    <div data-testid="device-param-list">
      <DataList<DeviceParam>
        rowKey="id"
        columns={columns}
        data={data}
        loading={loading}
        pagination={pagination}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(Number)) }}
        filters={
          <Space wrap>
            <Select
              data-testid="param-type-select"
              style={{ width: 260 }}
              placeholder={t('field.deviceType')}
              value={deviceTypeId}
              options={(types ?? []).map((type) => ({
                value: type.id,
                label: `${type.typeName} (0x${type.typeCode.toUpperCase()})`,
              }))}
              onChange={(id: number) => {
                setTypeId(id);
                setSelected([]);
              }}
            />
            <Input
              allowClear
              placeholder={t('keyword')}
              onChange={(e) => setKeyword(e.target.value || undefined)}
              style={{ width: 180 }}
            />
          </Space>
        }
        actions={
          <Space wrap>
            <ConfirmAction
              route={ROUTE}
              action="edit"
              danger={false}
              title={t('mergeConfirm')}
              onConfirm={() =>
                mergeDeviceParams(selected).then(() => {
                  setSelected([]);
                  return mutate();
                })
              }
            >
              {t('merge')}
            </ConfirmAction>
            <ConfirmAction
              route={ROUTE}
              action="edit"
              danger={false}
              title={t('separateConfirm')}
              onConfirm={() =>
                separateDeviceParams(selected).then(() => {
                  setSelected([]);
                  return mutate();
                })
              }
            >
              {t('separate')}
            </ConfirmAction>
            <Permitted route={ROUTE} action="add">
              <Button
                type="primary"
                disabled={!deviceTypeId}
                onClick={() => setEditing({ param: null })}
                data-testid="device-param-add"
              >
                {t('addParam')}
              </Button>
            </Permitted>
          </Space>
        }
      />
      <DrawerForm<Record<string, unknown>>
        key={current?.id ?? 'new'}
        open={Boolean(editing)}
        title={current ? t('editParam') : t('addParam')}
        fields={fields}
        initialValues={initial}
        width={560}
        onClose={() => setEditing(null)}
        onSubmit={submit}
      />
    </div>
  );
}

/** The bit list as lines "bit=name" (names without comma or colon). */
function BitListInput({ value, onChange }: { value?: string; onChange?: (next: string) => void }) {
  const { t } = useTranslation('product');
  return (
    <Input.TextArea
      value={value}
      onChange={(e) => onChange?.(e.target.value)}
      autoSize={{ minRows: 2 }}
      placeholder={t('bitListHint')}
    />
  );
}
