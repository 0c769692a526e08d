import type { GetServerSideProps } from 'next';
import { serverSideTranslations } from 'next-i18next/pages/serverSideTranslations';
import type { SiteState } from '@/api/customPage';
import { i18nConfig } from '@/i18n/config';
import { LANGUAGE_COOKIE, resolveLanguage } from '@/i18n/languages';
import { fetchSite } from './site';

export interface SitePageProps {
  site: SiteState;
}

/**
 * getServerSideProps of a page that shows the site's branding: the language from the `lang`
 * cookie, the `common` namespace plus the page's own, and the branding of the requested host.
 * A site without branding answers with the api's status (421 not configured, 503 unavailable).
 */
export function sitePageProps(namespaces: string[] = [], status = 200): GetServerSideProps<SitePageProps> {
  return async ({ req, res }) => {
    const language = resolveLanguage(req.cookies[LANGUAGE_COOKIE]);
    const [site, translations] = await Promise.all([
      fetchSite(req, language),
      serverSideTranslations(language, ['common', ...namespaces], i18nConfig),
    ]);
    res.statusCode = 'status' in site ? site.status : status;
    return { props: { ...translations, site } };
  };
}
