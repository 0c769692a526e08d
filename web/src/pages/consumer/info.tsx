import { ProfileView } from '@/components/organization/ProfileView';
import { consolePageProps } from '@/server/pageProps';

export const getServerSideProps = consolePageProps(['organization']);

export default function Page() {
  return <ProfileView />;
}
