import { PayPalCallbackView } from '@/components/billing/MobilePay';
import { sitePageProps } from '@/server/pageProps';

export const getServerSideProps = sitePageProps(['billing']);

export default function Page() {
  return <PayPalCallbackView />;
}
