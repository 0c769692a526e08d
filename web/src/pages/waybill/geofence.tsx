import { GeofenceView } from '@/components/waybill/GeofenceView';
import { consolePageProps } from '@/server/pageProps';

export const getServerSideProps = consolePageProps(['waybill']);

export default function Page() {
  return <GeofenceView />;
}
