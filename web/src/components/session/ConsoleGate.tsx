import { Spin } from 'antd';
import { useRouter } from 'next/router';
import { useTranslation } from 'next-i18next/pages';
import { useEffect, type ReactNode } from 'react';
import { loginRedirectFor } from '@/api/session';
import { ConsoleLayout } from '@/components/shell/ConsoleLayout';
import { useMenuLabel } from '@/components/shell/menuLabel';
import { CenteredPage } from '@/components/ui/CenteredPage';
import { PageHead } from '@/components/ui/PageHead';
import { startFirstReads, type FirstReads } from '@/lib/firstReads';
import { routeAccess } from '@/routes/access';
import type { RouteMatch } from '@/routes/match';
import { safeRedirect } from '@/utils/redirect';
import { useSession } from '@/lib/SessionContext';

function Waiting({ title }: { title: ReactNode }) {
  return (
    <CenteredPage>
      {title}
      <Spin size="large" data-testid="session-loading" />
    </CenteredPage>
  );
}

/**
 * Spec 2.1 for routes that need a sign-in: without a token, the sign-in page of the path's area
 * (coming back afterwards); on the first entry the account info is loaded and the routes built,
 * then the `redirect` query is honoured; console routes open inside the shell when permitted, with
 * the 403 page when not and the 404 page when the site has no such page.
 */
export function ConsoleGate({
  match,
  firstReads,
  children,
}: {
  match: RouteMatch;
  /** The page's first reads, started while the account info loads (not once the page can open at once). */
  firstReads?: FirstReads;
  children: ReactNode;
}) {
  const router = useRouter();
  const session = useSession();
  const label = useMenuLabel();
  const { t } = useTranslation('common');
  const { status, access } = session;
  const { route } = match;
  const calibration = route.kind === 'calibration';
  const head = calibration ? (
    <PageHead fixed={t('routes.calibrationService')} />
  ) : (
    <PageHead name={label(route.name)} />
  );

  useEffect(() => {
    if (status === 'anonymous') void router.replace(loginRedirectFor(router.asPath));
  }, [status, router]);

  // The first entry waits for the account info: the page's own reads go out beside it (startRead sends
  // each request once, however often this runs).
  useEffect(() => {
    if (status !== 'loading' || !firstReads || !router.isReady || router.query.redirect !== undefined) return;
    startFirstReads(firstReads(router.query));
  }, [status, firstReads, router.isReady, router.query]);

  const redirect = router.query.redirect;
  useEffect(() => {
    if (status !== 'ready' || !access || redirect === undefined) return;
    const target = safeRedirect(redirect, access.landing);
    void router.replace(target);
  }, [status, access, redirect, router]);

  if (status !== 'ready' || !access || redirect !== undefined) return <Waiting title={head} />;
  // The calibration service's pages bring their own layouts (components/calibration).
  if (calibration) {
    return (
      <>
        {head}
        {children}
      </>
    );
  }
  return (
    <>
      {head}
      <ConsoleLayout route={route} verdict={routeAccess(access, route)}>
        {children}
      </ConsoleLayout>
    </>
  );
}
