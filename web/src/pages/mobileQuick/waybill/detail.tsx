import { PublicWaybillView } from '@/components/waybill/PublicWaybillView';
import { sitePageProps } from '@/server/pageProps';

/** Mobile waybill detail (spec route mobileQuick.waybill.detail). */
export const getServerSideProps = sitePageProps(['waybill']);

export default function Page() {
  return <PublicWaybillView variant="mobileDetail" />;
}
