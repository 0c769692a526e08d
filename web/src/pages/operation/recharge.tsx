import { RechargeAdminView } from '@/components/billing/OperatorViews';
import { consolePageProps } from '@/server/pageProps';

export const getServerSideProps = consolePageProps(['billing']);

export default function Page() {
  return <RechargeAdminView />;
}
