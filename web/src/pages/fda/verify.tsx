import { VerifyView } from '@/components/fda/VerifyView';
import { sitePageProps } from '@/server/pageProps';

/** The verification link of a signed PDF (no account needed). */
export const getServerSideProps = sitePageProps(['fda']);

export default function Page() {
  return <VerifyView />;
}
