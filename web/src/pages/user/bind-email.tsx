import { BindContactView } from '@/components/account/BindContactView';
import { sitePageProps } from '@/server/pageProps';

export const getServerSideProps = sitePageProps(['account', 'login']);

export default function BindEmailPage() {
  return <BindContactView channel="email" />;
}
