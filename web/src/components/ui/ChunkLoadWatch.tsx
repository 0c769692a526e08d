import { App } from 'antd';
import Router from 'next/router';
import { useTranslation } from 'next-i18next/pages';
import { useEffect } from 'react';
import { CHUNK_LOAD_TIMEOUT_MS } from './constants';

/**
 * Spec 8 / 9: a page whose code (chunk) has not loaded after 120 s is reported, and so is a chunk
 * that failed to load (a new deployment, a broken network).
 */
export function ChunkLoadWatch() {
  const { notification } = App.useApp();
  const { t } = useTranslation('common');
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    const stop = () => {
      if (timer) clearTimeout(timer);
      timer = null;
    };
    const report = () => notification.error({ title: t('errors.chunkLoad'), key: 'chunk-load' });
    const start = () => {
      stop();
      timer = setTimeout(report, CHUNK_LOAD_TIMEOUT_MS);
    };
    const failed = (error: unknown) => {
      stop();
      if (error instanceof Error && /Loading (CSS )?chunk|ChunkLoadError/i.test(`${error.name} ${error.message}`))
        report();
    };
    Router.events.on('routeChangeStart', start);
    Router.events.on('routeChangeComplete', stop);
    Router.events.on('routeChangeError', failed);
    return () => {
      stop();
      Router.events.off('routeChangeStart', start);
      Router.events.off('routeChangeComplete', stop);
      Router.events.off('routeChangeError', failed);
    };
  }, [notification, t]);
  return null;
}
