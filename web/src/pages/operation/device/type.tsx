import { DeviceTypeView } from '@/components/product/DeviceTypeView';
import { consolePageProps } from '@/server/pageProps';

export const getServerSideProps = consolePageProps(['product']);

export default function Page() {
  return <DeviceTypeView />;
}
