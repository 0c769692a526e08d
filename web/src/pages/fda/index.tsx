import { FdaView } from '@/components/fda/FdaView';
import { consolePageProps } from '@/server/pageProps';

export const getServerSideProps = consolePageProps(['fda']);

export default function Page() {
  return <FdaView />;
}
