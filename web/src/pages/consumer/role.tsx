import { RoleView } from '@/components/organization/RoleView';
import { consolePageProps } from '@/server/pageProps';

export const getServerSideProps = consolePageProps(['organization']);

export default function Page() {
  return <RoleView />;
}
