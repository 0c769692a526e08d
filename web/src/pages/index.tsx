import { modelLanding } from '@/routes/access';
import { sitePageProps } from '@/server/pageProps';

/**
 * "/" (where unknown paths lead, spec 2.1): the landing path of the site's style model, /home or
 * /device/list on junjia, with the query kept (a token handed over in it); from there the session
 * gate sends a visitor without a token to sign in.
 */
export const getServerSideProps = sitePageProps([], 200, (site, { resolvedUrl }) => {
  if (site.kind !== 'ok') return null;
  const query = resolvedUrl.includes('?') ? resolvedUrl.slice(resolvedUrl.indexOf('?')) : '';
  return `${modelLanding(site.branding.styleModel)}${query}`;
});

export default function Root() {
  return null;
}
