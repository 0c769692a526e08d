import { waybillListFirstRead, WaybillListView } from '@/components/waybill/WaybillViews';
import { consolePageProps } from '@/server/pageProps';

export const getServerSideProps = consolePageProps(['waybill', 'organization', 'budget']);

export default function Page() {
  return <WaybillListView />;
}

// The first page goes out beside the account info on the first entry (lib/firstReads).
Page.firstReads = () => [waybillListFirstRead()];
