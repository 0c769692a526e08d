import { QuickQueryView } from '@/components/device/QuickQueryView';
import { isMobileAgent } from '@/server/deviceRedirect';
import { sitePageProps } from '@/server/pageProps';

/** The public quick query; a phone goes to the mobile page (spec route mobileQuick.query). */
export const getServerSideProps = sitePageProps(['device'], 200, (site, { req, resolvedUrl }) =>
  site.kind === 'ok' && isMobileAgent(req.headers['user-agent'])
    ? `/mobileQuick/query${resolvedUrl.slice('/quick/query'.length)}`
    : null,
);

export default function QuickQueryPage() {
  return <QuickQueryView />;
}
