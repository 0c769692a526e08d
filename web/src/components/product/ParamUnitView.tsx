import { App, Button, Input, InputNumber, Space, Tag } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useMemo, useState } from 'react';
import {
  convertWithFormula,
  deleteParamUnit,
  insertParamUnit,
  paramUnitPageKey,
  updateParamUnit,
  type ParamUnit,
} from '@/api/product';
import { ConfirmAction } from '@/components/ui/ConfirmAction';
import { DataList, type ListColumn } from '@/components/ui/DataList';
import { DrawerForm, type DrawerField } from '@/components/ui/DrawerForm';
import { Permitted } from '@/components/ui/Permitted';
import { usePagedQuery } from '@/hooks/usePagedQuery';

const ROUTE = 'operation.product.unit';
const FORMULA = /^[0-9xX+\-*/^(). ]+$/;

/** Tries a formula on a value through the api's parser (the same one that converts readings). */
function FormulaTry({ formula }: { formula: () => string }) {
  const { t } = useTranslation('product');
  const { message } = App.useApp();
  const [x, setX] = useState<number>(1);
  return (
    <Space.Compact>
      <InputNumber value={x} onChange={(v) => setX(Number(v ?? 0))} addonBefore="X =" style={{ width: 160 }} />
      <Button
        onClick={() =>
          convertWithFormula(formula(), x)
            .then((answer) => void message.info(`${t('result')}: ${answer.value}`))
            .catch(() => undefined)
        }
      >
        {t('tryFormula')}
      </Button>
    </Space.Compact>
  );
}

/** /operation/device/param/unit: units with their two conversion formulas in X. */
export function ParamUnitView() {
  const { t } = useTranslation('product');
  const [filters, setFilters] = useState<{ keyword?: string; unitClassify?: string }>({});
  const [editing, setEditing] = useState<{ unit: ParamUnit | null } | null>(null);
  const { data, loading, pagination, mutate } = usePagedQuery<ParamUnit, typeof filters>(paramUnitPageKey, filters);
  const columns: ListColumn<ParamUnit>[] = [
    { key: 'unitName', title: t('field.unitName'), dataIndex: 'unitName', card: 'title' },
    { key: 'unitCode', title: t('field.unitCode'), dataIndex: 'unitCode' },
    { key: 'unitClassify', title: t('field.unitClassify'), dataIndex: 'unitClassify' },
    {
      key: 'basic',
      title: t('field.basicUnitStatus'),
      render: (_, u) => (u.basicUnitStatus ? <Tag color="green">{t('yes')}</Tag> : '-'),
    },
    { key: 'to', title: t('field.toBasicFormula'), dataIndex: 'toBasicFormula', desktopOnly: true },
    { key: 'from', title: t('field.fromBasicFormula'), dataIndex: 'fromBasicFormula', desktopOnly: true },
    { key: 'locale', title: t('field.localeCode'), dataIndex: 'localeCode', desktopOnly: true },
    {
      key: 'actions',
      title: t('actions'),
      important: true,
      render: (_, u) => (
        <Space size={0}>
          <Permitted route={ROUTE} action="edit">
            <Button type="link" size="small" onClick={() => setEditing({ unit: u })}>
              {t('edit')}
            </Button>
          </Permitted>
          <ConfirmAction
            route={ROUTE}
            action="delete"
            title={t('deleteConfirm', { name: u.unitName })}
            onConfirm={() => deleteParamUnit(u.id).then(() => mutate())}
          >
            {t('delete')}
          </ConfirmAction>
        </Space>
      ),
    },
  ];
  const required = { required: true, message: t('required') };
  const formulaRules = [required, { pattern: FORMULA, message: t('formulaRule') }];
  const fields: DrawerField[] = [
    {
      type: 'input',
      name: 'unitName',
      label: t('field.unitName'),
      maxLength: 30,
      clearSymbols: false,
      rules: [required],
    },
    {
      type: 'input',
      name: 'unitCode',
      label: t('field.unitCode'),
      maxLength: 30,
      clearSymbols: false,
      rules: [required, { pattern: /^[A-Za-z0-9_]+$/, message: t('codeRule') }],
    },
    { type: 'input', name: 'unitClassify', label: t('field.unitClassify'), maxLength: 30, rules: [required] },
    {
      type: 'select',
      name: 'localeCode',
      label: t('field.localeCode'),
      options: [
        { value: 'zh-CN', label: '中文' },
        { value: 'en-US', label: 'English' },
      ],
    },
    { type: 'switch', name: 'basicUnitStatus', label: t('field.basicUnitStatus') },
    { type: 'input', name: 'unitPic', label: t('field.unitPic'), maxLength: 255, clearSymbols: false },
    { type: 'input', name: 'alarmPic', label: t('field.alarmPic'), maxLength: 255, clearSymbols: false },
    {
      type: 'input',
      name: 'toBasicFormula',
      label: t('field.toBasicFormula'),
      maxLength: 100,
      clearSymbols: false,
      rules: formulaRules,
      extra: t('formulaHint'),
    },
    {
      type: 'slot',
      name: 'tryTo',
      render: (form) => <FormulaTry formula={() => String(form.getFieldValue('toBasicFormula') ?? '')} />,
    },
    {
      type: 'input',
      name: 'fromBasicFormula',
      label: t('field.fromBasicFormula'),
      maxLength: 100,
      clearSymbols: false,
      rules: formulaRules,
    },
    {
      type: 'slot',
      name: 'tryFrom',
      render: (form) => <FormulaTry formula={() => String(form.getFieldValue('fromBasicFormula') ?? '')} />,
    },
  ];
  const current = editing?.unit ?? null;
  const initial = useMemo<Record<string, unknown>>(
    () =>
      current
        ? { ...current }
        : { localeCode: 'en-US', basicUnitStatus: false, toBasicFormula: 'X', fromBasicFormula: 'X' },
    [current],
  );
  const submit = async (v: Record<string, unknown>) => {
    const blank = (x: unknown) => (x === '' || x === undefined ? null : x);
    const body = {
      ...Object.fromEntries(
        ['unitName', 'unitCode', 'unitClassify', 'localeCode', 'toBasicFormula', 'fromBasicFormula'].map((k) => [
          k,
          v[k],
        ]),
      ),
      basicUnitStatus: Boolean(v.basicUnitStatus),
      unitPic: blank(v.unitPic),
      alarmPic: blank(v.alarmPic),
    };
    if (current) await updateParamUnit({ id: current.id, ...body });
    else await insertParamUnit(body);
    void mutate();
  };
  return (
    <div data-testid="param-unit-list">
      <DataList<ParamUnit>
        rowKey="id"
        columns={columns}
        data={data}
        loading={loading}
        pagination={pagination}
        filters={
          <Space wrap>
            <Input
              allowClear
              placeholder={t('keyword')}
              onChange={(e) => setFilters((f) => ({ ...f, keyword: e.target.value || undefined }))}
              style={{ width: 200 }}
            />
            <Input
              allowClear
              placeholder={t('field.unitClassify')}
              onChange={(e) => setFilters((f) => ({ ...f, unitClassify: e.target.value || undefined }))}
              style={{ width: 160 }}
            />
          </Space>
        }
        actions={
          <Permitted route={ROUTE} action="add">
            <Button type="primary" onClick={() => setEditing({ unit: null })} data-testid="param-unit-add">
              {t('addUnit')}
            </Button>
          </Permitted>
        }
      />
      <DrawerForm<Record<string, unknown>>
        key={current?.id ?? 'new'}
        open={Boolean(editing)}
        title={current ? t('editUnit') : t('addUnit')}
        fields={fields}
        initialValues={initial}
        onClose={() => setEditing(null)}
        onSubmit={submit}
      />
    </div>
  );
}
