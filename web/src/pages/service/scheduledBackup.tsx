import { ScheduledReportsView } from '@/components/report/ScheduledReportsView';
import { consolePageProps } from '@/server/pageProps';

export const getServerSideProps = consolePageProps(['report']);

/** Data centre: scheduled backup (spec 2), i.e. scheduled reports; account holders reach the same list in the download centre. */
export default function ScheduledReportsPage() {
  return <ScheduledReportsView />;
}
