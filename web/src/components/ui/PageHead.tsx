import Head from 'next/head';
import { useTranslation } from 'next-i18next/pages';
import { useSiteBranding } from '@/lib/SiteContext';

interface PageHeadProps {
  /** Route name translated from common `routes.` (pages outside the console). */
  route?: string;
  /** The already translated route name (console routes use the `menu` namespace). */
  name?: string;
  /** A fixed title without the customised prefix (the calibration service). */
  fixed?: string;
}

/** Title "<customised title> - <route name>" and the site's browser icon (spec section 2.1). */
export function PageHead({ route, name, fixed }: PageHeadProps) {
  const { t } = useTranslation('common');
  const branding = useSiteBranding();
  const label = name ?? (route ? t(`routes.${route}`) : '');
  const title = fixed ?? (branding ? (label ? `${branding.title} - ${label}` : branding.title) : label);
  return (
    <Head>
      <title>{title}</title>
      {branding?.browserLogo ? <link rel="icon" href={branding.browserLogo} /> : null}
    </Head>
  );
}
