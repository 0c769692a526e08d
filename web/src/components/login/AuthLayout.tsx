import Image from 'next/image';
import type { ReactNode } from 'react';
import styled from 'styled-components';
import { useSiteBranding } from '@/lib/SiteContext';
import { LanguageSwitch } from '@/components/ui/LanguageSwitch';
import { PageHead } from '@/components/ui/PageHead';
import { RecordFooter } from './RecordFooter';

/** A CSS url() from a branding path, without characters that could leave the string. */
function cssUrl(path: string): string {
  return `url("${path.replace(/["\\\n\r]/g, '')}")`;
}

const Page = styled.div<{ $background: string }>`
  display: flex;
  flex-direction: column;
  min-height: 100vh;
  background: ${({ theme }) => theme.colors.layoutBg}
    ${({ $background }) => ($background ? cssUrl($background) : 'none')} center / cover no-repeat;
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

const Panel = styled.section<{ $wide: boolean }>`
  width: ${({ $wide }) => ($wide ? 480 : 420)}px;
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

const Subtitle = styled.h2`
  margin: 4px 0 16px;
  font-size: 16px;
  font-weight: 500;
  text-align: center;
  color: ${({ theme }) => theme.colors.textSecondary};
`;

interface AuthLayoutProps {
  /** Route name of the page title (common `routes.` namespace). */
  route: string;
  /** A heading under the site title (register, recover ...). */
  heading?: ReactNode;
  wide?: boolean;
  children: ReactNode;
}

/** The branded frame of the sign-in pages: background, logo, title, panel and record footer. */
export function AuthLayout({ route, heading, wide = false, children }: AuthLayoutProps) {
  const branding = useSiteBranding();
  if (!branding) return null;
  return (
    <Page $background={branding.loginBackground}>
      <PageHead route={route} />
      <TopBar>
        <LanguageSwitch />
      </TopBar>
      <Main>
        <Panel $wide={wide}>
          <Brand>
            {branding.loginLogo ? (
              <Image
                src={branding.loginLogo}
                alt={branding.enterpriseName}
                width={180}
                height={48}
                unoptimized
                priority
              />
            ) : null}
            <Title>{branding.title}</Title>
          </Brand>
          {heading ? <Subtitle>{heading}</Subtitle> : null}
          {children}
        </Panel>
      </Main>
      <RecordFooter company={branding.recordCompany} number={branding.recordNumber} link={branding.recordLink} />
    </Page>
  );
}
