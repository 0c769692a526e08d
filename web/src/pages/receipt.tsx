import { ReceiptView } from '@/components/billing/Receipt';
import { sitePageProps } from '@/server/pageProps';

export const getServerSideProps = sitePageProps(['billing']);

export default function Page() {
  return <ReceiptView />;
}
