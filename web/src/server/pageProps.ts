import type { GetServerSideProps, GetServerSidePropsContext } from 'next';
import { serverSideTranslations } from 'next-i18next/pages/serverSideTranslations';
import type { SiteState } from '@/api/customPage';
import { i18nConfig } from '@/i18n/config';
import { LANGUAGE_COOKIE, resolveLanguage } from '@/i18n/languages';
import { fetchSite } from './site';

export interface SitePageProps {
  site: SiteState;
}

/** Namespaces of every page inside the console shell (header, menu, tabs, error pages; account rules of the change-password drawer; device: the expired-service devices modal). */
export const SHELL_NAMESPACES = ['shell', 'menu', 'account', 'device', 'organization'];

/** Decides, once the site is known, that the page answers with a redirect instead (a path). */
export type SiteRedirect = (site: SiteState, context: GetServerSidePropsContext) => string | null;

/**
 * getServerSideProps of a page that shows the site's branding: the language from the `lang`
 * cookie, the `common` namespace plus the page's own, and the branding of the requested host.
 * A site without branding answers with the api's status (421 not configured, 503 unavailable).
 */
export function sitePageProps(
  namespaces: string[] = [],
  status = 200,
  redirect?: SiteRedirect,
): GetServerSideProps<SitePageProps> {
  return async (context) => {
    const { req, res } = context;
    const language = resolveLanguage(req.cookies[LANGUAGE_COOKIE]);
    const [site, translations] = await Promise.all([
      fetchSite(req, language),
      serverSideTranslations(language, ['common', ...namespaces], i18nConfig),
    ]);
    const destination = redirect?.(site, context);
    if (destination) return { redirect: { destination, permanent: false } };
    res.statusCode = 'status' in site ? site.status : status;
    return { props: { ...translations, site } };
  };
}

/** A console page: the shell's namespaces plus the page's own. */
export function consolePageProps(namespaces: string[] = []): GetServerSideProps<SitePageProps> {
  return sitePageProps([...SHELL_NAMESPACES, ...namespaces]);
}
