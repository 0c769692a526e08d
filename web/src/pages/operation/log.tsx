import { OperationLogView } from '@/components/organization/OperationLogView';
import { consolePageProps } from '@/server/pageProps';

export const getServerSideProps = consolePageProps(['organization']);

export default function Page() {
  return <OperationLogView />;
}
