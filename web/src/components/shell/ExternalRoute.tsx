import { ExportOutlined } from '@ant-design/icons';
import { Button, Result } from 'antd';
import { useRouter } from 'next/router';
import { useTranslation } from 'next-i18next/pages';
import { useEffect, useRef, type ReactNode } from 'react';
import { matchRoute } from '@/routes/match';

/** Addresses of the external sites (build settings; their hosts are not in the spec). */
const EXTERNAL_URLS = {
  plc: process.env.NEXT_PUBLIC_PLC_URL ?? '',
  calibrationServe: process.env.NEXT_PUBLIC_CALIBRATION_URL ?? '',
};

/**
 * Spec 2.1: the plc route opens the external SCADA login in a new window, the calibration-serve
 * route the external calibration site. Without a configured address: `fallback`.
 */
export function ExternalRoute({ fallback }: { fallback: ReactNode }) {
  const router = useRouter();
  const { t } = useTranslation('shell');
  const external = matchRoute(router.asPath)?.route.external;
  const url = external ? EXTERNAL_URLS[external] : '';
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
