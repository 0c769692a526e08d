import { DesktopOutlined } from '@ant-design/icons';
import { Button, Card, Space, Typography } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useSiteBranding } from '@/lib/SiteContext';

/** Yearly price in cents as money in the page's language (CNY: the platform's prices are in yuan). */
export function formatYearlyPrice(cents: number, language: string): string {
  return new Intl.NumberFormat(language, { style: 'currency', currency: 'CNY' }).format(cents / 100);
}

/**
 * Business-domain 2: the home page's cloud-control large-screen promotion with its advertised yearly
 * price, a platform setting of the operator (cents); nothing is shown while the price is unset.
 */
export function CloudControlPromotion() {
  const { t, i18n } = useTranslation('device');
  const branding = useSiteBranding();
  const price = branding?.cloudControlYearlyPrice;
  if (!price) return null;
  return (
    <Card size="small" data-testid="home-cloud-control" style={{ marginBottom: 16 }}>
      <Space align="center" wrap style={{ width: '100%', justifyContent: 'space-between' }}>
        <Space align="start">
          <DesktopOutlined style={{ fontSize: 28 }} />
          <div>
            <Typography.Text strong>{t('home.cloudControl.title')}</Typography.Text>
            <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
              {t('home.cloudControl.text')}
            </Typography.Paragraph>
          </div>
        </Space>
        <Space>
          <Typography.Text strong data-testid="home-cloud-control-price">
            {t('home.cloudControl.price', { price: formatYearlyPrice(price, i18n.language) })}
          </Typography.Text>
          <Button type="primary" href="/storage/list">
            {t('home.cloudControl.action')}
          </Button>
        </Space>
      </Space>
    </Card>
  );
}
