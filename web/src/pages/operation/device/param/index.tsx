import { DeviceParamView } from '@/components/product/DeviceParamView';
import { consolePageProps } from '@/server/pageProps';

export const getServerSideProps = consolePageProps(['product']);

export default function Page() {
  return <DeviceParamView />;
}
