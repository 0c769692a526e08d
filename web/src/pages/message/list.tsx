import { MessageListView } from '@/components/alarm/MessageListView';
import { consolePageProps } from '@/server/pageProps';

export const getServerSideProps = consolePageProps(['alarm']);

export default function MessageListPage() {
  return <MessageListView />;
}
