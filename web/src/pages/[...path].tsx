import type { GetServerSideProps } from 'next';
import { ErrorPage } from '@/components/errors/ErrorPage';
import { ExternalRoute } from '@/components/shell/ExternalRoute';
import { InDevelopment } from '@/components/shell/InDevelopment';
import { matchRoute } from '@/routes/match';
import { SHELL_NAMESPACES, sitePageProps, type SitePageProps } from '@/server/pageProps';
import { deviceRedirect } from '@/server/deviceRedirect';

interface RoutePageProps extends SitePageProps {
  routeKind: 'public' | 'console' | 'calibration';
}

const consoleProps = sitePageProps(SHELL_NAMESPACES);
const publicProps = sitePageProps([]);

/**
 * Every path without a page file of its own (spec 2.1): unknown paths redirect to "/"; the routes
 * of the spec whose area is not built yet answer with the 404 "page missing or in development"
 * page (inside the shell for console routes, once signed in and permitted).
 */
export const getServerSideProps: GetServerSideProps<RoutePageProps> = async (context) => {
  const path = context.resolvedUrl;
  const match = matchRoute(path);
  if (!match) return { redirect: { destination: '/', permanent: false } };
  const moved = deviceRedirect(match.route.name, context.req.headers['user-agent'], path);
  if (moved) return { redirect: { destination: moved, permanent: false } };
  const result = await (match.route.kind === 'public' ? publicProps : consoleProps)(context);
  if ('props' in result) return { props: { ...(await result.props), routeKind: match.route.kind } };
  return result;
};

export default function RoutePage({ routeKind }: RoutePageProps) {
  if (routeKind === 'public') return <ErrorPage status={404} />;
  return <PlaceholderForRoute />;
}

function PlaceholderForRoute() {
  return <ExternalRoute fallback={<InDevelopment />} />;
}
