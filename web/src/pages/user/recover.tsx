import { RecoverView } from '@/components/account/RecoverView';
import { sitePageProps } from '@/server/pageProps';

export const getServerSideProps = sitePageProps(['account', 'login']);

export default function RecoverPage() {
  return <RecoverView />;
}
