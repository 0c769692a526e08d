/**
 * Operators: /operation/order (all orders, filters, CSV export, the order data report with a chart,
 * invoice requests to issue), /operation/recharge (coupons and recharge cards), /operation/device/
 * offlinebuy (offline purchases: recharged, not recharged, recharge failed).
 */
import {
  App,
  Button,
  Card,
  DatePicker,
  Form,
  Input,
  InputNumber,
  Modal,
  Select,
  Space,
  Statistic,
  Tabs,
  Tag,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import {
  adminOrderPageKey,
  cardPageKey,
  confirmOffline,
  couponPageKey,
  exportOrders,
  generateCards,
  generateCoupons,
  insertOffline,
  invoiceAdminPageKey,
  issueInvoice,
  money,
  offlinePageKey,
  orderReportKey,
  packagePageKey,
  refundOrder,
  retryOffline,
  type Coupon,
  type InvoiceRequest,
  type OfflinePurchase,
  type Order,
  type OrderReport,
  type PayStatus,
  type RechargeCard,
  type ServicePackage,
} from '@/api/billing';
import { saveBlob } from '@/api/report';
import type { Page } from '@/components/ui/table';
import { ApexChart } from '@/components/device/ApexChart';
import { formatTime } from '@/lib/format';
import { DataList, type ListColumn } from '@/components/ui/DataList';
import { Permitted } from '@/components/ui/Permitted';
import { useFormSubmit } from '@/hooks/useFormSubmit';
import { usePagedQuery } from '@/hooks/usePagedQuery';
import { useRead } from '@/hooks/useRead';
import { StatusTag } from './RechargeView';
import { rangeRules, type T } from '@/components/ui/rangeRules';

const ORDERS = 'operation.order.list';

function OrderReportCard() {
  const { t } = useTranslation('billing');
  const [range, setRange] = useState<[Dayjs, Dayjs]>(() => [
    dayjs().subtract(30, 'day').startOf('day'),
    dayjs().add(1, 'day').startOf('day'),
  ]);
  const { data } = useRead<OrderReport>(orderReportKey(range[0].toISOString(), range[1].toISOString()));
  return (
    <Card
      title={t('report.title')}
      data-testid="order-report"
      extra={
        <DatePicker.RangePicker
          value={range}
          onChange={(v) => v && v[0] && v[1] && setRange([v[0], v[1]])}
          allowClear={false}
        />
      }
      style={{ marginBottom: 16 }}
    >
      <Space size="large" wrap>
        <Statistic title={t('report.total')} value={money(data?.total ?? 0)} />
        <Statistic title={t('report.orders')} value={data?.orders ?? 0} />
        {(data?.byPayType ?? []).map((row) => (
          <Statistic
            key={row.payType}
            title={t(`payType.${row.payType}`, { defaultValue: row.payType })}
            value={money(row.amount)}
          />
        ))}
      </Space>
      {data?.byDay.length ? (
        <ApexChart
          type="bar"
          height={220}
          series={[{ name: t('report.total'), data: data.byDay.map((d) => d.amount / 100) }]}
          options={{
            xaxis: { categories: data.byDay.map((d) => d.day) },
            dataLabels: { enabled: false },
            chart: { toolbar: { show: false } },
          }}
        />
      ) : null}
      {data?.byPackage.length ? (
        <Space wrap>
          {data.byPackage.map((row) => (
            <Tag key={row.package}>
              {row.package}: {money(row.amount)}
            </Tag>
          ))}
        </Space>
      ) : null}
    </Card>
  );
}

function InvoiceRequestsCard() {
  const { t } = useTranslation('billing');
  const { data, loading, pagination, mutate } = usePagedQuery<InvoiceRequest, object>(invoiceAdminPageKey, {});
  const columns: ListColumn<InvoiceRequest>[] = [
    { key: 'name', title: t('invoice.billName'), render: (_, r) => r.info.billName, card: 'title' },
    { key: 'mode', title: t('invoice.billMode'), render: (_, r) => t(`billMode.${r.info.billMode}`) },
    {
      key: 'company',
      title: t('invoice.companyName'),
      render: (_, r) => r.info.companyName ?? r.info.personalName ?? '-',
      long: true,
    },
    { key: 'tax', title: t('invoice.taxNumber'), render: (_, r) => r.info.taxNumber ?? '-', desktopOnly: true },
    { key: 'amount', title: t('field.payFee'), render: (_, r) => money(r.amount), important: true },
    {
      key: 'status',
      title: t('field.invoiceStatus'),
      render: (_, r) => t(`invoiceStatus.${r.status}`),
      important: true,
    },
    {
      key: 'actions',
      title: '',
      important: true,
      render: (_, r) =>
        r.status === 'requested' ? (
          <Permitted route={ORDERS} action="edit">
            <Button type="link" size="small" onClick={() => void issueInvoice(r.id).then(() => mutate())}>
              {t('invoice.issue')}
            </Button>
          </Permitted>
        ) : null,
    },
  ];
  return (
    <Card title={t('invoice.requests')} style={{ marginTop: 16 }}>
      <DataList<InvoiceRequest> rowKey="id" columns={columns} data={data} loading={loading} pagination={pagination} />
    </Card>
  );
}

export function OrderAdminView() {
  const { t } = useTranslation('billing');
  const { modal } = App.useApp();
  const [orderCode, setOrderCode] = useState('');
  const [payStatus, setPayStatus] = useState<PayStatus | undefined>();
  const filters = { orderCode: orderCode || undefined, payStatus };
  const { data, loading, pagination, mutate } = usePagedQuery<Order, typeof filters>(adminOrderPageKey, filters);
  const offline = (order: Order) => {
    let reference = '';
    modal.confirm({
      title: t('admin.confirmOffline'),
      content: (
        <Input maxLength={64} placeholder={t('admin.reference')} onChange={(e) => (reference = e.target.value)} />
      ),
      onOk: () => confirmOffline(order.id, reference || order.orderCode).then(() => mutate()),
    });
  };
  const columns: ListColumn<Order>[] = [
    { key: 'code', title: t('field.orderCode'), dataIndex: 'orderCode', important: true, card: 'title' },
    { key: 'account', title: t('admin.account'), dataIndex: 'accountId', desktopOnly: true },
    { key: 'package', title: t('field.package'), render: (_, o) => o.packageName ?? o.description ?? '-' },
    {
      key: 'months',
      title: t('field.duration'),
      render: (_, o) => (o.months ? t('buy.months', { count: o.months }) : '-'),
    },
    { key: 'fee', title: t('field.payFee'), render: (_, o) => money(o.payFee, o.currency), important: true },
    {
      key: 'status',
      title: t('field.payStatus'),
      render: (_, o) => <StatusTag status={o.payStatus} />,
      important: true,
    },
    { key: 'type', title: t('field.payType'), render: (_, o) => (o.payType ? t(`payType.${o.payType}`) : '-') },
    { key: 'created', title: t('field.gmtCreate'), render: (_, o) => formatTime(o.gmtCreate), desktopOnly: true },
    {
      key: 'actions',
      title: '',
      important: true,
      render: (_, o) => (
        <Permitted route={ORDERS} action="edit">
          <Space>
            {o.payStatus === 'unpaid' ? (
              <Button type="link" size="small" onClick={() => offline(o)}>
                {t('admin.confirmOffline')}
              </Button>
            ) : null}
            {o.payStatus === 'paid' ? (
              <Button
                type="link"
                size="small"
                danger
                onClick={() =>
                  modal.confirm({ title: t('admin.refundConfirm'), onOk: () => refundOrder(o.id).then(() => mutate()) })
                }
              >
                {t('admin.refund')}
              </Button>
            ) : null}
          </Space>
        </Permitted>
      ),
    },
  ];
  return (
    <div data-testid="order-admin">
      <OrderReportCard />
      <DataList<Order>
        rowKey="id"
        columns={columns}
        data={data}
        loading={loading}
        pagination={pagination}
        filters={
          <Space wrap>
            <Input
              allowClear
              placeholder={t('field.orderCode')}
              value={orderCode}
              onChange={(e) => setOrderCode(e.target.value)}
              style={{ width: 220 }}
            />
            <Select<PayStatus>
              allowClear
              placeholder={t('field.payStatus')}
              value={payStatus}
              onChange={setPayStatus}
              style={{ width: 140 }}
              options={(['unpaid', 'paid', 'refunded', 'closed'] as const).map((value) => ({
                value,
                label: t(`payStatus.${value}`),
              }))}
            />
          </Space>
        }
        actions={
          <Button onClick={() => void exportOrders(filters).then((blob) => saveBlob(blob, 'orders.csv'))}>
            {t('admin.export')}
          </Button>
        }
      />
      <InvoiceRequestsCard />
    </div>
  );
}

function usePackages() {
  const { data } = useRead<Page<ServicePackage>>(packagePageKey({ start: 1, pageSize: 200 }));
  return data?.list ?? [];
}

function PackageLevelFields({ packages }: { packages: ServicePackage[] }) {
  const { t } = useTranslation('billing');
  const form = Form.useFormInstance();
  const packageId = Form.useWatch('packageId', form) as number | undefined;
  const levels = packages.find((p) => p.id === packageId)?.levels ?? [];
  return (
    <>
      <Form.Item name="packageId" label={t('field.package')} rules={[{ required: true, message: t('field.package') }]}>
        <Select options={packages.map((p) => ({ value: p.id, label: p.packageName }))} />
      </Form.Item>
      <Form.Item name="levelId" label={t('field.level')} rules={[{ required: true, message: t('field.level') }]}>
        <Select options={levels.map((l) => ({ value: l.levelId ?? 0, label: l.levelName }))} />
      </Form.Item>
      <Form.Item
        name="months"
        label={t('field.months')}
        rules={[{ required: true, message: t('field.months') }, ...rangeRules(t, 1, 120)]}
      >
        <InputNumber precision={0} />
      </Form.Item>
    </>
  );
}

/** At most this many coupons or cards in one batch (the api's limit). */
const CODE_COUNT_MAX = 999;

/** The rules of a batch's count: 1,000 is refused naming the range, never issued as 999 (issue 47). */
export const batchCountRules = (t: T) => [
  { required: true, message: t('codes.count') },
  ...rangeRules(t, 1, CODE_COUNT_MAX),
];

type Batch = {
  prefix: string;
  count: number;
  fee?: number;
  validTo: Dayjs;
  remark?: string;
  packageId?: number;
  levelId?: number;
  months?: number;
};

function BatchModal({
  kind,
  open,
  onClose,
  onDone,
}: {
  kind: 'coupon' | 'card';
  open: boolean;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation('billing');
  const packages = usePackages();
  const [form] = Form.useForm<Batch>();
  const { submit, submitting } = useFormSubmit(form, async (v: Batch) => {
    const common = { prefix: v.prefix, count: v.count, validTo: v.validTo.toISOString(), remark: v.remark };
    if (kind === 'coupon')
      await generateCoupons({ ...common, fee: Math.round((v.fee ?? 0) * 100), validFrom: dayjs().toISOString() });
    else
      await generateCards({ ...common, packageId: v.packageId ?? 0, levelId: v.levelId ?? 0, months: v.months ?? 12 });
    onDone();
    onClose();
  });
  return (
    <Modal
      open={open}
      title={t(`codes.generate.${kind}`)}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={submitting}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        onFinish={submit}
        initialValues={{ count: 10, validTo: dayjs().add(1, 'year') }}
      >
        <Form.Item
          name="prefix"
          label={t('codes.prefix')}
          rules={[{ required: true, pattern: /^[A-Z0-9]{1,8}$/, message: t('codes.prefixRule') }]}
        >
          <Input maxLength={8} />
        </Form.Item>
        {kind === 'coupon' ? (
          <Form.Item
            name="fee"
            label={t('codes.fee')}
            rules={[{ required: true, message: t('codes.fee') }, ...rangeRules(t, 0.01)]}
          >
            <InputNumber precision={2} />
          </Form.Item>
        ) : (
          <PackageLevelFields packages={packages} />
        )}
        <Form.Item name="count" label={t('codes.count')} rules={batchCountRules(t)}>
          <InputNumber precision={0} />
        </Form.Item>
        <Form.Item name="validTo" label={t('codes.validTo')} rules={[{ required: true, message: t('codes.validTo') }]}>
          <DatePicker />
        </Form.Item>
        <Form.Item name="remark" label={t('codes.remark')} rules={[{ max: 200, message: t('max', { max: 200 }) }]}>
          <Input.TextArea maxLength={200} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function CodeList<T extends Coupon | RechargeCard>({ kind }: { kind: 'coupon' | 'card' }) {
  const { t } = useTranslation('billing');
  const [used, setUsed] = useState<boolean | undefined>();
  const [open, setOpen] = useState(false);
  const { data, loading, pagination, mutate } = usePagedQuery<T, { used?: boolean }>(
    kind === 'coupon' ? couponPageKey : cardPageKey,
    { used },
  );
  const columns: ListColumn<T>[] = [
    { key: 'code', title: t('codes.code'), dataIndex: 'code', important: true, card: 'title' },
    {
      key: 'value',
      title: kind === 'coupon' ? t('codes.fee') : t('field.months'),
      render: (_, c) => ('fee' in c ? money(c.fee) : t('buy.months', { count: c.months })),
    },
    { key: 'validTo', title: t('codes.validTo'), render: (_, c) => formatTime(c.validTo, 'YYYY-MM-DD') },
    {
      key: 'used',
      title: t('codes.used'),
      render: (_, c) => <Tag color={c.used ? 'default' : 'green'}>{t(c.used ? 'codes.isUsed' : 'codes.unused')}</Tag>,
      important: true,
    },
    { key: 'remark', title: t('codes.remark'), dataIndex: 'remark', long: true, desktopOnly: true },
  ];
  return (
    <>
      <DataList<T>
        rowKey="id"
        columns={columns}
        data={data}
        loading={loading}
        pagination={pagination}
        filters={
          <Select
            allowClear
            style={{ width: 140 }}
            placeholder={t('codes.used')}
            value={used === undefined ? undefined : String(used)}
            onChange={(v) => setUsed(v === undefined ? undefined : v === 'true')}
            options={[
              { value: 'false', label: t('codes.unused') },
              { value: 'true', label: t('codes.isUsed') },
            ]}
          />
        }
        actions={
          <Permitted route="operation.order.recharge" action="add">
            <Button type="primary" onClick={() => setOpen(true)}>
              {t(`codes.generate.${kind}`)}
            </Button>
          </Permitted>
        }
      />
      <BatchModal kind={kind} open={open} onClose={() => setOpen(false)} onDone={() => void mutate()} />
    </>
  );
}

export function RechargeAdminView() {
  const { t } = useTranslation('billing');
  return (
    <Tabs
      items={[
        { key: 'coupon', label: t('codes.coupons'), children: <CodeList<Coupon> kind="coupon" /> },
        { key: 'card', label: t('codes.cards'), children: <CodeList<RechargeCard> kind="card" /> },
      ]}
    />
  );
}

export function OfflineBuyView() {
  const { t } = useTranslation('billing');
  const packages = usePackages();
  const [state, setState] = useState<OfflinePurchase['state'] | undefined>();
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<{
    deviceGuid: string;
    packageId: number;
    levelId: number;
    months: number;
    contract?: string;
  }>();
  const { data, loading, pagination, mutate } = usePagedQuery<OfflinePurchase, { state?: string }>(offlinePageKey, {
    state,
  });
  const { submit, submitting } = useFormSubmit(
    form,
    async (v: { deviceGuid: string; packageId: number; levelId: number; months: number; contract?: string }) => {
      await insertOffline(v);
      setOpen(false);
      void mutate();
    },
  );
  const columns: ListColumn<OfflinePurchase>[] = [
    { key: 'guid', title: t('offline.guid'), dataIndex: 'deviceGuid', important: true, card: 'title' },
    {
      key: 'package',
      title: t('field.package'),
      render: (_, p) => packages.find((x) => x.id === p.packageId)?.packageName ?? '-',
    },
    { key: 'months', title: t('field.months'), dataIndex: 'months' },
    { key: 'contract', title: t('offline.contract'), dataIndex: 'contract', long: true },
    {
      key: 'state',
      title: t('offline.state'),
      render: (_, p) => (
        <Tag color={{ recharged: 'green', not_recharged: 'blue', failed: 'red' }[p.state]}>
          {t(`offline.states.${p.state}`)}
        </Tag>
      ),
      important: true,
    },
    { key: 'reason', title: t('offline.reason'), dataIndex: 'reason', long: true, desktopOnly: true },
    { key: 'created', title: t('field.gmtCreate'), render: (_, p) => formatTime(p.gmtCreate), desktopOnly: true },
    {
      key: 'actions',
      title: '',
      important: true,
      render: (_, p) =>
        p.state === 'failed' ? (
          <Permitted route="operation.order.offlinebuy" action="edit">
            <Button type="link" size="small" onClick={() => void retryOffline(p.id).then(() => mutate())}>
              {t('offline.retry')}
            </Button>
          </Permitted>
        ) : null,
    },
  ];
  return (
    <>
      <DataList<OfflinePurchase>
        rowKey="id"
        columns={columns}
        data={data}
        loading={loading}
        pagination={pagination}
        filters={
          <Select
            allowClear
            style={{ width: 160 }}
            placeholder={t('offline.state')}
            value={state}
            onChange={setState}
            options={(['recharged', 'not_recharged', 'failed'] as const).map((value) => ({
              value,
              label: t(`offline.states.${value}`),
            }))}
          />
        }
        actions={
          <Permitted route="operation.order.offlinebuy" action="add">
            <Button type="primary" onClick={() => setOpen(true)}>
              {t('offline.add')}
            </Button>
          </Permitted>
        }
      />
      <Modal
        open={open}
        title={t('offline.add')}
        onCancel={() => setOpen(false)}
        onOk={() => form.submit()}
        confirmLoading={submitting}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" onFinish={submit} initialValues={{ months: 12 }}>
          <Form.Item
            name="deviceGuid"
            label={t('offline.guid')}
            rules={[{ required: true, pattern: /^\d{1,20}$/, message: t('offline.guidRule') }]}
          >
            <Input maxLength={20} />
          </Form.Item>
          <PackageLevelFields packages={packages} />
          <Form.Item
            name="contract"
            label={t('offline.contract')}
            rules={[{ max: 50, message: t('max', { max: 50 }) }]}
          >
            <Input maxLength={50} />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
