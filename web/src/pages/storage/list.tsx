import { StorageListView } from '@/components/storage/StorageListView';
import { consolePageProps } from '@/server/pageProps';

export const getServerSideProps = consolePageProps(['storage', 'alarm']);

export default function StorageListPage() {
  return <StorageListView route="storage.list" />;
}
