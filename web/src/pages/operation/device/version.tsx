import { VersionView } from '@/components/product/VersionView';
import { consolePageProps } from '@/server/pageProps';

export const getServerSideProps = consolePageProps(['product']);

export default function Page() {
  return <VersionView />;
}
