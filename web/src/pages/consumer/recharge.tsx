import { RechargeView } from '@/components/billing/RechargeView';
import { consolePageProps } from '@/server/pageProps';

export const getServerSideProps = consolePageProps(['billing']);

export default function Page() {
  return <RechargeView />;
}
