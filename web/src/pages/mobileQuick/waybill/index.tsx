import { PublicWaybillView } from '@/components/waybill/PublicWaybillView';
import { deviceRedirect } from '@/server/deviceRedirect';
import { sitePageProps } from '@/server/pageProps';

/** Mobile waybill lookup (spec route mobileQuick.waybill.list); a desktop goes to the PC path. */
export const getServerSideProps = sitePageProps(['waybill'], 200, (site, { req, resolvedUrl }) =>
  site.kind === 'ok' ? deviceRedirect('mobileQuick.waybill.list', req.headers['user-agent'], resolvedUrl) : null,
);

export default function Page() {
  return <PublicWaybillView variant="mobileList" />;
}
