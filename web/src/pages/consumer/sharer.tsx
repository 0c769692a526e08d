import { SharerView } from '@/components/organization/SharerView';
import { consolePageProps } from '@/server/pageProps';

export const getServerSideProps = consolePageProps(['organization']);

export default function Page() {
  return <SharerView />;
}
