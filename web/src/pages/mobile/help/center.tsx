import { HelpArticleMobile } from '@/components/help/HelpCenterView';
import { sitePageProps } from '@/server/pageProps';

/** One help article on a phone (spec route mobile.help.center, query id). */
export const getServerSideProps = sitePageProps(['help']);

export default function Page() {
  return <HelpArticleMobile />;
}
