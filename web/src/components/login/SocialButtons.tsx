import { FacebookFilled, QqOutlined, WechatOutlined } from '@ant-design/icons';
import { Button, Divider, Tooltip } from 'antd';
import { useRouter } from 'next/router';
import { useTranslation } from 'next-i18next/pages';
import { useState, type ReactNode } from 'react';
import styled from 'styled-components';
import { socialAuthorize, type SocialProvider } from '@/api/account';
import { rememberSocialRedirect } from './socialRedirect';

const ICONS: Record<SocialProvider, ReactNode> = {
  wechat: <WechatOutlined />,
  qq: <QqOutlined />,
  facebook: <FacebookFilled />,
};

const Row = styled.div`
  display: flex;
  justify-content: center;
  gap: 16px;
`;

function isProvider(value: string): value is SocialProvider {
  return value in ICONS;
}

/**
 * Social sign-in buttons of the providers the site offers (branding.socialLogins). A click asks
 * the api where to go (authorize) and leaves for the provider; it comes back to /user/login-result.
 */
export function SocialButtons({ providers }: { providers: readonly string[] }) {
  const { t } = useTranslation('login');
  const router = useRouter();
  const [busy, setBusy] = useState<SocialProvider | null>(null);
  const offered = providers.filter(isProvider);
  if (!offered.length) return null;

  const start = async (provider: SocialProvider) => {
    setBusy(provider);
    try {
      const { url } = await socialAuthorize(provider);
      rememberSocialRedirect(router.query.redirect);
      window.location.assign(url);
    } catch {
      setBusy(null); // the request client showed why
    }
  };

  return (
    <>
      <Divider plain>{t('social.title')}</Divider>
      <Row>
        {offered.map((provider) => (
          <Tooltip key={provider} title={t(`social.${provider}`)}>
            <Button
              shape="circle"
              size="large"
              icon={ICONS[provider]}
              loading={busy === provider}
              aria-label={t(`social.${provider}`)}
              data-testid={`social-${provider}`}
              onClick={() => void start(provider)}
            />
          </Tooltip>
        ))}
      </Row>
    </>
  );
}
