import { SystemManageView } from '@/components/operation/SystemManageView';
import { consolePageProps } from '@/server/pageProps';

export const getServerSideProps = consolePageProps(['operation']);

export default function Page() {
  return <SystemManageView />;
}
