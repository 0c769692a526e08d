import Image from 'next/image';
import Link from 'next/link';
import { useTranslation } from 'next-i18next/pages';
import styled from 'styled-components';
import { useSiteBranding } from '@/components/site/SiteContext';
import { LanguageSwitch } from '@/components/ui/LanguageSwitch';
import { PageHead } from '@/components/ui/PageHead';
import { LoginTabs } from './LoginTabs';
import { RecordFooter } from './RecordFooter';

/** A CSS url() from a branding path, without characters that could leave the string. */
function cssUrl(path: string): string {
  return `url("${path.replace(/["\\\n\r]/g, '')}")`;
}

const Page = styled.div<{ $background: string }>`
  display: flex;
  flex-direction: column;
  min-height: 100vh;
  background: ${({ theme }) => theme.colors.layoutBg} ${({ $background }) => ($background ? cssUrl($background) : 'none')}
    center / cover no-repeat;
`;

const TopBar = styled.header`
  display: flex;
  justify-content: flex-end;
  padding: 16px 24px;

  .ant-btn {
    color: ${({ theme }) => theme.colors.textOnPrimary};
  }
`;

const Main = styled.main`
  display: flex;
  flex: 1;
  align-items: center;
  justify-content: center;
  padding: 16px;

  @media (max-width: ${({ theme }) => theme.breakpoints.tablet - 1}px) {
    align-items: flex-start;
    padding: 0 12px;
  }
`;

const Panel = styled.section`
  width: 420px;
  max-width: 100%;
  box-sizing: border-box;
  padding: 32px 36px 24px;
  background: ${({ theme }) => theme.colors.loginPanelBg};
  border-radius: ${({ theme }) => theme.radius * 2}px;
  box-shadow: ${({ theme }) => theme.colors.shadow};

  @media (max-width: ${({ theme }) => theme.breakpoints.tablet - 1}px) {
    width: 100%;
    padding: 24px 20px 16px;
  }
`;

const Brand = styled.div`
  display: flex;
  flex-direction: column;
  align-items: center;
  gap: 12px;
  margin-bottom: 8px;

  img {
    height: 48px;
    width: auto;
  }
`;

const Title = styled.h1`
  margin: 0;
  font-size: 22px;
  font-weight: 600;
  text-align: center;
  color: ${({ theme }) => theme.colors.text};
`;

const Links = styled.nav`
  display: flex;
  justify-content: space-between;
  margin-top: 4px;
`;

/** The branded sign-in page (spec section 2.3): background, logo, title, tabs and record footer. */
export function LoginView() {
  const branding = useSiteBranding();
  const { t } = useTranslation('login');
  if (!branding) return null;
  return (
    <Page $background={branding.loginBackground}>
      <PageHead route="login" />
      <TopBar>
        <LanguageSwitch />
      </TopBar>
      <Main>
        <Panel>
          <Brand>
            {branding.loginLogo ? (
              <Image src={branding.loginLogo} alt={branding.enterpriseName} width={180} height={48} unoptimized priority />
            ) : null}
            <Title>{branding.title}</Title>
          </Brand>
          <LoginTabs />
          <Links>
            <Link href="/user/recover">{t('forgot')}</Link>
            {/* Spec 2.1: with enableRegister set the register route leads back to sign-in. */}
            {branding.enableRegister ? null : <Link href="/user/register">{t('register')}</Link>}
          </Links>
        </Panel>
      </Main>
      <RecordFooter company={branding.recordCompany} number={branding.recordNumber} link={branding.recordLink} />
    </Page>
  );
}
