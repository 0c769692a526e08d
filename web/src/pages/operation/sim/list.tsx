import { SimCardView } from '@/components/product/SimCardView';
import { consolePageProps } from '@/server/pageProps';

export const getServerSideProps = consolePageProps(['product']);

export default function Page() {
  return <SimCardView />;
}
