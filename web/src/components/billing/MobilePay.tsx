/**
 * The pay pages outside the console shell: /mobilePay/pay (choose how to pay an order, by browser
 * (payFlow.ts): WeChat JSAPI in its messaging browser, H5 on a phone, the QR code on a desktop; Alipay
 * wap on a phone, page pay on a desktop; PayPal), /mobilePay/success,
 * /mobilePay/paypal/callback and /cancel (PayPal returns there); /receipt is Receipt.tsx.
 */
import { Alert, Button, Card, Descriptions, Result, Space, Spin, Typography } from 'antd';
import Link from 'next/link';
import { useRouter } from 'next/router';
import { useTranslation } from 'next-i18next/pages';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import styled from 'styled-components';
import {
  aliPay,
  confirmPay,
  money,
  payPal,
  publicPayOrderKey,
  wechatAuthorize,
  wechatOpenId,
  wechatPay,
  type Order,
} from '@/api/billing';
import { formatTime } from '@/lib/format';
import { useRead } from '@/hooks/useRead';
import { PageHead } from '@/components/ui/PageHead';
import { MissingIdNotice, needsSignIn, ReadFailedNotice, SignInNotice } from '@/components/ui/PublicNotice';
import { StatusTag, WechatQr } from './RechargeView';
import { alipayMode, alipayOffered, inWeChat, payInWeChat, wechatFlow } from './payFlow';
import { payerReturnPath, rememberReturn } from './returnPath';

export const Narrow = styled.div`
  max-width: 480px;
  margin: 24px auto;
  padding: 0 12px;
`;

/** The order's number: ours, or Alipay's out_trade_no when it returns to a configured returnUrl. */
export function useOrderCode(): string | null {
  const { query } = useRouter();
  const code = query.orderCode ?? query.out_trade_no;
  return typeof code === 'string' ? code : null;
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
export function orderUnavailable(orderCode: string | null, order: Order | undefined, error: unknown, what: string) {
  if (!orderCode) return <MissingIdNotice what={what} />;
  if (order || !error) return null;
  return needsSignIn(error) ? <SignInNotice what={what} /> : <ReadFailedNotice error={error} />;
}

const noChange = () => () => {};

/** The browser's user agent; '' on the server (and while hydrating), so both renders agree. */
function useUserAgent(): string {
  return useSyncExternalStore(
    noChange,
    () => navigator.userAgent,
    () => '',
  );
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
  const [note, setNote] = useState<string | null>(null);
  const openId = useRef<string | null>(null);
  const resumed = useRef(false);
  const userAgent = useUserAgent();
  const oauthCode = typeof router.query.code === 'string' ? router.query.code : null;
  const back = router.query.back;
  const done = () => void router.push(successPath(orderCode ?? '', back));
  // A provider's cashier returns with the order number only: the way back is kept for this tab.
  useEffect(() => rememberReturn(orderCode, back), [orderCode, back]);

  /** WeChat: JSAPI in its own browser (OAuth code -> open id -> the bridge), H5 on a phone, else the QR code. */
  const wechat = async () => {
    if (!orderCode) return;
    setBusy(true);
    setNote(null);
    try {
      const flow = wechatFlow(userAgent);
      if (flow === 'jsapi') {
        if (!openId.current && !oauthCode) {
          const { authorizeUrl } = await wechatAuthorize(orderCode);
          window.location.assign(authorizeUrl); // back here with ?code=, which pays on arrival
          return;
        }
        openId.current ??= (await wechatOpenId(oauthCode ?? '')).openId; // a code is good once only
        const pay = await wechatPay(orderCode, 'jsapi', openId.current);
        const outcome = pay.jsapi ? await payInWeChat(pay.jsapi) : 'failed';
        if (outcome === 'paid') done();
        else setNote(outcome === 'cancelled' ? t('pay.cancelled') : t('pay.failed'));
      } else if (flow === 'h5') {
        const pay = await wechatPay(orderCode, 'h5');
        if (pay.h5Url) window.location.assign(pay.h5Url); // WeChat's cashier sends the payer to the success page
      } else {
        const pay = await wechatPay(orderCode, 'native');
        setCodeUrl(pay.codeUrl ?? null);
      }
    } finally {
      setBusy(false);
    }
  };
  // Back from WeChat's OAuth with a code: the payment goes on without a second tap.
  useEffect(() => {
    if (resumed.current || !oauthCode || order?.payStatus !== 'unpaid' || !inWeChat(userAgent)) return;
    resumed.current = true;
    void wechat();
  });

  const head = <PageHead name={t('pay.title')} />;
  const unavailable = orderUnavailable(orderCode, order, error, t('pay.order'));
  if (unavailable || !orderCode || !order)
    return (
      <Narrow>
        {head}
        {unavailable ?? <Spin />}
      </Narrow>
    );
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
          href={payerReturnPath(back, order)}
          style={{ display: 'inline-block', marginTop: 16 }}
          data-testid="pay-return"
        >
          {t('pay.return')}
        </Link>
      </Narrow>
    );
  const redirect = async (which: 'alipay' | 'paypal') => {
    setBusy(true);
    try {
      const answer = which === 'alipay' ? await aliPay(orderCode, alipayMode(userAgent)) : await payPal(orderCode);
      const target = answer.payUrl ?? answer.approveUrl;
      if (target) window.location.assign(target);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Narrow>
      {head}
      <Card title={t('pay.title')} data-testid="mobile-pay" data-flow={wechatFlow(userAgent)}>
        <Typography.Title level={3}>{money(order.payFee, order.currency)}</Typography.Title>
        <Typography.Paragraph type="secondary">
          {t('field.orderCode')}: {order.orderCode}
        </Typography.Paragraph>
        {note ? (
          <Alert type="warning" showIcon message={note} style={{ marginBottom: 12 }} data-testid="pay-note" />
        ) : null}
        {codeUrl ? (
          <WechatQr codeUrl={codeUrl} orderCode={orderCode} paidTitle={paidTitle(t, order)} onPaid={done} />
        ) : (
          <Space direction="vertical" style={{ width: '100%' }}>
            <Button block type="primary" loading={busy} onClick={() => void wechat()} data-testid="mobile-pay-wechat">
              {t('method.wechat')}
            </Button>
            {alipayOffered(userAgent) ? (
              <Button block loading={busy} onClick={() => void redirect('alipay')} data-testid="mobile-pay-alipay">
                {t('method.alipay')}
              </Button>
            ) : (
              <Typography.Text type="secondary">{t('pay.alipayInWeChat')}</Typography.Text>
            )}
            <Button block loading={busy} onClick={() => void redirect('paypal')}>
              {t('method.paypal')}
            </Button>
          </Space>
        )}
      </Card>
    </Narrow>
  );
}

export function OrderSummary({ order }: { order: Order }) {
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
        <Link href={payerReturnPath(router.query.back, order)} data-testid="pay-return">
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
          extra={<Link href={payerReturnPath(undefined, order)}>{t('pay.back')}</Link>}
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
          href={payerReturnPath(undefined, order)}
          style={{ display: 'inline-block', marginTop: 16 }}
          data-testid="pay-return"
        >
          {t('pay.return')}
        </Link>
      ) : null}
    </Narrow>
  );
}
