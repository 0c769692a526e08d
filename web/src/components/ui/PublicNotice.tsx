import { Button, Result } from 'antd';
import Link from 'next/link';
import { useRouter } from 'next/router';
import { useTranslation } from 'next-i18next/pages';
import { ApiError } from '@/api/errors';
import { loginRedirectFor } from '@/api/session';

/**
 * What a public page (a pay link, a receipt) shows instead of spinning: the id it needs is missing
 * from its address, or the thing it shows needs the payer to sign in first (and comes back here).
 */
export function MissingIdNotice({ what }: { what: string }) {
  const { t } = useTranslation('common');
  return (
    <div data-testid="public-missing-id">
      <Result
        status="warning"
        title={t('publicPage.missingId', { what })}
        subTitle={t('publicPage.missingIdHint', { what })}
      />
    </div>
  );
}

/** A read refused for want of a session (signed out, or the session ended). */
export function needsSignIn(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  const { kind, status } = error.failure;
  return kind === 'sessionExpired' || status === 401 || status === 403;
}

export function SignInNotice({ what }: { what: string }) {
  const { t } = useTranslation('common');
  const router = useRouter();
  return (
    <div data-testid="public-sign-in">
      <Result
        status="info"
        title={t('publicPage.signIn', { what })}
        extra={
          <Link href={loginRedirectFor(router.asPath)}>
            <Button type="primary">{t('publicPage.signInAction')}</Button>
          </Link>
        }
      />
    </div>
  );
}

/** Any other failure of the page's read: said, never an endless spinner. */
export function ReadFailedNotice({ error }: { error: unknown }) {
  const { t } = useTranslation('common');
  const message = error instanceof ApiError ? error.failure.serverMessage || t(error.failure.messageKey) : '';
  return (
    <div data-testid="public-read-failed">
      <Result status="error" title={message || t('errors.requestFailed')} />
    </div>
  );
}
