import type { NextComponentType, NextPageContext } from 'next';
import { useRouter } from 'next/router';
import { firstReadsOf } from '@/lib/firstReads';
import { matchRoute } from '@/routes/match';
import { ConsoleGate } from './ConsoleGate';
import { SessionProvider } from './SessionProvider';

/** Next's own pages (error renders) are never behind the sign-in, whatever the address. */
const FRAMEWORK_PAGES = new Set(['/404', '/500', '/_error']);

interface AppFrameProps {
  Component: NextComponentType<NextPageContext, unknown, Record<string, unknown>>;
  pageProps: Record<string, unknown>;
}

/** The page in its frame: public pages as they are, the others behind the session gate. */
export function AppFrame({ Component, pageProps }: AppFrameProps) {
  const router = useRouter();
  const match = FRAMEWORK_PAGES.has(router.pathname) ? null : matchRoute(router.asPath);
  const gated = match !== null && match.route.kind !== 'public';
  return (
    <SessionProvider needsAccount={gated}>
      {gated ? (
        <ConsoleGate match={match} firstReads={firstReadsOf(Component)}>
          <Component {...pageProps} />
        </ConsoleGate>
      ) : (
        <Component {...pageProps} />
      )}
    </SessionProvider>
  );
}
