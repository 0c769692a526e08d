import { Button, Result } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import type { SiteState } from '@/api/customPage';
import { CenteredPage } from '@/components/ui/CenteredPage';
import { PageHead } from '@/components/ui/PageHead';

type SiteProblem = Exclude<SiteState, { kind: 'ok' } | { kind: 'unresolved' }>;

/** A neutral page (no tenant branding) for a host without a site, or when the api is unreachable. */
export function SiteError({ site }: { site: SiteProblem }) {
  const { t } = useTranslation('common');
  const section = site.kind;
  const serverMessage = 'message' in site ? site.message : '';
  return (
    <CenteredPage>
      <PageHead route="siteError" />
      <Result
        status={site.kind === 'unavailable' ? 'error' : 'warning'}
        title={t(`site.${section}.title`)}
        subTitle={serverMessage || t(`site.${section}.description`)}
        extra={
          site.kind === 'unavailable' ? (
            <Button type="primary" onClick={() => window.location.reload()}>
              {t('site.unavailable.retry')}
            </Button>
          ) : null
        }
      />
    </CenteredPage>
  );
}
