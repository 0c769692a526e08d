import { SystemUserListView } from '@/components/operation/SystemUserListView';
import { consolePageProps } from '@/server/pageProps';

export const getServerSideProps = consolePageProps(['operation', 'account']);

export default function Page() {
  return <SystemUserListView />;
}
