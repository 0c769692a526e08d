import { LoginView } from '@/components/login/LoginView';
import { sitePageProps } from '@/server/pageProps';

export const getServerSideProps = sitePageProps(['login']);

export default function LoginPage() {
  return <LoginView />;
}
