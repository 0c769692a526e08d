import { StaffRoleView } from '@/components/operation/StaffRoleView';
import { consolePageProps } from '@/server/pageProps';

export const getServerSideProps = consolePageProps(['operation', 'organization']);

export default function Page() {
  return <StaffRoleView />;
}
