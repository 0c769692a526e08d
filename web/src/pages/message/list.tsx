import { messageListFirstRead, MessageListView } from '@/components/alarm/MessageListView';
import { consolePageProps } from '@/server/pageProps';

export const getServerSideProps = consolePageProps(['alarm']);

export default function MessageListPage() {
  return <MessageListView />;
}

// The first page goes out beside the account info on the first entry (lib/firstReads).
MessageListPage.firstReads = () => [messageListFirstRead()];
