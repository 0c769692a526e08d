import { ArrowLeftOutlined, LogoutOutlined, PlusOutlined, QrcodeOutlined, SearchOutlined } from '@ant-design/icons';
import { Button, Dropdown, Input, Popover, QRCode, Space, Typography } from 'antd';
import Link from 'next/link';
import { useRouter } from 'next/router';
import { useTranslation } from 'next-i18next/pages';
import { useEffect, useState, type ReactNode } from 'react';
import styled from 'styled-components';
import { get } from '@/api/client';
import { useSession } from '@/lib/SessionContext';
import { useSiteBranding } from '@/lib/SiteContext';
import { LanguageSwitch } from '@/components/ui/LanguageSwitch';
import { pathOnly } from '@/routes/match';
import { PageHead } from '@/components/ui/PageHead';
import { getItem, setItem } from '@/utils/storage';

/** Pages whose layout hides logout (console-shell 2.3): login, form, quickly, example and preview. */
const NO_LOGOUT = /\/(login|form|quickly|example|preview|apply)(\/|$)/;
const OPEN_ID_KEY = 'user_openid';

export function isAdminPath(path: string): boolean {
  return path.includes('admin');
}

export function isMobilePath(path: string): boolean {
  return path.startsWith('/mobile/calibration');
}

const Shell = styled.div`
  min-height: 100vh;
  background: ${({ theme }) => theme.colors.layoutBg};
`;

const Bar = styled.header`
  display: flex;
  align-items: center;
  gap: 12px;
  padding: 0 24px;
  height: 56px;
  background: ${({ theme }) => theme.colors.container};
  border-bottom: 1px solid ${({ theme }) => theme.colors.border};
  position: sticky;
  top: 0;
  z-index: 10;

  /* A phone opening a desktop calibration page: the bar wraps (brand and actions, then the links
     on their own scrolling row) instead of pushing "Log out" off the screen. */
  @media (max-width: 575px) {
    flex-wrap: wrap;
    height: auto;
    min-height: 56px;
    padding: 8px 12px;
    row-gap: 4px;

    nav {
      order: 3;
      flex-basis: 100%;
    }
  }
`;

const Brand = styled(Link)`
  font-weight: 600;
  font-size: 16px;
  color: ${({ theme }) => theme.colors.text};
  white-space: nowrap;
`;

const Nav = styled.nav`
  display: flex;
  gap: 16px;
  flex: 1;
  min-width: 0;
  overflow-x: auto;
  a {
    white-space: nowrap;
  }
`;

const Body = styled.main`
  max-width: 1200px;
  margin: 0 auto;
  padding: 24px;

  /* On a phone a wide table scrolls inside the page, never the page sideways. */
  @media (max-width: 575px) {
    padding: 12px;
    overflow-x: auto;
  }
`;

const MobileBar = styled.header`
  display: flex;
  align-items: center;
  gap: 8px;
  padding: 8px 12px;
  background: ${({ theme }) => theme.colors.container};
  border-bottom: 1px solid ${({ theme }) => theme.colors.border};
  position: sticky;
  top: 0;
  z-index: 10;
`;

const MobileBody = styled.main`
  padding: 12px;
`;

function ContactQr() {
  const { t } = useTranslation('calibration');
  const branding = useSiteBranding();
  // The popover renders its content in the browser only (when opened).
  const here = typeof window === 'undefined' ? '' : `${window.location.origin}/mobile/calibration/home`;
  const value = branding?.calibrationUrl || here || '/mobile/calibration/home';
  return (
    <Popover
      trigger="click"
      content={
        <Space direction="vertical" align="center" data-testid="calibration-contact-qr">
          <QRCode value={value} size={140} />
          <Typography.Text type="secondary">{t('layout.contactHint')}</Typography.Text>
        </Space>
      }
    >
      <Button icon={<QrcodeOutlined />}>{t('layout.contact')}</Button>
    </Popover>
  );
}

function LogoutButton({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation('calibration');
  const session = useSession();
  if (session.status === 'booting' || !session.token) return null;
  return (
    <Button icon={<LogoutOutlined />} onClick={() => void session.logout()} data-testid="calibration-logout">
      {compact ? null : t('layout.logout')}
    </Button>
  );
}

/**
 * Spec 2.1: under mobile calibration routes inside the messaging app's browser an open id is
 * obtained: a `code` in the query is exchanged by GET /payment/payment/getOpenId and kept as
 * user_openid (the provider's OAuth redirect needs the site's app id, which is configured there).
 */
function useOpenId() {
  const router = useRouter();
  useEffect(() => {
    if (!router.isReady || typeof navigator === 'undefined' || !/MicroMessenger/i.test(navigator.userAgent)) return;
    if (getItem<string>(OPEN_ID_KEY)) return;
    const code = router.query.code;
    if (typeof code !== 'string') return;
    void get<{ openId: string } | string>('/payment/payment/getOpenId', { code }, { handleErrors: false })
      .then((answer) => setItem(OPEN_ID_KEY, typeof answer === 'string' ? answer : answer.openId))
      .catch(() => undefined);
  }, [router.isReady, router.query.code]);
}

interface LayoutProps {
  children: ReactNode;
  /** The page's own heading (mobile bar). */
  title?: ReactNode;
}

/** The calibration service's frame: the desktop layout or, under /mobile/calibration, the phone one. */
export function CalibrationLayout({ children, title }: LayoutProps) {
  const router = useRouter();
  const { t } = useTranslation('calibration');
  const path = pathOnly(router.asPath);
  const head = <PageHead fixed={t('title')} />;
  if (isMobilePath(path)) return <MobileLayout title={title}>{children}</MobileLayout>;
  const admin = isAdminPath(path);
  const onOrderPage = /\/admin\/order/.test(path);
  return (
    <Shell>
      {head}
      <Bar>
        <Brand href={admin ? '/calibration/admin/orders' : '/calibration/home'}>{t('title')}</Brand>
        <Nav>
          {admin ? (
            <>
              <Link href="/calibration/admin/orders">{t('nav.allOrders')}</Link>
              {onOrderPage ? (
                <Link href="/calibration/admin/quick" data-testid="calibration-quick-list-link">
                  {t('nav.quickList')}
                </Link>
              ) : (
                <Link href="/calibration/admin/quick">{t('nav.quickList')}</Link>
              )}
              {/^\/calibration\/admin\/order\/\d+$/.test(path) ? (
                <a href="#results" data-testid="calibration-enter-certificate">
                  {t('nav.enterCertificate')}
                </a>
              ) : null}
            </>
          ) : (
            <>
              <Link href="/calibration/home">{t('nav.home')}</Link>
              <Link href="/calibration/form">{t('nav.apply')}</Link>
              <Link href="/calibration/quickly">{t('nav.quick')}</Link>
              <Link href="/calibration/form/example">{t('nav.example')}</Link>
              <Link href="/calibration/orders">{t('nav.orders')}</Link>
            </>
          )}
        </Nav>
        <Space>
          <ContactQr />
          <LanguageSwitch />
          {NO_LOGOUT.test(path) ? null : <LogoutButton />}
        </Space>
      </Bar>
      <Body>{children}</Body>
    </Shell>
  );
}

function MobileLayout({ children, title }: LayoutProps) {
  const router = useRouter();
  const { t } = useTranslation('calibration');
  useOpenId();
  const path = pathOnly(router.asPath);
  const [search, setSearch] = useState('');
  const listOrDetail = path === '/mobile/calibration/home' || path.startsWith('/mobile/calibration/order');
  const home = path === '/mobile/calibration/home';
  return (
    <Shell>
      <PageHead fixed={t('title')} />
      <MobileBar>
        {home ? null : (
          <Button
            type="text"
            icon={<ArrowLeftOutlined />}
            aria-label={t('layout.back')}
            onClick={() => router.back()}
            data-testid="calibration-back"
          />
        )}
        {listOrDetail ? (
          <Input
            size="small"
            allowClear
            prefix={<SearchOutlined />}
            placeholder={t('layout.searchOrder')}
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            onPressEnter={() =>
              void router.push({
                pathname: '/mobile/calibration/home',
                query: search.trim() ? { orderNo: search.trim() } : {},
              })
            }
            data-testid="calibration-search"
          />
        ) : (
          <Typography.Text strong style={{ flex: 1 }} ellipsis>
            {title ?? t('title')}
          </Typography.Text>
        )}
        <Dropdown
          trigger={['click']}
          menu={{
            items: [
              { key: '/mobile/calibration/apply', label: t('nav.apply') },
              { key: '/mobile/calibration/quickly', label: t('nav.quick') },
              { key: '/mobile/calibration/device/example', label: t('nav.example') },
              { key: '/mobile/calibration/home', label: t('nav.orders') },
            ],
            onClick: ({ key }) => void router.push(key),
          }}
        >
          <Button type="primary" size="small" icon={<PlusOutlined />} data-testid="calibration-new-order">
            {t('layout.newOrder')}
          </Button>
        </Dropdown>
        <LanguageSwitch compact />
        {listOrDetail ? <LogoutButton compact /> : null}
      </MobileBar>
      <MobileBody>{children}</MobileBody>
    </Shell>
  );
}
