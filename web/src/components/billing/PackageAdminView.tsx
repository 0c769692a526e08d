/**
 * /service/package: the operators' service packages (levels with service items, durations with
 * service fee, data fee and discount, the free service), SMS and voice packages (at most five each).
 * Fees are typed in units with two decimals and sent in cents.
 */
import { Button, Card, Divider, Form, Input, InputNumber, Modal, Popconfirm, Select, Space, Switch, Tag } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import {
  deletePack,
  deletePackage,
  deviceTypesKey,
  insertPack,
  insertPackage,
  money,
  packagePageKey,
  packsKey,
  updatePackage,
  type MessagePack,
  type PackageInput,
  type ServicePackage,
} from '@/api/billing';
import { formatTime } from '@/lib/format';
import { DataList, type ListColumn } from '@/components/ui/DataList';
import { Permitted } from '@/components/ui/Permitted';
import { useFormSubmit } from '@/hooks/useFormSubmit';
import { usePagedQuery } from '@/hooks/usePagedQuery';
import { useRead } from '@/hooks/useRead';
import { ActivitiesCard, MerchantsCard } from './CampaignCards';
import { rangeRules } from '@/components/ui/rangeRules';

const ROUTE = 'operation.order.package';
const cents = (units: number | null | undefined) => Math.round((units ?? 0) * 100);
const units = (value: number) => value / 100;

type FormRow = { months: number; serviceFee: number; dataFee: number; discount: number; recommended?: boolean };
type FormLevel = {
  levelId?: number | null;
  levelName: string;
  serviceItems?: string;
  prices: FormRow[];
  freeDays?: number | null;
  freeSms?: number;
  freeVoice?: number;
};
type FormValues = Omit<PackageInput, 'levels'> & { levels: FormLevel[] };

function toForm(p: ServicePackage | null): FormValues {
  if (!p) {
    return {
      packageName: '',
      packageCode: '',
      status: true,
      currency: 'CNY',
      deviceTypeIds: [],
      levels: [{ levelName: '', prices: [{ months: 12, serviceFee: 0, dataFee: 0, discount: 0 }] }],
    };
  }
  return {
    ...p,
    levels: p.levels.map((l) => ({
      levelId: l.levelId,
      levelName: l.levelName,
      serviceItems: l.serviceItems.join(', '),
      prices: l.prices.map((r) => ({ ...r, serviceFee: units(r.serviceFee), dataFee: units(r.dataFee) })),
      freeDays: l.free?.timeLength ?? null,
      freeSms: l.free?.smsCount ?? 0,
      freeVoice: l.free?.voiceCount ?? 0,
    })),
  };
}

function fromForm(v: FormValues): PackageInput {
  return {
    packageName: v.packageName,
    packageCode: v.packageCode,
    status: v.status,
    currency: v.currency,
    deviceTypeIds: v.deviceTypeIds ?? [],
    levels: v.levels.map((l) => ({
      levelId: l.levelId ?? null,
      levelName: l.levelName,
      serviceItems: (l.serviceItems ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
      prices: l.prices.map((r) => ({
        months: r.months,
        serviceFee: cents(r.serviceFee),
        dataFee: cents(r.dataFee),
        discount: r.discount,
        recommended: Boolean(r.recommended),
      })),
      free: l.freeDays ? { timeLength: l.freeDays, smsCount: l.freeSms ?? 0, voiceCount: l.freeVoice ?? 0 } : null,
    })),
  };
}

function PackageModal({
  editing,
  onClose,
  onSaved,
}: {
  editing: { pkg: ServicePackage | null } | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation('billing');
  const [form] = Form.useForm<FormValues>();
  const { data: types } = useRead<{ id: number; typeName: string; typeCode: string }[]>(
    editing ? deviceTypesKey() : null,
  );
  const { submit, submitting } = useFormSubmit(form, async (v: FormValues) => {
    const input = fromForm(v);
    if (editing?.pkg) await updatePackage({ ...input, id: editing.pkg.id });
    else await insertPackage(input);
    onSaved();
    onClose();
  });
  // The error says what is wrong; the field's label already names it.
  const required = [{ required: true, message: t('required') }];
  return (
    <Modal
      open={Boolean(editing)}
      width={860}
      title={t(editing?.pkg ? 'package.edit' : 'package.add')}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={submitting}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={submit} initialValues={toForm(editing?.pkg ?? null)}>
        <Space wrap>
          <Form.Item
            name="packageName"
            label={t('package.name')}
            rules={[...required, { max: 20, message: t('max', { max: 20 }) }]}
          >
            <Input maxLength={20} />
          </Form.Item>
          <Form.Item
            name="packageCode"
            label={t('package.code')}
            rules={[{ required: true, pattern: /^\d{8}$/, message: t('package.codeRule') }]}
          >
            <Input maxLength={8} />
          </Form.Item>
          <Form.Item name="currency" label={t('package.currency')}>
            <Select
              style={{ width: 100 }}
              options={['CNY', 'USD', 'EUR', 'HKD'].map((c) => ({ value: c, label: c }))}
            />
          </Form.Item>
          <Form.Item name="status" label={t('package.status')} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Space>
        <Form.Item name="deviceTypeIds" label={t('package.deviceTypes')}>
          <Select
            mode="multiple"
            options={(types ?? []).map((d) => ({ value: d.id, label: `${d.typeName} (0x${d.typeCode})` }))}
          />
        </Form.Item>
        <Form.List name="levels">
          {(levels, { add, remove }) => (
            <>
              {levels.map((level) => (
                <Card
                  key={level.key}
                  size="small"
                  style={{ marginBottom: 12 }}
                  extra={
                    levels.length > 1 ? (
                      <Button type="link" danger onClick={() => remove(level.name)}>
                        {t('package.removeLevel')}
                      </Button>
                    ) : null
                  }
                >
                  <Space wrap>
                    <Form.Item
                      name={[level.name, 'levelName']}
                      label={t('field.level')}
                      rules={[...required, { max: 20, message: t('max', { max: 20 }) }]}
                    >
                      <Input maxLength={20} />
                    </Form.Item>
                    <Form.Item name={[level.name, 'serviceItems']} label={t('package.items')}>
                      <Input style={{ width: 300 }} />
                    </Form.Item>
                    <Form.Item
                      name={[level.name, 'freeDays']}
                      label={t('package.freeDays')}
                      rules={rangeRules(t, 1, 3650)}
                    >
                      <InputNumber precision={0} />
                    </Form.Item>
                    <Form.Item name={[level.name, 'freeSms']} label={t('package.freeSms')} rules={rangeRules(t, 0)}>
                      <InputNumber precision={0} />
                    </Form.Item>
                    <Form.Item name={[level.name, 'freeVoice']} label={t('package.freeVoice')} rules={rangeRules(t, 0)}>
                      <InputNumber precision={0} />
                    </Form.Item>
                  </Space>
                  <Form.List
                    name={[level.name, 'prices']}
                    rules={[
                      {
                        validator: async (_, rows) => {
                          if (!rows?.length) throw new Error(t('package.oneRow'));
                        },
                      },
                    ]}
                  >
                    {(rows, { add: addRow, remove: removeRow }, { errors }) => (
                      <>
                        {rows.map((row) => (
                          <Space key={row.key} wrap align="baseline">
                            <Form.Item
                              name={[row.name, 'months']}
                              label={t('field.months')}
                              rules={[...required, ...rangeRules(t, 1, 120)]}
                            >
                              <InputNumber precision={0} />
                            </Form.Item>
                            <Form.Item
                              name={[row.name, 'serviceFee']}
                              label={t('package.serviceFee')}
                              rules={[...required, ...rangeRules(t, 0)]}
                            >
                              <InputNumber precision={2} />
                            </Form.Item>
                            <Form.Item
                              name={[row.name, 'dataFee']}
                              label={t('package.dataFee')}
                              rules={[...required, ...rangeRules(t, 0)]}
                            >
                              <InputNumber precision={2} />
                            </Form.Item>
                            <Form.Item
                              name={[row.name, 'discount']}
                              label={t('package.discount')}
                              rules={[...required, ...rangeRules(t, 0, 100)]}
                            >
                              <InputNumber precision={0} />
                            </Form.Item>
                            <Form.Item
                              name={[row.name, 'recommended']}
                              label={t('package.recommended')}
                              valuePropName="checked"
                            >
                              <Switch size="small" />
                            </Form.Item>
                            {rows.length > 1 ? (
                              <Button type="link" danger onClick={() => removeRow(row.name)}>
                                {t('package.removeRow')}
                              </Button>
                            ) : null}
                          </Space>
                        ))}
                        <Form.ErrorList errors={errors} />
                        <Button
                          type="dashed"
                          onClick={() => addRow({ months: 12, serviceFee: 0, dataFee: 0, discount: 0 })}
                        >
                          {t('package.addRow')}
                        </Button>
                      </>
                    )}
                  </Form.List>
                </Card>
              ))}
              <Button
                type="dashed"
                block
                onClick={() => add({ levelName: '', prices: [{ months: 12, serviceFee: 0, dataFee: 0, discount: 0 }] })}
              >
                {t('package.addLevel')}
              </Button>
            </>
          )}
        </Form.List>
      </Form>
    </Modal>
  );
}

function PacksCard() {
  const { t } = useTranslation('billing');
  const { data: packs, mutate } = useRead<MessagePack[]>(packsKey());
  const [form] = Form.useForm<{
    kind: 'sms' | 'voice';
    name: string;
    count: number;
    fee: number;
    discount: number;
    currency: string;
  }>();
  const { submit, submitting } = useFormSubmit(
    form,
    async (v: {
      kind: 'sms' | 'voice';
      name: string;
      count: number;
      fee: number;
      discount: number;
      currency: string;
    }) => {
      await insertPack({ ...v, fee: cents(v.fee) });
      form.resetFields();
      void mutate();
    },
  );
  const columns: ListColumn<MessagePack>[] = [
    { key: 'name', title: t('packs.name'), dataIndex: 'name', card: 'title' },
    { key: 'kind', title: t('packs.kind'), render: (_, p) => t(`packs.${p.kind}`) },
    { key: 'count', title: t('packs.count'), dataIndex: 'count' },
    { key: 'fee', title: t('packs.fee'), render: (_, p) => money(p.fee, p.currency), important: true },
    { key: 'discount', title: t('package.discount'), render: (_, p) => `${p.discount}%` },
    {
      key: 'actions',
      title: '',
      important: true,
      render: (_, p) => (
        <Permitted route={ROUTE} action="delete">
          <Popconfirm title={t('confirmDelete')} onConfirm={() => deletePack(p.id).then(() => mutate())}>
            <Button type="link" danger size="small">
              {t('delete')}
            </Button>
          </Popconfirm>
        </Permitted>
      ),
    },
  ];
  return (
    <Card title={t('packs.title')} style={{ marginTop: 16 }}>
      <Form
        form={form}
        layout="inline"
        onFinish={submit}
        initialValues={{ kind: 'sms', discount: 0, currency: 'CNY' }}
        style={{ marginBottom: 12 }}
      >
        <Form.Item name="kind">
          <Select
            style={{ width: 100 }}
            options={(['sms', 'voice'] as const).map((k) => ({ value: k, label: t(`packs.${k}`) }))}
          />
        </Form.Item>
        <Form.Item name="name" rules={[{ required: true, max: 20, message: t('max', { max: 20 }) }]}>
          <Input placeholder={t('packs.name')} maxLength={20} />
        </Form.Item>
        <Form.Item name="count" rules={[{ required: true, message: t('required') }, ...rangeRules(t, 1)]}>
          <InputNumber placeholder={t('packs.count')} precision={0} />
        </Form.Item>
        <Form.Item name="fee" rules={[{ required: true, message: t('required') }, ...rangeRules(t, 0)]}>
          <InputNumber placeholder={t('packs.fee')} precision={2} />
        </Form.Item>
        <Form.Item name="discount" rules={rangeRules(t, 0, 100)}>
          <InputNumber precision={0} addonAfter="%" />
        </Form.Item>
        <Permitted route={ROUTE} action="add">
          <Button htmlType="submit" loading={submitting}>
            {t('packs.add')}
          </Button>
        </Permitted>
      </Form>
      <DataList<MessagePack> rowKey="id" columns={columns} data={packs ?? []} pagination={false} />
    </Card>
  );
}

export function PackageAdminView() {
  const { t } = useTranslation('billing');
  const [name, setName] = useState('');
  const [editing, setEditing] = useState<{ pkg: ServicePackage | null } | null>(null);
  const { data, loading, pagination, mutate } = usePagedQuery<ServicePackage, { packageName?: string }>(
    packagePageKey,
    { packageName: name || undefined },
  );
  const columns: ListColumn<ServicePackage>[] = [
    { key: 'name', title: t('package.name'), dataIndex: 'packageName', important: true, card: 'title' },
    { key: 'code', title: t('package.code'), dataIndex: 'packageCode' },
    {
      key: 'levels',
      title: t('field.level'),
      render: (_, p) => p.levels.map((l) => <Tag key={l.levelId}>{l.levelName}</Tag>),
    },
    {
      key: 'prices',
      title: t('package.prices'),
      long: 320,
      render: (_, p) =>
        p.levels
          .flatMap((l) =>
            l.prices.map(
              (r) => `${t('buy.months', { count: r.months })} ${money(r.serviceFee + r.dataFee, p.currency)}`,
            ),
          )
          .join(' · '),
    },
    {
      key: 'status',
      title: t('package.status'),
      render: (_, p) => <Tag color={p.status ? 'green' : 'default'}>{t(p.status ? 'package.on' : 'package.off')}</Tag>,
      important: true,
    },
    { key: 'created', title: t('field.gmtCreate'), render: (_, p) => formatTime(p.gmtCreate), desktopOnly: true },
    {
      key: 'actions',
      title: '',
      important: true,
      render: (_, p) => (
        <Space>
          <Permitted route={ROUTE} action="edit">
            <Button type="link" size="small" onClick={() => setEditing({ pkg: p })}>
              {t('edit')}
            </Button>
          </Permitted>
          <Permitted route={ROUTE} action="delete">
            <Popconfirm title={t('confirmDelete')} onConfirm={() => deletePackage(p.id).then(() => mutate())}>
              <Button type="link" size="small" danger>
                {t('delete')}
              </Button>
            </Popconfirm>
          </Permitted>
        </Space>
      ),
    },
  ];
  return (
    <div data-testid="package-admin">
      <DataList<ServicePackage>
        rowKey="id"
        columns={columns}
        data={data}
        loading={loading}
        pagination={pagination}
        filters={
          <Input
            allowClear
            placeholder={t('package.name')}
            value={name}
            onChange={(e) => setName(e.target.value)}
            style={{ width: 220 }}
          />
        }
        actions={
          <Permitted route={ROUTE} action="add">
            <Button type="primary" onClick={() => setEditing({ pkg: null })}>
              {t('package.add')}
            </Button>
          </Permitted>
        }
      />
      <Divider />
      <PacksCard />
      <ActivitiesCard packages={data} />
      <MerchantsCard />
      <PackageModal editing={editing} onClose={() => setEditing(null)} onSaved={() => void mutate()} />
    </div>
  );
}
