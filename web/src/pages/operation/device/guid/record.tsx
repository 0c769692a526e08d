import { GuidRecordView } from '@/components/product/GuidViews';
import { consolePageProps } from '@/server/pageProps';

export const getServerSideProps = consolePageProps(['product']);

export default function Page() {
  return <GuidRecordView />;
}
