import { QuickQueryView } from '@/components/device/QuickQueryView';
import { sitePageProps } from '@/server/pageProps';

export const getServerSideProps = sitePageProps(['device']);

export default function QuickQueryPage() {
  return <QuickQueryView />;
}
