/**
 * /receipt (printable): the order with its seller (the site's company: name, address, tax id), its
 * buyer (the account, with the tax id of its enterprise invoice details) and its tax. The platform keeps
 * no tax rate, so the total is said to include tax, never split by an invented rate.
 */
import { Button, Descriptions, Spin, Typography } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import type { ReactNode } from 'react';
import { money, receiptKey, type Receipt } from '@/api/billing';
import { useRead } from '@/hooks/useRead';
import { PageHead } from '@/components/ui/PageHead';
import { Narrow, OrderSummary, orderUnavailable, useOrderCode } from './MobilePay';

type Translate = (key: string) => string;

/** One part of a receipt: a bordered list of label / value rows. */
function Part({ title, testId, rows }: { title: string; testId: string; rows: [string, ReactNode][] }) {
  return (
    <Descriptions title={title} bordered column={1} size="small" data-testid={testId} style={{ marginBottom: 16 }}>
      {rows.map(([label, value]) => (
        <Descriptions.Item key={label} label={label}>
          {value}
        </Descriptions.Item>
      ))}
    </Descriptions>
  );
}

/** Seller, buyer and tax of a receipt (no hooks: the caller's `t`, so it renders anywhere). */
export function ReceiptParties({ receipt, t }: { receipt: Receipt; t: Translate }) {
  const { seller, buyer, tax } = receipt;
  return (
    <>
      <Part
        title={t('receipt.seller')}
        testId="receipt-seller"
        rows={[
          [t('receipt.company'), seller.name],
          [t('receipt.address'), seller.address || '-'],
          [t('receipt.taxId'), seller.taxId || '-'],
        ]}
      />
      <Part
        title={t('receipt.buyer')}
        testId="receipt-buyer"
        rows={[
          [t('receipt.name'), buyer.name],
          [t('receipt.company'), buyer.company || '-'],
          [t('receipt.taxId'), buyer.taxId || '-'],
        ]}
      />
      <Part
        title={t('receipt.tax')}
        testId="receipt-tax"
        rows={[
          [
            t('receipt.total'),
            <span key="total" data-cents={tax.total}>
              {money(tax.total, tax.currency)}
            </span>,
          ],
          [t('receipt.taxLabel'), tax.included ? t('receipt.taxIncluded') : t('receipt.taxExcluded')],
        ]}
      />
    </>
  );
}

export function ReceiptView() {
  const { t } = useTranslation('billing');
  const orderCode = useOrderCode();
  const { data: receipt, error } = useRead<Receipt>(orderCode ? receiptKey(orderCode) : null, {
    shouldRetryOnError: false,
  });
  const unavailable = orderUnavailable(orderCode, receipt?.order, error, t('pay.order'));
  return (
    <Narrow data-testid="receipt">
      <PageHead name={t('receipt.title')} />
      <Typography.Title level={3}>{t('receipt.title')}</Typography.Title>
      {unavailable ??
        (receipt ? (
          <>
            <ReceiptParties receipt={receipt} t={t} />
            <OrderSummary order={receipt.order} />
          </>
        ) : (
          <Spin />
        ))}
      <Button style={{ marginTop: 16 }} onClick={() => window.print()} className="no-print">
        {t('receipt.print')}
      </Button>
    </Narrow>
  );
}
