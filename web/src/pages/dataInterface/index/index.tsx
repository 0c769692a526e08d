// pages/dataInterface/index.tsx would answer /dataInterface: the spec's path is /dataInterface/index.
import { DataInterfaceView } from '@/components/dataInterface/DataInterfaceView';
import { consolePageProps } from '@/server/pageProps';

export const getServerSideProps = consolePageProps(['dataInterface']);

export default function Page() {
  return <DataInterfaceView />;
}
