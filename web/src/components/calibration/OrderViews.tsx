import { DownloadOutlined, FilePdfOutlined } from '@ant-design/icons';
import {
  Alert,
  App,
  Button,
  Card,
  Descriptions,
  Empty,
  Form,
  Input,
  List,
  Modal,
  QRCode,
  Result,
  Select,
  Skeleton,
  Space,
  Table,
  Tag,
  Timeline,
  Typography,
} from 'antd';
import Link from 'next/link';
import { useRouter } from 'next/router';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import {
  applicationKey,
  cancelApply,
  explainKey,
  isCancelled,
  money,
  myOrdersKey,
  setTracking,
  STATUS,
  type Application,
  type ApplicationDetail,
  type Explanation,
  type Item,
  type OrderQuery,
} from '@/api/calibration';
import { formatTime } from '@/lib/format';
import { DataList } from '@/components/ui/DataList';
import { InfiniteList } from '@/components/ui/InfiniteList';
import { usePagedQuery } from '@/hooks/usePagedQuery';
import { useRead } from '@/hooks/useRead';
import { AdminActions, ResultsEditor } from './AdminViews';
import { isMobilePath } from './CalibrationLayout';
import { orderColumns, StatusTag, statusOptions } from './parts';
import { PayAction, PaymentInfo, RefundNotice } from './PayAction';
import { canPay } from './payment';
import { useCertificateDownload, useReportDownload } from './useCertificateDownload';

/** /calibration/orders: the customer's own orders. */
export function OrdersView() {
  const { t } = useTranslation('calibration');
  const [orderNo, setOrderNo] = useState('');
  const [status, setStatus] = useState<number | null>(null);
  const download = useCertificateDownload();
  const list = usePagedQuery<Application, Partial<OrderQuery>>(myOrdersKey, {
    orderNo: orderNo.trim() || null,
    status,
  });
  return (
    <Card title={t('nav.orders')}>
      <DataList<Application>
        rowKey="applicationId"
        testId="calibration-orders"
        columns={orderColumns(
          t,
          (row) => `/calibration/order/${row.applicationId}`,
          (row) => download(row),
        )}
        data={list.data}
        loading={list.loading}
        pagination={list.pagination}
        filters={
          <>
            <Input
              allowClear
              placeholder={t('layout.searchOrder')}
              value={orderNo}
              onChange={(e) => setOrderNo(e.target.value)}
              style={{ width: 220 }}
            />
            <Select
              allowClear
              placeholder={t('order.status')}
              value={status}
              onChange={(v) => setStatus(v ?? null)}
              options={statusOptions(t)}
              style={{ width: 200 }}
            />
          </>
        }
        actions={
          <Link href="/calibration/form">
            <Button type="primary">{t('nav.apply')}</Button>
          </Link>
        }
      />
    </Card>
  );
}

/** The phone's order list (home when signed in), searched by order number from the layout's search box. */
export function MobileOrderList() {
  const { t } = useTranslation('calibration');
  const router = useRouter();
  const orderNo = typeof router.query.orderNo === 'string' ? router.query.orderNo : null;
  const download = useCertificateDownload();
  return (
    <Card title={t('nav.orders')} size="small" data-testid="calibration-mobile-orders">
      <List>
        <InfiniteList<Application, Partial<OrderQuery>>
          request={myOrdersKey}
          filters={{ orderNo }}
          rowKey={(row) => row.applicationId}
          empty={<Empty description={t('order.none')} />}
          testId="calibration-mobile-order-list"
          renderItem={(row) => (
            <List.Item
              actions={[
                row.calibrationStatus === STATUS.completed || isCancelled(row.calibrationStatus) ? (
                  <Button
                    key="pdf"
                    size="small"
                    icon={<FilePdfOutlined />}
                    onClick={() => download(row)}
                    data-testid={`calibration-download-${row.orderNo}`}
                  >
                    PDF
                  </Button>
                ) : null,
              ]}
            >
              <List.Item.Meta
                title={<Link href={`/mobile/calibration/order/${row.applicationId}`}>{row.orderNo}</Link>}
                description={
                  <Space size={4} wrap>
                    <StatusTag status={row.calibrationStatus} />
                    <span>{row.items.map((item) => item.deviceModel).join(', ')}</span>
                  </Space>
                }
              />
            </List.Item>
          )}
        />
      </List>
    </Card>
  );
}

function TrackingForm({ order, onDone }: { order: ApplicationDetail; onDone: () => void }) {
  const { t } = useTranslation('calibration');
  const [busy, setBusy] = useState(false);
  return (
    <Form
      layout="inline"
      onFinish={async (values: { trackingCompany: string; trackingNumber: string }) => {
        setBusy(true);
        try {
          if (await setTracking(order.applicationId, values.trackingCompany.trim(), values.trackingNumber.trim()))
            onDone();
        } finally {
          setBusy(false);
        }
      }}
      data-testid="calibration-tracking-form"
    >
      <Form.Item name="trackingCompany" rules={[{ required: true, whitespace: true, message: t('rules.required') }]}>
        <Input placeholder={t('tracking.company')} maxLength={50} />
      </Form.Item>
      <Form.Item
        name="trackingNumber"
        rules={[{ required: true, pattern: /^[A-Za-z0-9-]{4,50}$/, message: t('rules.tracking') }]}
      >
        <Input placeholder={t('tracking.number')} maxLength={50} data-testid="calibration-tracking-number" />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={busy} data-testid="calibration-tracking-submit">
        {t('tracking.submit')}
      </Button>
    </Form>
  );
}

function CancelRequest({ order, onDone }: { order: ApplicationDetail; onDone: () => void }) {
  const { t } = useTranslation('calibration');
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  return (
    <>
      <Button danger onClick={() => setOpen(true)} data-testid="calibration-cancel-request">
        {t('cancel.request')}
      </Button>
      <Modal
        open={open}
        title={t('cancel.request')}
        okButtonProps={{ disabled: !reason.trim(), danger: true }}
        onCancel={() => setOpen(false)}
        onOk={async () => {
          if (await cancelApply(order.applicationId, reason.trim())) {
            setOpen(false);
            onDone();
          }
        }}
      >
        <Input.TextArea
          rows={3}
          maxLength={200}
          placeholder={t('cancel.reason')}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
        />
        {order.payment?.payStatus === 'paid' ? (
          <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
            {t(order.payment.payType === 'offline' ? 'cancel.refundByLab' : 'cancel.refund')}
          </Typography.Paragraph>
        ) : null}
      </Modal>
    </>
  );
}

function ItemsTable({ order, mobile }: { order: ApplicationDetail; mobile: boolean }) {
  const { t } = useTranslation('calibration');
  const download = useCertificateDownload();
  const certs = new Map(order.certificates.map((c) => [c.itemId, c]));
  return (
    <Table<Item>
      size="small"
      rowKey="itemId"
      pagination={false}
      scroll={{ x: true }}
      dataSource={order.items}
      columns={[
        { key: 'm', title: t('item.deviceModel'), dataIndex: 'deviceModel' },
        { key: 's', title: t('item.serial'), dataIndex: 'serial' },
        ...(mobile ? [] : [{ key: 'q', title: t('item.quantity'), dataIndex: 'quantity' }]),
        {
          key: 'p',
          title: t('item.points'),
          render: (_: unknown, item: Item) => `${item.points.join(', ')} ${item.unit}`,
        },
        ...(mobile
          ? []
          : [{ key: 'l', title: t('item.level'), render: (_: unknown, item: Item) => t(`level.${item.level}`) }]),
        {
          key: 'cert',
          title: t('certificate.number'),
          render: (_: unknown, item: Item) => {
            const cert = certs.get(item.itemId);
            return cert ? (
              <Button type="link" size="small" onClick={() => download(order, item.itemId)}>
                {cert.certificateNumber}
              </Button>
            ) : (
              '-'
            );
          },
        },
      ]}
    />
  );
}

function ExplanationCard({ applicationId }: { applicationId: number }) {
  const { t } = useTranslation('calibration');
  const { data } = useRead<Explanation>(explainKey(applicationId));
  if (!data) return null;
  return (
    <Card title={t('result.explain')} size="small" data-testid="calibration-explain">
      {data.items.map((item) => (
        <Typography.Paragraph key={item.itemId}>
          <Typography.Text strong>{`${item.deviceModel} ${item.serial}: `}</Typography.Text>
          {item.passed === null ? null : item.passed ? (
            <Tag color="success">{t('result.pass')}</Tag>
          ) : (
            <Tag color="error">{t('result.fail')}</Tag>
          )}
          {item.explanation}
        </Typography.Paragraph>
      ))}
      <Typography.Paragraph type="secondary">{data.statement}</Typography.Paragraph>
    </Card>
  );
}

/** One order: summary, instruments, status history, shipping, cancellation, certificates; the lab's tools for admins. */
export function OrderDetailView({ id, admin = false }: { id: number; admin?: boolean }) {
  const { t } = useTranslation('calibration');
  const { t: tb } = useTranslation('billing');
  const router = useRouter();
  const { message } = App.useApp();
  const mobile = isMobilePath(router.pathname);
  const valid = Number.isInteger(id) && id > 0;
  const {
    data: order,
    error,
    isLoading,
    mutate,
  } = useRead<ApplicationDetail>(valid ? applicationKey(id) : null, { shouldRetryOnError: false });
  const download = useCertificateDownload();
  const downloadReport = useReportDownload();
  if (!valid || error) return <Result status="404" title={t('order.notFound')} />;
  if (isLoading || !order) return <Skeleton active />;
  const refresh = () => {
    void message.success(t('saved'));
    void mutate();
  };
  const status = order.calibrationStatus;
  const customer = order.owner && !admin;
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }} data-testid="calibration-order-detail">
      <Card
        title={
          <Space wrap>
            <span data-testid="calibration-order-no">{order.orderNo}</span>
            <StatusTag status={status} />
          </Space>
        }
        extra={
          admin ? (
            <Link href="/calibration/admin/quick" data-testid="calibration-quick-list-link-card">
              {t('nav.quickList')}
            </Link>
          ) : null
        }
      >
        <Descriptions column={mobile ? 1 : 3} size="small">
          <Descriptions.Item label={t('base.company')}>{order.company}</Descriptions.Item>
          <Descriptions.Item label={t('base.contact')}>{order.contact}</Descriptions.Item>
          <Descriptions.Item label={t('base.phone')}>{order.phone}</Descriptions.Item>
          <Descriptions.Item label={t('order.total')}>{money(order.totalPrice, order.currency)}</Descriptions.Item>
          <Descriptions.Item label={t('tracking.number')}>
            {order.trackingNumber ? `${order.trackingCompany ?? ''} ${order.trackingNumber}` : '-'}
          </Descriptions.Item>
          <Descriptions.Item label={t('order.created')}>{formatTime(order.gmtCreate)}</Descriptions.Item>
        </Descriptions>
        <PaymentInfo payment={order.payment} />
        {status === STATUS.submitted ? (
          <Alert
            style={{ marginTop: 12 }}
            type="info"
            showIcon
            message={t(canPay(order, admin) ? 'pay.hint' : 'preview.payment')}
          />
        ) : null}
        {isCancelled(status) ? <RefundNotice order={order} /> : null}
        {order.cancelRequested ? (
          <Alert
            style={{ marginTop: 12 }}
            type="warning"
            showIcon
            message={t('cancel.waiting', { reason: order.cancelReason ?? '' })}
          />
        ) : null}
        {isCancelled(status) && order.cancelAnswer ? (
          <Alert style={{ marginTop: 12 }} type="error" showIcon message={order.cancelAnswer} />
        ) : null}
        <Space style={{ marginTop: 12 }} wrap>
          {canPay(order, admin) ? <PayAction order={order} mobile={mobile} onPaid={() => void mutate()} /> : null}
          {status === STATUS.completed || isCancelled(status) ? (
            <Button
              type="primary"
              icon={<FilePdfOutlined />}
              onClick={() => download(order)}
              data-testid="calibration-download"
            >
              {t('order.certificate')}
            </Button>
          ) : null}
          {order.hasReport ? (
            <Button
              icon={<DownloadOutlined />}
              onClick={() => downloadReport(order)}
              data-testid="calibration-download-report"
            >
              {t('order.report')}
            </Button>
          ) : null}
          {customer && status <= STATUS.shipped && !order.cancelRequested ? (
            <CancelRequest order={order} onDone={refresh} />
          ) : null}
        </Space>
        {customer && status === STATUS.confirmed ? (
          <div style={{ marginTop: 12 }}>
            <Typography.Paragraph>{t('tracking.hint')}</Typography.Paragraph>
            <TrackingForm order={order} onDone={refresh} />
          </div>
        ) : null}
      </Card>
      {admin ? <AdminActions order={order} onDone={refresh} /> : null}
      <Card title={t('form.items')} size="small">
        <ItemsTable order={order} mobile={mobile} />
      </Card>
      {admin ? <ResultsEditor order={order} onDone={refresh} /> : null}
      {status >= STATUS.calibrating && !isCancelled(status) ? (
        <ExplanationCard applicationId={order.applicationId} />
      ) : null}
      {order.certificates.length ? (
        <Card title={t('certificate.qr')} size="small">
          <Space wrap size="large">
            {order.certificates.map((cert) => (
              <Space key={cert.itemId} direction="vertical" align="center">
                <QRCode value={cert.url} size={mobile ? 120 : 140} />
                <a href={cert.url} target="_blank" rel="noreferrer" data-testid="calibration-verify-link">
                  {cert.certificateNumber}
                </a>
              </Space>
            ))}
          </Space>
        </Card>
      ) : null}
      <Card title={t('order.history')} size="small">
        <Timeline
          data-testid="calibration-history"
          items={order.history.map((row) => ({
            children: (
              <>
                <Typography.Text strong>
                  {row.payment && row.fromStatus === row.toStatus ? t('pay.label') : t(`status.${row.toStatus}`)}
                </Typography.Text>{' '}
                <Typography.Text type="secondary">{formatTime(row.gmtCreate)}</Typography.Text>
                {row.payment ? (
                  <div data-testid="calibration-history-payment" data-payment={row.payment}>
                    {t(`pay.event.${row.payment}`, {
                      payType: row.payType ? tb(`payType.${row.payType}`) : '-',
                      orderCode: row.orderCode ?? '',
                    })}
                  </div>
                ) : null}
                {row.note ? <div>{row.note}</div> : null}
              </>
            ),
          }))}
        />
      </Card>
    </Space>
  );
}
