import { DownloadCenterView } from '@/components/report/DownloadCenterView';
import { consolePageProps } from '@/server/pageProps';

export const getServerSideProps = consolePageProps(['report']);

export default function DownloadCenterPage() {
  return <DownloadCenterView />;
}
