/**
 * The pay pages outside the console shell: /mobilePay/pay (choose how to pay an order: WeChat in its
 * messaging browser with the open id, H5 elsewhere; Alipay wap; PayPal), /mobilePay/success,
 * /mobilePay/paypal/callback and /cancel (PayPal returns there), and /receipt (printable).
 */
import { Button, Card, Descriptions, Result, Space, Spin, Typography } from 'antd';
import Link from 'next/link';
import { useRouter } from 'next/router';
import { useTranslation } from 'next-i18next/pages';
import { useEffect, useState } from 'react';
import styled from 'styled-components';
import { aliPay, confirmPay, money, payPal, publicPayOrderKey, wechatPay, type Order } from '@/api/billing';
import { get } from '@/api/client';
import { formatTime } from '@/lib/format';
import { useRead } from '@/hooks/useRead';
import { PageHead } from '@/components/ui/PageHead';
import { MissingIdNotice, needsSignIn, ReadFailedNotice, SignInNotice } from '@/components/ui/PublicNotice';
import { StatusTag, WechatQr } from './RechargeView';
import { returnPathOf } from './returnPath';

const Narrow = styled.div`
  max-width: 480px;
  margin: 24px auto;
  padding: 0 12px;
`;

function useOrderCode(): string | null {
  const { query } = useRouter();
  return typeof query.orderCode === 'string' ? query.orderCode : null;
}

/** The success page, keeping the way back the paying page was given (?back=). */
function successPath(orderCode: string, back: unknown): string {
  const query = new URLSearchParams({ orderCode });
  if (typeof back === 'string') query.set('back', back);
  return `/mobilePay/success?${query.toString()}`;
}

/** Device service extends the devices; other orders (a calibration) are just paid. */
function paidTitle(t: (key: string) => string, order?: Order | null): string {
  return !order || order.purpose === 'service' ? t('pay.paid') : t('pay.received');
}

/**
 * What a public order page shows instead of the order: no order number in its address, a payer
 * who must sign in first, or the read's failure; null while it loads or once it is there.
 */
function orderUnavailable(orderCode: string | null, order: Order | undefined, error: unknown, what: string) {
  if (!orderCode) return <MissingIdNotice what={what} />;
  if (order || !error) return null;
  return needsSignIn(error) ? <SignInNotice what={what} /> : <ReadFailedNotice error={error} />;
}

function inWeChat(): boolean {
  return typeof navigator !== 'undefined' && /MicroMessenger/i.test(navigator.userAgent);
}

export function MobilePayView() {
  const { t } = useTranslation('billing');
  const router = useRouter();
  const orderCode = useOrderCode();
  const { data: order, error } = useRead<Order>(orderCode ? publicPayOrderKey(orderCode) : null, {
    shouldRetryOnError: false,
  });
  const [codeUrl, setCodeUrl] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const head = <PageHead name={t('pay.title')} />;
  const unavailable = orderUnavailable(orderCode, order, error, t('pay.order'));
  if (unavailable || !orderCode || !order)
    return (
      <Narrow>
        {head}
        {unavailable ?? <Spin />}
      </Narrow>
    );
  const back = router.query.back;
  const done = () => void router.push(successPath(orderCode, back));
  // Paid (here, or the QR code's poll saw it first): the result, the order and the way back.
  if (order.payStatus !== 'unpaid')
    return (
      <Narrow>
        {head}
        {order.payStatus === 'paid' ? (
          <div data-testid="pay-result">
            <Result status="success" title={paidTitle(t, order)} />
          </div>
        ) : null}
        <OrderSummary order={order} />
        <Link
          href={returnPathOf(back, order)}
          style={{ display: 'inline-block', marginTop: 16 }}
          data-testid="pay-return"
        >
          {t('pay.return')}
        </Link>
      </Narrow>
    );
  const wechat = async () => {
    setBusy(true);
    try {
      if (inWeChat() && typeof router.query.code === 'string') {
        const { openId } = await get<{ openId: string }>('/payment/payment/getOpenId', { code: router.query.code });
        const pay = await wechatPay(orderCode, 'jsapi', openId);
        (
          window as unknown as { WeixinJSBridge?: { invoke: (n: string, p: unknown, cb: () => void) => void } }
        ).WeixinJSBridge?.invoke('getBrandWCPayRequest', (pay as unknown as { jsapi: unknown }).jsapi, done);
      } else {
        const pay = await wechatPay(orderCode, 'native');
        setCodeUrl(pay.codeUrl ?? null);
      }
    } finally {
      setBusy(false);
    }
  };
  const redirect = async (which: 'alipay' | 'paypal') => {
    setBusy(true);
    try {
      const answer = which === 'alipay' ? await aliPay(orderCode, 'wap') : await payPal(orderCode);
      const target = answer.payUrl ?? answer.approveUrl;
      if (target) window.location.assign(target);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Narrow>
      {head}
      <Card title={t('pay.title')} data-testid="mobile-pay">
        <Typography.Title level={3}>{money(order.payFee, order.currency)}</Typography.Title>
        <Typography.Paragraph type="secondary">
          {t('field.orderCode')}: {order.orderCode}
        </Typography.Paragraph>
        {codeUrl ? (
          <WechatQr codeUrl={codeUrl} orderCode={orderCode} paidTitle={paidTitle(t, order)} onPaid={done} />
        ) : (
          <Space direction="vertical" style={{ width: '100%' }}>
            <Button block type="primary" loading={busy} onClick={() => void wechat()} data-testid="mobile-pay-wechat">
              {t('method.wechat')}
            </Button>
            <Button block loading={busy} onClick={() => void redirect('alipay')}>
              {t('method.alipay')}
            </Button>
            <Button block loading={busy} onClick={() => void redirect('paypal')}>
              {t('method.paypal')}
            </Button>
          </Space>
        )}
      </Card>
    </Narrow>
  );
}

function OrderSummary({ order }: { order: Order }) {
  const { t } = useTranslation('billing');
  return (
    <Descriptions bordered column={1} size="small" data-testid="order-summary">
      <Descriptions.Item label={t('field.orderCode')}>{order.orderCode}</Descriptions.Item>
      <Descriptions.Item label={t('field.package')}>
        {[order.packageName, order.levelName].filter(Boolean).join(' / ') || order.description || '-'}
      </Descriptions.Item>
      <Descriptions.Item label={t('field.duration')}>
        {order.months
          ? t('buy.months', { count: order.months })
          : order.freeDays
            ? t('buy.days', { count: order.freeDays })
            : '-'}
      </Descriptions.Item>
      <Descriptions.Item label={t('field.orderFee')}>{money(order.orderFee, order.currency)}</Descriptions.Item>
      <Descriptions.Item label={t('field.payFee')}>{money(order.payFee, order.currency)}</Descriptions.Item>
      <Descriptions.Item label={t('field.payStatus')}>
        <StatusTag status={order.payStatus} />
      </Descriptions.Item>
      <Descriptions.Item label={t('field.payType')}>
        {order.payType ? t(`payType.${order.payType}`) : '-'}
      </Descriptions.Item>
      <Descriptions.Item label={t('field.gmtCreate')}>{formatTime(order.gmtCreate)}</Descriptions.Item>
      <Descriptions.Item label={t('field.payTime')}>{formatTime(order.payTime)}</Descriptions.Item>
      {order.devices.map((d) => (
        <Descriptions.Item key={d.deviceId} label={d.deviceGuid}>
          {t('receipt.until', { date: formatTime(d.expiresAfter ?? d.expiresBefore, 'YYYY-MM-DD') })}
        </Descriptions.Item>
      ))}
    </Descriptions>
  );
}

export function MobilePaySuccessView() {
  const { t } = useTranslation('billing');
  const router = useRouter();
  const orderCode = useOrderCode();
  const { data: order, error } = useRead<Order>(orderCode ? publicPayOrderKey(orderCode) : null, {
    refreshInterval: (o) => (o?.payStatus === 'paid' ? 0 : 2000),
    shouldRetryOnError: false,
  });
  const head = <PageHead name={t('pay.successTitle')} />;
  const unavailable = orderUnavailable(orderCode, order, error, t('pay.order'));
  // Signed out, no number, or a failed read: said, never "waiting for the payment" for ever.
  if (unavailable)
    return (
      <Narrow>
        {head}
        {unavailable}
      </Narrow>
    );
  if (!order)
    return (
      <Narrow>
        {head}
        <Spin />
      </Narrow>
    );
  return (
    <Narrow>
      {head}
      <div data-testid="pay-result">
        <Result
          status={order?.payStatus === 'paid' ? 'success' : 'info'}
          title={order?.payStatus === 'paid' ? paidTitle(t, order) : t('pay.waiting')}
        />
      </div>
      {order ? <OrderSummary order={order} /> : null}
      <Space style={{ marginTop: 16 }}>
        <Link href={returnPathOf(router.query.back, order)} data-testid="pay-return">
          {order && order.purpose !== 'service' ? t('pay.return') : t('pay.back')}
        </Link>
      </Space>
    </Narrow>
  );
}

/** PayPal sends the payer back with ?token=<PayPal order id>: the server captures it now. */
export function PayPalCallbackView({ cancelled = false }: { cancelled?: boolean }) {
  const { t } = useTranslation('billing');
  const router = useRouter();
  const [order, setOrder] = useState<Order | null>(null);
  const [failed, setFailed] = useState(false);
  const token = typeof router.query.token === 'string' ? router.query.token : null;
  const orderCode = typeof router.query.orderCode === 'string' ? router.query.orderCode : null;
  useEffect(() => {
    if (cancelled || !token || !orderCode) return;
    confirmPay(orderCode, token).then(setOrder, () => setFailed(true));
  }, [cancelled, token, orderCode]);
  if (cancelled)
    return (
      <Narrow>
        <Result
          status="warning"
          title={t('pay.cancelled')}
          extra={<Link href={returnPathOf(undefined, order)}>{t('pay.back')}</Link>}
        />
      </Narrow>
    );
  if (failed)
    return (
      <Narrow>
        <Result status="error" title={t('pay.failed')} />
      </Narrow>
    );
  return (
    <Narrow>
      {order ? <OrderSummary order={order} /> : <Spin />}
      {order ? (
        <Link
          href={returnPathOf(undefined, order)}
          style={{ display: 'inline-block', marginTop: 16 }}
          data-testid="pay-return"
        >
          {t('pay.return')}
        </Link>
      ) : null}
    </Narrow>
  );
}

export function ReceiptView() {
  const { t } = useTranslation('billing');
  const orderCode = useOrderCode();
  const { data: order, error } = useRead<Order>(orderCode ? publicPayOrderKey(orderCode) : null, {
    shouldRetryOnError: false,
  });
  const unavailable = orderUnavailable(orderCode, order, error, t('pay.order'));
  return (
    <Narrow data-testid="receipt">
      <PageHead name={t('receipt.title')} />
      <Typography.Title level={3}>{t('receipt.title')}</Typography.Title>
      {unavailable ?? (order ? <OrderSummary order={order} /> : <Spin />)}
      <Button style={{ marginTop: 16 }} onClick={() => window.print()} className="no-print">
        {t('receipt.print')}
      </Button>
    </Narrow>
  );
}
