/**
 * Paying a calibration order through the payment area: the server opens (or reuses) the order and
 * prices it; the desktop pays in a dialog (WeChat QR code watched until paid, Alipay / PayPal pages),
 * the phone on the payment area's own page (/mobilePay/pay), which brings the payer back to the order.
 */
import { Alert, Button, Descriptions, Modal, Radio, Space, Typography } from 'antd';
import { useRouter } from 'next/router';
import { useTranslation } from 'next-i18next/pages';
import { useState } from 'react';
import { money, payOrder, type ApplicationDetail, type ApplicationPayment } from '@/api/calibration';
import { StatusTag as PayStatusTag, startPayment, WechatQr, type PayMethod } from '@/components/billing/RechargeView';
import { formatTime } from '@/lib/format';
import { mobilePayPath, orderPath } from './payment';

const METHODS: PayMethod[] = ['wechat', 'alipay', 'paypal'];

export function PayAction({
  order,
  mobile,
  onPaid,
}: {
  order: ApplicationDetail;
  mobile: boolean;
  onPaid: () => void;
}) {
  const { t } = useTranslation('calibration');
  const { t: tb } = useTranslation('billing');
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [payment, setPayment] = useState<ApplicationPayment | null>(null);
  const [method, setMethod] = useState<PayMethod>('wechat');
  const [codeUrl, setCodeUrl] = useState<string | null>(null);
  const open = async () => {
    setBusy(true);
    try {
      const opened = await payOrder(order.applicationId);
      if (opened.payStatus === 'paid') {
        onPaid(); // nothing to pay: confirmed at once
      } else if (mobile) {
        void router.push(mobilePayPath(opened.orderCode, orderPath(order.applicationId, true)));
      } else {
        setCodeUrl(null);
        setPayment(opened);
      }
    } finally {
      setBusy(false);
    }
  };
  const pay = async () => {
    if (!payment) return;
    setBusy(true);
    try {
      setCodeUrl(await startPayment(payment, method));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button type="primary" loading={busy && !payment} onClick={() => void open()} data-testid="calibration-pay">
        {t('pay.action', { total: money(order.totalPrice, order.currency) })}
      </Button>
      <Modal
        open={Boolean(payment)}
        title={t('pay.title', { no: order.orderNo })}
        onCancel={() => {
          setPayment(null);
          onPaid(); // whatever happened, show the order as it now is
        }}
        footer={null}
        destroyOnHidden
      >
        {payment ? (
          <Space direction="vertical" style={{ width: '100%' }} data-testid="calibration-pay-dialog">
            <Typography.Title
              level={3}
              style={{ margin: 0 }}
              data-testid="calibration-pay-amount"
              data-cents={payment.payFee}
            >
              {money(payment.payFee, payment.currency)}
            </Typography.Title>
            {codeUrl ? null : (
              <Typography.Text type="secondary">
                {tb('field.orderCode')}: {payment.orderCode}
              </Typography.Text>
            )}
            {codeUrl ? (
              <WechatQr
                codeUrl={codeUrl}
                orderCode={payment.orderCode}
                paidTitle={t('pay.paid')}
                onPaid={() => {
                  setPayment(null);
                  onPaid();
                }}
              />
            ) : (
              <>
                <Radio.Group
                  value={method}
                  onChange={(e) => setMethod(e.target.value as PayMethod)}
                  data-testid="calibration-pay-method"
                >
                  {METHODS.map((m) => (
                    <Radio.Button key={m} value={m}>
                      {tb(`method.${m}`)}
                    </Radio.Button>
                  ))}
                </Radio.Group>
                <Button type="primary" loading={busy} onClick={() => void pay()} data-testid="calibration-pay-start">
                  {t('pay.start')}
                </Button>
              </>
            )}
            <Typography.Text type="secondary">{t('pay.offline')}</Typography.Text>
          </Space>
        ) : null}
      </Modal>
    </>
  );
}

/** The payment as the order detail shows it (the lab sees it too). */
export function PaymentInfo({ payment }: { payment: ApplicationPayment | null }) {
  const { t } = useTranslation('calibration');
  const { t: tb } = useTranslation('billing');
  if (!payment) return null;
  return (
    <Descriptions
      column={1}
      size="small"
      style={{ marginTop: 12 }}
      data-testid="calibration-payment"
      data-pay-status={payment.payStatus}
    >
      <Descriptions.Item label={t('pay.label')}>
        <Space wrap>
          <PayStatusTag status={payment.payStatus} />
          {money(payment.payFee, payment.currency)}
          {payment.payType ? tb(`payType.${payment.payType}`) : null}
          <Typography.Text type="secondary">{payment.orderCode}</Typography.Text>
          {payment.payTime ? <Typography.Text type="secondary">{formatTime(payment.payTime)}</Typography.Text> : null}
        </Space>
      </Descriptions.Item>
    </Descriptions>
  );
}

/** A cancelled order's payment: refunded through its provider, or given back by the lab (a bank transfer). */
export function RefundNotice({ order }: { order: ApplicationDetail }) {
  const { t } = useTranslation('calibration');
  const event = [...order.history]
    .reverse()
    .find((row) => row.payment === 'refunded' || row.payment === 'refund_by_lab');
  if (!event) return null;
  return (
    <Alert
      style={{ marginTop: 12 }}
      type="info"
      showIcon
      message={t(event.payment === 'refunded' ? 'pay.refunded' : 'pay.refundByLab')}
      data-testid="calibration-refund"
    />
  );
}
