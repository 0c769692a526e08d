import { AckLinkView } from '@/components/alarm/AckLinkView';
import { sitePageProps } from '@/server/pageProps';

/** The acknowledgement link of an alarm's email (no account needed: the signed code is the credential). */
export const getServerSideProps = sitePageProps(['alarm']);

export default function Page() {
  return <AckLinkView />;
}
