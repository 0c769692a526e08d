import { HelpListMobile } from '@/components/help/HelpCenterView';
import { sitePageProps } from '@/server/pageProps';

/** The help centre's list on a phone (spec route mobile.help.list). */
export const getServerSideProps = sitePageProps(['help']);

export default function Page() {
  return <HelpListMobile />;
}
