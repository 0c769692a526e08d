import { Button, Result } from 'antd';
import { useRouter } from 'next/router';
import { useTranslation } from 'next-i18next/pages';
import { useEffect, useRef } from 'react';

export type ErrorStatus = 403 | 404 | 500;

const SECTION: Record<ErrorStatus, string> = { 403: 'forbidden', 404: 'notFound', 500: 'serverError' };
/** The illustration's name (route names of common.json: "Page Not Found", "Server Error" ...). */
const ILLUSTRATION: Record<ErrorStatus, string> = {
  403: 'errors.accessDenied',
  404: 'routes.notFound',
  500: 'routes.serverError',
};

/**
 * Error pages of spec section 2.3: 403 (no access), 404 (page missing or in development) and 500
 * (server error), each with a back-to-home button. Used alone (CenteredPage) and inside the shell.
 */
export function ErrorView({ status, home = '/' }: { status: ErrorStatus; home?: string }) {
  const { t } = useTranslation('common');
  const router = useRouter();
  const section = SECTION[status];
  const description = t(`${section}.description`);
  const illustration = t(ILLUSTRATION[status]);
  const frame = useRef<HTMLDivElement>(null);
  // antd's illustrations carry an English <title> ("No Found", "Server Error": the tooltip and what a
  // screen reader says): it is given the page's name in the page's language.
  useEffect(() => {
    const title = frame.current?.querySelector('svg > title');
    if (title) title.textContent = illustration;
  }, [illustration]);
  return (
    <div ref={frame} data-testid={`error-${status}`}>
      <Result
        status={String(status) as '403' | '404' | '500'}
        title={t(`${section}.title`)}
        subTitle={description}
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
    </div>
  );
}
