import { OrganizationListView } from '@/components/organization/OrganizationListView';
import { consolePageProps } from '@/server/pageProps';

export const getServerSideProps = consolePageProps(['organization']);

export default function Page() {
  return <OrganizationListView />;
}
