import { QuickQueryView } from '@/components/device/QuickQueryView';
import { isMobileAgent } from '@/server/deviceRedirect';
import { sitePageProps } from '@/server/pageProps';

/** The mobile quick query (spec route mobileQuick.query); a desktop browser goes to /quick/query. */
export const getServerSideProps = sitePageProps(['device'], 200, (site, { req, resolvedUrl }) =>
  site.kind === 'ok' && !isMobileAgent(req.headers['user-agent'])
    ? `/quick/query${resolvedUrl.slice('/mobileQuick/query'.length)}`
    : null,
);

export default function MobileQuickQueryPage() {
  return <QuickQueryView variant="mobile" />;
}
