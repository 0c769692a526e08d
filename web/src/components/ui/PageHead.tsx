import Head from 'next/head';
import { useTranslation } from 'next-i18next/pages';
import { useSiteBranding } from '@/components/site/SiteContext';

/** Title "<customised title> - <route name>" and the site's browser icon (spec section 2.1). */
export function PageHead({ route }: { route: string }) {
  const { t } = useTranslation('common');
  const branding = useSiteBranding();
  const name = t(`routes.${route}`);
  const title = branding ? `${branding.title} - ${name}` : name;
  return (
    <Head>
      <title>{title}</title>
      {branding?.browserLogo ? <link rel="icon" href={branding.browserLogo} /> : null}
    </Head>
  );
}
