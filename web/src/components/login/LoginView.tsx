import Link from 'next/link';
import { useTranslation } from 'next-i18next/pages';
import styled from 'styled-components';
import { useSiteBranding } from '@/lib/SiteContext';
import { AuthLayout } from './AuthLayout';
import { LoginTabs } from './LoginTabs';
import { SocialButtons } from './SocialButtons';

const Links = styled.nav`
  display: flex;
  justify-content: space-between;
  margin-top: 4px;
`;

/** The branded sign-in page (spec section 2.3): tabs, links, social sign-ins of the site. */
export function LoginView() {
  const branding = useSiteBranding();
  const { t } = useTranslation('login');
  if (!branding) return null;
  return (
    <AuthLayout route="login">
      <LoginTabs />
      <Links>
        <Link href="/user/recover">{t('forgot')}</Link>
        {/* Spec 2.1: with enableRegister set the register route leads back to sign-in. */}
        {branding.enableRegister ? null : <Link href="/user/register">{t('register')}</Link>}
      </Links>
      <SocialButtons providers={branding.socialLogins ?? []} />
    </AuthLayout>
  );
}
