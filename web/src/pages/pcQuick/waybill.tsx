import { PublicWaybillView } from '@/components/waybill/PublicWaybillView';
import { deviceRedirect } from '@/server/deviceRedirect';
import { sitePageProps } from '@/server/pageProps';

/** Public waybill lookup (spec route pcQuick.waybill); a phone goes to the mobile path. */
export const getServerSideProps = sitePageProps(['waybill'], 200, (site, { req, resolvedUrl }) =>
  site.kind === 'ok' ? deviceRedirect('pcQuick.waybill', req.headers['user-agent'], resolvedUrl) : null,
);

export default function Page() {
  return <PublicWaybillView variant="pc" />;
}
