/** The site's company as the seller on receipts: its address and tax id (its name is the enterprise name). */
import { Form, Input, Typography } from 'antd';
import { useTranslation } from 'next-i18next/pages';

export function SellerFields() {
  const { t } = useTranslation('customization');
  return (
    <>
      <Typography.Title level={5}>{t('section.seller')}</Typography.Title>
      <Form.Item
        name="companyAddress"
        label={t('field.companyAddress')}
        extra={t('seller.hint')}
        rules={[{ max: 200, message: t('form.max', { max: 200 }) }]}
      >
        <Input maxLength={200} />
      </Form.Item>
      <Form.Item name="taxId" label={t('field.taxId')} rules={[{ max: 30, message: t('form.max', { max: 30 }) }]}>
        <Input maxLength={30} />
      </Form.Item>
    </>
  );
}
