/**
 * /consumer/recharge: buy service for devices (package, level, duration, SMS / voice packs, coupon;
 * the price always comes from the server, in cents), pay with WeChat (QR code), Alipay or PayPal,
 * the account's orders, invoices and recharge cards.
 */
import {
  Alert,
  App,
  Button,
  Card,
  Form,
  Input,
  Modal,
  QRCode,
  Radio,
  Result,
  Select,
  Space,
  Tabs,
  Tag,
  Typography,
} from 'antd';
import Link from 'next/link';
import { useRouter } from 'next/router';
import { useTranslation } from 'next-i18next/pages';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  aliPay,
  insertOrder,
  money,
  orderPageKey,
  packagesForDevicesKey,
  packsKey,
  payOrderKey,
  payPal,
  priceKey,
  redeemCard,
  wechatPay,
  type MessagePack,
  type Order,
  type OrderInput,
  type Quote,
  type ServicePackage,
} from '@/api/billing';
import { devicePageKey, type Device } from '@/api/device';
import type { Page } from '@/components/ui/table';
import { formatTime } from '@/lib/format';
import { DataList, type ListColumn } from '@/components/ui/DataList';
import { Permitted } from '@/components/ui/Permitted';
import { useFormSubmit } from '@/hooks/useFormSubmit';
import { usePagedQuery } from '@/hooks/usePagedQuery';
import { useDebouncedValue } from '@/hooks/useDebouncedValue';
import { useRead } from '@/hooks/useRead';
import { InvoicesPanel } from './InvoicesPanel';

export type PayMethod = 'wechat' | 'alipay' | 'paypal';
const ROUTE = 'consumer.recharge';

function useMyDevices() {
  const { data } = useRead<Page<Device>>(devicePageKey({ start: 1, pageSize: 200 }));
  return data?.list ?? [];
}

export function StatusTag({ status }: { status: Order['payStatus'] }) {
  const { t } = useTranslation('billing');
  const color = { unpaid: 'orange', paid: 'green', refunded: 'default', closed: 'default' }[status];
  return (
    <Tag color={color} data-testid="pay-status">
      {t(`payStatus.${status}`)}
    </Tag>
  );
}

/** The WeChat QR code of an order; watches the order until it is paid. */
export function WechatQr({
  codeUrl,
  orderCode,
  onPaid,
  paidTitle,
}: {
  codeUrl: string;
  orderCode: string;
  onPaid?: (order: Order) => void;
  paidTitle?: string;
}) {
  const { t } = useTranslation('billing');
  const { data: order } = useRead<Order>(payOrderKey(orderCode), {
    refreshInterval: (latest) => (latest?.payStatus === 'paid' ? 0 : 2000),
  });
  // Told once: the parent reloads its lists, which must not make this call it again.
  const told = useRef(false);
  useEffect(() => {
    if (order?.payStatus !== 'paid' || told.current) return;
    told.current = true;
    onPaid?.(order);
  }, [order, onPaid]);
  if (order?.payStatus === 'paid') {
    return (
      <div data-testid="pay-success">
        <Result
          status="success"
          title={paidTitle ?? t('pay.paid')}
          subTitle={`${t('field.orderCode')}: ${orderCode}`}
        />
      </div>
    );
  }
  return (
    <Space
      direction="vertical"
      align="center"
      style={{ width: '100%' }}
      data-testid="wechat-qr"
      data-code-url={codeUrl}
      data-order-code={orderCode}
    >
      <QRCode value={codeUrl} size={200} />
      <Typography.Text>{t('pay.scan')}</Typography.Text>
      <Typography.Text type="secondary">
        {t('field.orderCode')}: {orderCode}
      </Typography.Text>
    </Space>
  );
}

/** Start paying an order: WeChat shows its QR code here, Alipay and PayPal open their pages. */
export async function startPayment(order: Pick<Order, 'orderCode'>, method: PayMethod): Promise<string | null> {
  if (method === 'wechat') return (await wechatPay(order.orderCode, 'native')).codeUrl ?? null;
  const target =
    method === 'alipay' ? (await aliPay(order.orderCode, 'page')).payUrl : (await payPal(order.orderCode)).approveUrl;
  if (target) window.location.assign(target);
  return null;
}

function BuyPanel({ onOrdered }: { onOrdered: () => void }) {
  const { t } = useTranslation('billing');
  const router = useRouter();
  const devices = useMyDevices();
  const { data: packs } = useRead<MessagePack[]>(packsKey());
  const [form] = Form.useForm<OrderInput & { method: PayMethod }>();
  const values = Form.useWatch([], form) as (OrderInput & { method: PayMethod }) | undefined;
  const [paying, setPaying] = useState<{ order: Order; codeUrl: string } | null>(null);
  const chosenIds = JSON.stringify(values?.deviceIds ?? []);
  const deviceIds = useMemo(() => JSON.parse(chosenIds) as number[], [chosenIds]);
  const { data: found } = useRead<ServicePackage[]>(deviceIds.length ? packagesForDevicesKey(deviceIds) : null);
  const packages = useMemo(() => (deviceIds.length ? (found ?? []) : []), [deviceIds, found]);
  const packageIds = packages.map((p) => p.id).join(',');
  const chosenPackage = packages.find((p) => p.id === values?.packageId);
  const chosenLevel = chosenPackage?.levels.find((l) => l.levelId === values?.levelId);

  useEffect(() => {
    const preset =
      typeof router.query.deviceIds === 'string' ? router.query.deviceIds.split(',').map(Number).filter(Boolean) : [];
    if (preset.length) form.setFieldValue('deviceIds', preset);
  }, [router.query.deviceIds, form]);

  // The packages of the chosen devices arrived: preselect the first package, level and the recommended duration.
  useEffect(() => {
    if (packages.some((p) => p.id === form.getFieldValue('packageId'))) return;
    const first = packages[0];
    const level = first?.levels[0];
    const row = level?.prices.find((p) => p.recommended) ?? level?.prices[0];
    form.setFieldsValue({ packageId: first?.id, levelId: level?.levelId ?? undefined, months: row?.months });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per set of packages on offer
  }, [packageIds, form]);

  const input: OrderInput | null =
    values && deviceIds.length && (values.months || values.smsPackId || values.voicePackId)
      ? {
          deviceIds,
          packageId: values.months ? values.packageId : null,
          levelId: values.months ? values.levelId : null,
          months: values.months ?? null,
          smsPackId: values.smsPackId ?? null,
          voicePackId: values.voicePackId ?? null,
          couponCode: values.couponCode || null,
        }
      : null;
  // The price is a read of the server's computation, keyed by the request (debounced while typing).
  const settled = useDebouncedValue(JSON.stringify(input), 300);
  const { data: quote } = useRead<Quote>(settled !== 'null' ? priceKey(JSON.parse(settled) as OrderInput) : null);

  const { submit, submitting } = useFormSubmit(form, async (all: OrderInput & { method: PayMethod }) => {
    if (!input) return;
    const order = await insertOrder(input);
    onOrdered();
    if (order.payStatus === 'paid') {
      setPaying({ order, codeUrl: '' });
      return;
    }
    const codeUrl = await startPayment(order, all.method);
    if (codeUrl) setPaying({ order, codeUrl });
  });

  const packOptions = (kind: 'sms' | 'voice') =>
    (packs ?? [])
      .filter((p) => p.kind === kind)
      .map((p) => ({ value: p.id, label: `${p.name} · ${p.count} · ${money(p.fee, p.currency)}` }));

  return (
    <Card data-testid="buy-panel">
      <Form
        form={form}
        layout="vertical"
        onFinish={submit}
        initialValues={{ method: 'wechat', deviceIds: [] }}
        style={{ maxWidth: 720 }}
      >
        <Form.Item
          name="deviceIds"
          label={t('buy.devices')}
          rules={[{ required: true, message: t('buy.devicesRequired') }]}
        >
          <Select
            mode="multiple"
            data-testid="buy-devices"
            optionFilterProp="label"
            options={devices.map((d) => ({
              value: d.id,
              label: `${d.deviceName} (${d.deviceGuid}) · ${t('buy.expires')} ${formatTime(d.serviceExpiredDate, 'YYYY-MM-DD')}`,
            }))}
          />
        </Form.Item>
        {packages.length ? (
          <>
            <Form.Item name="packageId" label={t('field.package')}>
              <Radio.Group
                data-testid="buy-package"
                options={packages.map((p) => ({ value: p.id, label: p.packageName }))}
              />
            </Form.Item>
            <Form.Item name="levelId" label={t('field.level')}>
              <Radio.Group
                options={(chosenPackage?.levels ?? []).map((l) => ({
                  value: l.levelId ?? 0,
                  label: `${l.levelName}${l.serviceItems.length ? ` (${l.serviceItems.join(', ')})` : ''}`,
                }))}
              />
            </Form.Item>
            <Form.Item name="months" label={t('field.duration')}>
              <Radio.Group data-testid="buy-duration">
                {(chosenLevel?.prices ?? []).map((row) => (
                  <Radio.Button key={row.months} value={row.months} data-testid={`duration-${row.months}`}>
                    {t('buy.months', { count: row.months })} ·{' '}
                    {money(row.serviceFee + row.dataFee, chosenPackage?.currency)}
                    {row.discount ? ` -${row.discount}%` : ''}
                    {row.recommended ? ` ★` : ''}
                  </Radio.Button>
                ))}
              </Radio.Group>
            </Form.Item>
          </>
        ) : null}
        <Space wrap>
          <Form.Item name="smsPackId" label={t('field.smsPack')}>
            <Select allowClear style={{ width: 240 }} options={packOptions('sms')} />
          </Form.Item>
          <Form.Item name="voicePackId" label={t('field.voicePack')}>
            <Select allowClear style={{ width: 240 }} options={packOptions('voice')} />
          </Form.Item>
          <Form.Item name="couponCode" label={t('field.coupon')}>
            <Input maxLength={32} style={{ width: 200 }} />
          </Form.Item>
        </Space>
        <Form.Item name="method" label={t('field.payMethod')}>
          <Radio.Group
            data-testid="buy-method"
            options={(['wechat', 'alipay', 'paypal'] as const).map((m) => ({ value: m, label: t(`method.${m}`) }))}
          />
        </Form.Item>
        <Space align="center" size="large">
          <Typography.Title level={4} style={{ margin: 0 }} data-testid="buy-price" data-cents={quote?.payFee ?? ''}>
            {t('buy.total')}: {quote ? money(quote.payFee, quote.currency) : '-'}
            {quote && quote.orderFee !== quote.payFee ? (
              <Typography.Text delete type="secondary" style={{ marginLeft: 8 }}>
                {money(quote.orderFee, quote.currency)}
              </Typography.Text>
            ) : null}
          </Typography.Title>
          <Permitted route={ROUTE} action="buy">
            <Button type="primary" htmlType="submit" loading={submitting} disabled={!quote} data-testid="buy-submit">
              {t('buy.submit')}
            </Button>
          </Permitted>
        </Space>
      </Form>
      <Modal
        open={Boolean(paying)}
        footer={null}
        onCancel={() => setPaying(null)}
        title={t('pay.title')}
        destroyOnHidden
      >
        {paying?.codeUrl ? (
          <WechatQr codeUrl={paying.codeUrl} orderCode={paying.order.orderCode} onPaid={onOrdered} />
        ) : paying ? (
          <div data-testid="pay-success">
            <Result status="success" title={t('pay.paid')} />
          </div>
        ) : null}
      </Modal>
    </Card>
  );
}

function OrdersPanel({ version }: { version: number }) {
  const { t } = useTranslation('billing');
  const [orderCode, setOrderCode] = useState('');
  const [selected, setSelected] = useState<Order[]>([]);
  const { data, loading, pagination, mutate } = usePagedQuery<Order, { orderCode?: string }>(orderPageKey, {
    orderCode: orderCode || undefined,
  });
  useEffect(() => {
    if (version) void mutate();
  }, [version, mutate]);
  const columns: ListColumn<Order>[] = [
    { key: 'code', title: t('field.orderCode'), dataIndex: 'orderCode', important: true, card: 'title' },
    {
      key: 'package',
      title: t('field.package'),
      render: (_, o) => [o.packageName, o.levelName].filter(Boolean).join(' / ') || o.description || '-',
    },
    {
      key: 'months',
      title: t('field.duration'),
      render: (_, o) =>
        o.months ? t('buy.months', { count: o.months }) : o.freeDays ? t('buy.days', { count: o.freeDays }) : '-',
    },
    {
      key: 'devices',
      title: t('field.devices'),
      render: (_, o) => o.devices.map((d) => d.deviceGuid).join(', '),
      long: true,
      desktopOnly: true,
    },
    { key: 'fee', title: t('field.payFee'), render: (_, o) => money(o.payFee, o.currency), important: true },
    {
      key: 'status',
      title: t('field.payStatus'),
      render: (_, o) => <StatusTag status={o.payStatus} />,
      important: true,
    },
    {
      key: 'type',
      title: t('field.payType'),
      render: (_, o) => (o.payType ? t(`payType.${o.payType}`) : '-'),
      desktopOnly: true,
    },
    {
      key: 'invoice',
      title: t('field.invoiceStatus'),
      render: (_, o) => t(`invoiceStatus.${o.invoiceStatus}`),
      desktopOnly: true,
    },
    { key: 'created', title: t('field.gmtCreate'), render: (_, o) => formatTime(o.gmtCreate) },
    {
      key: 'actions',
      title: '',
      important: true,
      render: (_, o) => (
        <Space>
          {o.payStatus === 'unpaid' ? (
            <Link href={`/mobilePay/pay?orderCode=${o.orderCode}`}>{t('pay.pay')}</Link>
          ) : null}
          <Link href={`/receipt?orderCode=${o.orderCode}`} target="_blank">
            {t('receipt.title')}
          </Link>
        </Space>
      ),
    },
  ];
  return (
    <>
      <DataList<Order>
        rowKey="id"
        columns={columns}
        data={data}
        loading={loading}
        pagination={pagination}
        testId="order-list"
        rowProps={(o) => ({ 'data-order-code': o.orderCode })}
        filters={
          <Input
            allowClear
            placeholder={t('field.orderCode')}
            value={orderCode}
            onChange={(e) => setOrderCode(e.target.value)}
            style={{ width: 240 }}
          />
        }
        rowSelection={{
          selectedRowKeys: selected.map((o) => o.id),
          onChange: (_, rows) => setSelected(rows),
          getCheckboxProps: (o) => ({
            disabled: o.payStatus !== 'paid' || o.invoiceStatus !== 'none' || o.payFee <= 0,
          }),
        }}
      />
      <InvoicesPanel
        selected={selected}
        onRequested={() => {
          setSelected([]);
          void mutate();
        }}
      />
    </>
  );
}

function CardPanel({ onRedeemed }: { onRedeemed: () => void }) {
  const { t } = useTranslation('billing');
  const { message } = App.useApp();
  const devices = useMyDevices();
  const [form] = Form.useForm<{ code: string; deviceId: number }>();
  const [done, setDone] = useState<Order | null>(null);
  const { submit, submitting } = useFormSubmit(form, async (v: { code: string; deviceId: number }) => {
    const order = await redeemCard(v.code.trim(), v.deviceId);
    setDone(order);
    message.success(t('card.redeemed'));
    onRedeemed();
  });
  return (
    <Card data-testid="card-panel">
      <Form form={form} layout="vertical" onFinish={submit} style={{ maxWidth: 480 }}>
        <Form.Item name="code" label={t('card.code')} rules={[{ required: true, message: t('card.code') }]}>
          <Input maxLength={32} data-testid="card-code" />
        </Form.Item>
        <Form.Item name="deviceId" label={t('buy.device')} rules={[{ required: true, message: t('buy.device') }]}>
          <Select
            data-testid="card-device"
            options={devices.map((d) => ({ value: d.id, label: `${d.deviceName} (${d.deviceGuid})` }))}
          />
        </Form.Item>
        <Permitted route={ROUTE} action="buy">
          <Button type="primary" htmlType="submit" loading={submitting} data-testid="card-submit">
            {t('card.redeem')}
          </Button>
        </Permitted>
      </Form>
      {done ? (
        <div data-testid="card-done" style={{ marginTop: 16 }}>
          <Alert
            type="success"
            message={t('card.extended', { until: formatTime(done.devices[0]?.expiresAfter, 'YYYY-MM-DD') })}
          />
        </div>
      ) : null}
    </Card>
  );
}

export function RechargeView() {
  const { t } = useTranslation('billing');
  const [version, setVersion] = useState(0);
  const bump = useCallback(() => setVersion((v) => v + 1), []);
  return (
    <div data-testid="recharge-view">
      <Tabs
        items={[
          { key: 'buy', label: t('tabs.buy'), children: <BuyPanel onOrdered={bump} /> },
          { key: 'orders', label: t('tabs.orders'), children: <OrdersPanel version={version} /> },
          { key: 'card', label: t('tabs.card'), children: <CardPanel onRedeemed={bump} /> },
        ]}
      />
    </div>
  );
}
