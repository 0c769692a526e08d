import { SeriesView } from '@/components/product/SeriesView';
import { consolePageProps } from '@/server/pageProps';

export const getServerSideProps = consolePageProps(['product']);

export default function Page() {
  return <SeriesView />;
}
