import { ProfileListView } from '@/components/budget/ProfileListView';
import { consolePageProps } from '@/server/pageProps';

export const getServerSideProps = consolePageProps(['budget']);

export default function Page() {
  return <ProfileListView />;
}
