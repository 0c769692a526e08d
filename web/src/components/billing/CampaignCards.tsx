import {
  Button,
  Card,
  DatePicker,
  Form,
  Input,
  InputNumber,
  Modal,
  Select,
  Space,
  Switch,
  Tag,
  Typography,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import {
  activitiesKey,
  deleteActivity,
  merchantsKey,
  saveActivity,
  saveMerchant,
  type Activity,
  type Merchant,
  type MerchantProvider,
  type ServicePackage,
} from '@/api/billing';
import { formatTime } from '@/lib/format';
import { ConfirmAction } from '@/components/ui/ConfirmAction';
import { DataList, type ListColumn } from '@/components/ui/DataList';
import { Permitted } from '@/components/ui/Permitted';
import { SymbolFreeInput } from '@/components/ui/SymbolFreeInput';
import { useFormSubmit } from '@/hooks/useFormSubmit';
import { useRead } from '@/hooks/useRead';
import { rangeRules } from '@/components/ui/rangeRules';

const ROUTE = 'operation.order.package';

interface ActivityForm {
  packageId: number;
  name: string;
  window: [Dayjs, Dayjs];
  discount: number;
  status: boolean;
  directional: boolean;
  accountIds: number[];
}

/** Activities (business-domain 3): a discount on one package for a time window, public or for chosen accounts. */
export function ActivitiesCard({ packages }: { packages: ServicePackage[] }) {
  const { t } = useTranslation('billing');
  const { data, mutate } = useRead<Activity[]>(activitiesKey());
  const [editing, setEditing] = useState<{ activity: Activity | null } | null>(null);
  const [form] = Form.useForm<ActivityForm>();
  const directional = Form.useWatch('directional', form);
  const packageName = (id: number) => packages.find((p) => p.id === id)?.packageName ?? `#${id}`;
  const { submit, submitting } = useFormSubmit(
    form,
    async (v: ActivityForm) => {
      const body = {
        packageId: v.packageId,
        name: v.name,
        startTime: v.window[0].toISOString(),
        endTime: v.window[1].toISOString(),
        discount: v.discount,
        status: v.status,
        directional: v.directional,
        accountIds: v.directional ? v.accountIds : [],
      };
      await saveActivity(editing?.activity ? { ...body, id: editing.activity.id } : body);
    },
    {
      aliases: { startTime: 'window', endTime: 'window' },
      onDone: () => {
        setEditing(null);
        void mutate();
      },
    },
  );
  const open = (activity: Activity | null) => {
    setEditing({ activity });
    form.setFieldsValue(
      activity
        ? { ...activity, window: [dayjs(activity.startTime), dayjs(activity.endTime)] }
        : {
            name: '',
            discount: 10,
            status: true,
            directional: false,
            accountIds: [],
            window: undefined,
            packageId: packages[0]?.id,
          },
    );
  };
  const columns: ListColumn<Activity>[] = [
    { key: 'name', title: t('activity.name'), dataIndex: 'name', card: 'title' },
    { key: 'package', title: t('package.name'), render: (_, a) => packageName(a.packageId) },
    {
      key: 'window',
      title: t('activity.window'),
      render: (_, a) => `${formatTime(a.startTime)} ~ ${formatTime(a.endTime)}`,
      desktopOnly: true,
    },
    { key: 'discount', title: t('activity.discount'), render: (_, a) => `${a.discount}%`, important: true },
    {
      key: 'who',
      title: t('activity.audience'),
      render: (_, a) =>
        a.directional ? t('activity.directedTo', { count: a.accountIds.length }) : t('activity.public'),
    },
    {
      key: 'status',
      title: t('package.status'),
      render: (_, a) => <Tag color={a.status ? 'green' : 'default'}>{t(a.status ? 'package.on' : 'package.off')}</Tag>,
    },
    {
      key: 'actions',
      title: '',
      important: true,
      render: (_, a) => (
        <Space size={0}>
          <Permitted route={ROUTE} action="edit">
            <Button type="link" size="small" onClick={() => open(a)}>
              {t('edit')}
            </Button>
          </Permitted>
          <ConfirmAction
            route={ROUTE}
            action="delete"
            title={t('confirmDelete')}
            onConfirm={() => deleteActivity(a.id).then(() => mutate())}
          >
            {t('delete')}
          </ConfirmAction>
        </Space>
      ),
    },
  ];
  return (
    <Card
      title={t('activity.title')}
      style={{ marginTop: 16 }}
      data-testid="activities"
      extra={
        <Permitted route={ROUTE} action="add">
          <Button onClick={() => open(null)} disabled={!packages.length} data-testid="activity-add">
            {t('activity.add')}
          </Button>
        </Permitted>
      }
    >
      <DataList<Activity> rowKey="id" columns={columns} data={data ?? []} pagination={false} />
      <Modal
        open={editing !== null}
        title={t(editing?.activity ? 'activity.edit' : 'activity.add')}
        onOk={() => form.submit()}
        onCancel={() => setEditing(null)}
        confirmLoading={submitting}
        okText={t('save')}
        cancelText={t('cancel')}
        destroyOnHidden
        forceRender
      >
        <Form form={form} layout="vertical" onFinish={submit}>
          <Form.Item name="packageId" label={t('package.name')} rules={[{ required: true, message: t('required') }]}>
            <Select options={packages.map((p) => ({ value: p.id, label: p.packageName }))} />
          </Form.Item>
          <Form.Item
            name="name"
            label={t('activity.name')}
            rules={[
              { required: true, whitespace: true, message: t('required') },
              { max: 20, message: t('max', { max: 20 }) },
            ]}
          >
            <SymbolFreeInput maxLength={20} data-testid="activity-name" />
          </Form.Item>
          <Form.Item name="window" label={t('activity.window')} rules={[{ required: true, message: t('required') }]}>
            <DatePicker.RangePicker showTime style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item
            name="discount"
            label={t('activity.discount')}
            extra={t('activity.discountHint')}
            rules={[{ required: true, message: t('required') }, ...rangeRules(t, 1, 99)]}
          >
            <InputNumber precision={0} suffix="%" style={{ width: 160 }} data-testid="activity-discount" />
          </Form.Item>
          <Form.Item name="status" label={t('package.status')} valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item
            name="directional"
            label={t('activity.directional')}
            valuePropName="checked"
            extra={t('activity.directionalHint')}
          >
            <Switch />
          </Form.Item>
          {directional ? (
            <Form.Item
              name="accountIds"
              label={t('activity.accounts')}
              rules={[{ required: true, message: t('required') }]}
            >
              <Select mode="tags" tokenSeparators={[',', ' ']} placeholder={t('activity.accountsHint')} />
            </Form.Item>
          ) : null}
        </Form>
      </Modal>
    </Card>
  );
}

/** The settings each provider needs (api/billing/wechat.py, alipay.py, paypal.py); secrets are write-only. */
const MERCHANT_FIELDS: Record<MerchantProvider, { name: string; secret?: boolean; multiline?: boolean }[]> = {
  wechat: [
    { name: 'mchid' },
    { name: 'appid' },
    { name: 'appSecret', secret: true },
    { name: 'certSerialNo' },
    { name: 'privateKey', secret: true, multiline: true },
    { name: 'apiv3Key', secret: true },
    { name: 'platformCert', multiline: true },
    { name: 'publicKey', multiline: true },
    { name: 'publicKeyId' },
    { name: 'notifyBase' },
  ],
  alipay: [
    { name: 'appid' },
    { name: 'appPrivateKey', secret: true, multiline: true },
    { name: 'alipayPublicKey', multiline: true },
    { name: 'notifyBase' },
    { name: 'returnUrl' },
  ],
  paypal: [{ name: 'clientId' }, { name: 'clientSecret', secret: true }, { name: 'webhookId' }],
};

/** This site's merchant accounts: what is configured (never the secrets themselves), and changing them. */
export function MerchantsCard() {
  const { t } = useTranslation('billing');
  const { data, mutate } = useRead<Merchant[]>(merchantsKey());
  const [provider, setProvider] = useState<MerchantProvider | null>(null);
  const [form] = Form.useForm<Record<string, string | boolean>>();
  const known = (name: MerchantProvider) => data?.find((m) => m.provider === name);
  const { submit, submitting } = useFormSubmit(
    form,
    async (values: Record<string, string | boolean>) => {
      if (!provider) return;
      // Fields left empty keep their stored value (secrets are never sent back to fill the form).
      const config = Object.fromEntries(
        Object.entries(values).filter(
          ([key, value]) => key !== 'enabled' && typeof value === 'string' && value.trim() !== '',
        ),
      ) as Record<string, string>;
      await saveMerchant({ provider, enabled: Boolean(values.enabled), config });
    },
    {
      onDone: () => {
        setProvider(null);
        void mutate();
      },
    },
  );
  const open = (name: MerchantProvider) => {
    setProvider(name);
    form.resetFields();
    form.setFieldsValue({ enabled: known(name)?.enabled ?? true });
  };
  return (
    <Card title={t('merchant.title')} style={{ marginTop: 16 }} data-testid="merchants">
      <Typography.Paragraph type="secondary">{t('merchant.explain')}</Typography.Paragraph>
      <Space wrap>
        {(Object.keys(MERCHANT_FIELDS) as MerchantProvider[]).map((name) => {
          const merchant = known(name);
          return (
            <Card
              key={name}
              size="small"
              title={t(`merchant.${name}`)}
              style={{ width: 260 }}
              data-testid={`merchant-${name}`}
            >
              <Space orientation="vertical">
                <Tag color={merchant?.enabled ? 'green' : 'default'}>
                  {merchant ? t(merchant.enabled ? 'merchant.enabled' : 'merchant.disabled') : t('merchant.none')}
                </Tag>
                <Typography.Text type="secondary">
                  {merchant ? t('merchant.configured', { count: merchant.configured.length }) : '-'}
                </Typography.Text>
                <Permitted route={ROUTE} action="edit">
                  <Button size="small" onClick={() => open(name)} data-testid={`merchant-edit-${name}`}>
                    {t('edit')}
                  </Button>
                </Permitted>
              </Space>
            </Card>
          );
        })}
      </Space>
      <Modal
        open={provider !== null}
        title={provider ? t(`merchant.${provider}`) : ''}
        onOk={() => form.submit()}
        onCancel={() => setProvider(null)}
        confirmLoading={submitting}
        okText={t('save')}
        cancelText={t('cancel')}
        width={640}
        destroyOnHidden
        forceRender
      >
        <Form form={form} layout="vertical" onFinish={submit}>
          <Form.Item name="enabled" label={t('merchant.enabled')} valuePropName="checked">
            <Switch />
          </Form.Item>
          {(provider ? MERCHANT_FIELDS[provider] : []).map((field) => {
            const stored = known(provider as MerchantProvider)?.configured.includes(field.name);
            const placeholder = stored ? t('merchant.keep') : undefined;
            return (
              <Form.Item
                key={field.name}
                name={field.name}
                label={field.name}
                extra={field.secret ? t('merchant.secret') : undefined}
              >
                {field.multiline ? (
                  <Input.TextArea rows={3} placeholder={placeholder} autoComplete="off" />
                ) : field.secret ? (
                  <Input.Password placeholder={placeholder} autoComplete="new-password" />
                ) : (
                  <Input placeholder={placeholder} autoComplete="off" />
                )}
              </Form.Item>
            );
          })}
        </Form>
      </Modal>
    </Card>
  );
}
