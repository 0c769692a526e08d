import { OnCallListView } from '@/components/alarm/OnCallListView';
import { consolePageProps } from '@/server/pageProps';

export const getServerSideProps = consolePageProps(['alarm', 'organization']);

export default function OnCallPage() {
  return <OnCallListView />;
}
