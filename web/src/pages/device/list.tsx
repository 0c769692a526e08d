import { deviceListFirstRead, DeviceListView } from '@/components/device/DeviceListView';
import { consolePageProps } from '@/server/pageProps';

export const getServerSideProps = consolePageProps();

export default function DeviceListPage() {
  return <DeviceListView />;
}

// The list goes out beside the account info on the first entry (lib/firstReads).
DeviceListPage.firstReads = (query: Parameters<typeof deviceListFirstRead>[0]) => [deviceListFirstRead(query)];
