import { storageListFirstReads, StorageListView } from '@/components/storage/StorageListView';
import { consolePageProps } from '@/server/pageProps';

export const getServerSideProps = consolePageProps(['storage', 'alarm']);

export default function FreezerListPage() {
  return <StorageListView route="freezer.list" />;
}

// The first page and the counts go out beside the account info on the first entry (lib/firstReads).
FreezerListPage.firstReads = () => storageListFirstReads('freezer.list');
