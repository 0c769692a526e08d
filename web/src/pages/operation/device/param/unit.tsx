import { ParamUnitView } from '@/components/product/ParamUnitView';
import { consolePageProps } from '@/server/pageProps';

export const getServerSideProps = consolePageProps(['product']);

export default function Page() {
  return <ParamUnitView />;
}
