import { DeviceListView } from '@/components/device/DeviceListView';
import { consolePageProps } from '@/server/pageProps';

export const getServerSideProps = consolePageProps();

export default function DeviceListPage() {
  return <DeviceListView />;
}
