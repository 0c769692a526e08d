import { BindContactView } from '@/components/account/BindContactView';
import { sitePageProps } from '@/server/pageProps';

export const getServerSideProps = sitePageProps(['account']);

export default function BindPhonePage() {
  return <BindContactView channel="phone" />;
}
