import { WaybillListView } from '@/components/waybill/WaybillViews';
import { consolePageProps } from '@/server/pageProps';

export const getServerSideProps = consolePageProps(['waybill', 'organization']);

export default function Page() {
  return <WaybillListView />;
}
