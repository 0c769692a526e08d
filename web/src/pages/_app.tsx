import { App as AntdApp, ConfigProvider } from 'antd';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import type { AppProps } from 'next/app';
import { appWithTranslation, useTranslation } from 'next-i18next/pages';
import { useMemo } from 'react';
import { ThemeProvider } from 'styled-components';
import type { SiteState } from '@/api/customPage';
import { AppFrame } from '@/components/session/AppFrame';
import { BrandingProvider } from '@/lib/SiteContext';
import { SiteError } from '@/components/site/SiteError';
import { ChunkLoadWatch } from '@/components/ui/ChunkLoadWatch';
import { NOTIFICATION_DURATION_S } from '@/components/ui/constants';
import { EvidencePrompt } from '@/components/ui/EvidencePrompt';
import { RequestFeedback } from '@/components/ui/RequestFeedback';
import { useBranding } from '@/hooks/useBranding';
import { i18nConfig } from '@/i18n/config';
import type { SitePageProps } from '@/server/pageProps';
import { buildTheme } from '@/theme/buildTheme';
import { GlobalStyle } from '@/theme/GlobalStyle';
import { getStyleModel } from '@/theme/styleModels';

const UNRESOLVED: SiteState = { kind: 'unresolved' };

function ColdChainApp({ Component, pageProps }: AppProps<Partial<SitePageProps>>) {
  const site = useBranding(pageProps.site ?? UNRESOLVED);
  const branding = site.kind === 'ok' ? site.branding : null;
  const theme = useMemo(() => buildTheme(branding, getStyleModel(branding?.styleModel).tokens), [branding]);
  const { i18n } = useTranslation('common');
  return (
    <ThemeProvider theme={theme.styled}>
      <ConfigProvider theme={theme.antd} locale={i18n.language === 'en-US' ? enUS : zhCN}>
        {/* Spec 9: notifications last 4 s. */}
        <AntdApp
          message={{ duration: NOTIFICATION_DURATION_S }}
          notification={{ duration: NOTIFICATION_DURATION_S, placement: 'topRight' }}
        >
          <GlobalStyle />
          <RequestFeedback />
          <EvidencePrompt />
          <ChunkLoadWatch />
          <BrandingProvider value={branding}>
            {site.kind === 'ok' || site.kind === 'unresolved' ? (
              <AppFrame Component={Component} pageProps={pageProps} />
            ) : (
              <SiteError site={site} />
            )}
          </BrandingProvider>
        </AntdApp>
      </ConfigProvider>
    </ThemeProvider>
  );
}

export default appWithTranslation(ColdChainApp, i18nConfig);
