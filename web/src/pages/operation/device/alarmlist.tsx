import { FleetAlarmView } from '@/components/product/FleetViews';
import { consolePageProps } from '@/server/pageProps';

export const getServerSideProps = consolePageProps(['product', 'device', 'alarm']);

export default function Page() {
  return <FleetAlarmView />;
}
