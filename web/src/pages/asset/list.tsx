import { AssetListView } from '@/components/organization/AssetViews';
import { consolePageProps } from '@/server/pageProps';

export const getServerSideProps = consolePageProps(['organization']);

export default function Page() {
  return <AssetListView />;
}
