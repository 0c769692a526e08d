/**
 * /receipt (printable): the order with its seller (the site's company: name, address, tax id), its
 * buyer (the account, with the tax id of its enterprise invoice details) and its tax. The platform keeps
 * no tax rate, so the total is said to include tax, never split by an invented rate.
 */
import { Button, Descriptions, Spin, Typography } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { money, receiptKey, type Receipt } from '@/api/billing';
import { useRead } from '@/hooks/useRead';
import { PageHead } from '@/components/ui/PageHead';
import { Narrow, OrderSummary, orderUnavailable, useOrderCode } from './MobilePay';

type Translate = (key: string) => string;

/** Seller, buyer and tax of a receipt (no hooks: the caller's `t`, so it renders anywhere). */
export function ReceiptParties({ receipt, t }: { receipt: Receipt; t: Translate }) {
  const { seller, buyer, tax } = receipt;
  return (
    <>
      <Descriptions
        title={t('receipt.seller')}
        bordered
        column={1}
        size="small"
        data-testid="receipt-seller"
        style={{ marginBottom: 16 }}
      >
        <Descriptions.Item label={t('receipt.company')}>{seller.name}</Descriptions.Item>
        <Descriptions.Item label={t('receipt.address')}>{seller.address || '-'}</Descriptions.Item>
        <Descriptions.Item label={t('receipt.taxId')}>{seller.taxId || '-'}</Descriptions.Item>
      </Descriptions>
      <Descriptions
        title={t('receipt.buyer')}
        bordered
        column={1}
        size="small"
        data-testid="receipt-buyer"
        style={{ marginBottom: 16 }}
      >
        <Descriptions.Item label={t('receipt.name')}>{buyer.name}</Descriptions.Item>
        <Descriptions.Item label={t('receipt.company')}>{buyer.company || '-'}</Descriptions.Item>
        <Descriptions.Item label={t('receipt.taxId')}>{buyer.taxId || '-'}</Descriptions.Item>
      </Descriptions>
      <Descriptions
        title={t('receipt.tax')}
        bordered
        column={1}
        size="small"
        data-testid="receipt-tax"
        style={{ marginBottom: 16 }}
      >
        <Descriptions.Item label={t('receipt.total')}>
          <span data-cents={tax.total}>{money(tax.total, tax.currency)}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('receipt.taxLabel')}>
          {tax.included ? t('receipt.taxIncluded') : t('receipt.taxExcluded')}
        </Descriptions.Item>
      </Descriptions>
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
