import { SharedWaybillView } from '@/components/waybill/PublicWaybillView';
import { sitePageProps } from '@/server/pageProps';

/** A waybill share link (no account needed). */
export const getServerSideProps = sitePageProps(['waybill']);

export default function Page() {
  return <SharedWaybillView />;
}
