import { DataApiView } from '@/components/product/DataApiView';
import { consolePageProps } from '@/server/pageProps';

export const getServerSideProps = consolePageProps(['product']);

export default function Page() {
  return <DataApiView />;
}
