import { BindContactView } from '@/components/account/BindContactView';
import { sitePageProps } from '@/server/pageProps';

export const getServerSideProps = sitePageProps(['account', 'login']);

export default function BindPhonePage() {
  return <BindContactView channel="phone" />;
}
