import { storageListFirstReads, StorageListView } from '@/components/storage/StorageListView';
import { consolePageProps } from '@/server/pageProps';

export const getServerSideProps = consolePageProps(['storage', 'alarm']);

export default function StorageListPage() {
  return <StorageListView route="storage.list" />;
}

// The first page and the counts go out beside the account info on the first entry (lib/firstReads).
StorageListPage.firstReads = () => storageListFirstReads('storage.list');
