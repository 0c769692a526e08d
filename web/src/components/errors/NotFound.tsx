import { Button, Result } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { CenteredPage } from '@/components/ui/CenteredPage';
import { PageHead } from '@/components/ui/PageHead';

/** Error page 404 of spec section 2.3: page missing or in development, with back to home. */
export function NotFound() {
  const { t } = useTranslation('common');
  return (
    <CenteredPage>
      <PageHead route="notFound" />
      <Result
        status="404"
        title={t('notFound.title')}
        subTitle={t('notFound.description')}
        extra={
          <Button type="primary" href="/">
            {t('notFound.backHome')}
          </Button>
        }
      />
    </CenteredPage>
  );
}
