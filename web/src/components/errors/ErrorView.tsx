import { Button, Result } from 'antd';
import { useRouter } from 'next/router';
import { useTranslation } from 'next-i18next/pages';

export type ErrorStatus = 403 | 404 | 500;

const SECTION: Record<ErrorStatus, string> = { 403: 'forbidden', 404: 'notFound', 500: 'serverError' };

/**
 * Error pages of spec section 2.3: 403 (no access), 404 (page missing or in development) and 500
 * (server error), each with a back-to-home button. Used alone (CenteredPage) and inside the shell.
 */
export function ErrorView({ status, home = '/' }: { status: ErrorStatus; home?: string }) {
  const { t } = useTranslation('common');
  const router = useRouter();
  const section = SECTION[status];
  return (
    <Result
      status={String(status) as '403' | '404' | '500'}
      title={t(`${section}.title`)}
      subTitle={t(`${section}.description`)}
      extra={
        <Button
          type="primary"
          href={home}
          data-testid="back-home"
          onClick={(event) => {
            event.preventDefault();
            void router.push(home);
          }}
        >
          {t('notFound.backHome')}
        </Button>
      }
    />
  );
}
