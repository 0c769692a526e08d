import { ExportOutlined } from '@ant-design/icons';
import { Button, Result } from 'antd';
import { useRouter } from 'next/router';
import { useTranslation } from 'next-i18next/pages';
import { useEffect, useRef, type ReactNode } from 'react';
import type { Branding } from '@/api/customPage';
import { useSiteBranding } from '@/lib/SiteContext';
import { matchRoute } from '@/routes/match';
import type { ExternalSite } from '@/routes/routes';

/** The addresses of the external sites: platform settings of the operator, in the site's branding. */
export function externalUrls(branding: Branding | null | undefined): Record<ExternalSite, string> {
  return { plc: branding?.plcUrl ?? '', calibrationServe: branding?.calibrationUrl ?? '' };
}

/**
 * Spec 2.1: the plc route opens the external SCADA login in a new window, the calibration-serve
 * route the external calibration site. Without a configured address: `fallback`.
 */
export function ExternalRoute({ fallback }: { fallback: ReactNode }) {
  const router = useRouter();
  const { t } = useTranslation('shell');
  const branding = useSiteBranding();
  const external = matchRoute(router.asPath)?.route.external;
  const url = external ? externalUrls(branding)[external] : '';
  const opened = useRef(false);
  useEffect(() => {
    if (url && !opened.current) {
      opened.current = true;
      window.open(url, '_blank', 'noopener');
    }
  }, [url]);
  if (!url) return <>{fallback}</>;
  return (
    <Result
      icon={<ExportOutlined />}
      title={t('external.opened')}
      extra={
        <Button type="primary" href={url} target="_blank" rel="noopener">
          {t('external.openAgain')}
        </Button>
      }
    />
  );
}
