import { HelpCenterDesktop } from '@/components/help/HelpCenterView';
import { sitePageProps } from '@/server/pageProps';
import { deviceRedirect } from '@/server/deviceRedirect';

/** The public help centre (spec route help.center); a phone goes to the mobile pages. */
export const getServerSideProps = sitePageProps(['help'], 200, (site, { req, resolvedUrl }) =>
  site.kind === 'ok' ? deviceRedirect('help.center', req.headers['user-agent'], resolvedUrl) : null,
);

export default function Page() {
  return <HelpCenterDesktop />;
}
