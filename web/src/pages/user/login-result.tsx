import { LoginResultView } from '@/components/account/LoginResultView';
import { sitePageProps } from '@/server/pageProps';

export const getServerSideProps = sitePageProps(['account', 'login']);

export default function LoginResultPage() {
  return <LoginResultView />;
}
