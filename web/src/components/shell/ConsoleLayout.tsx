import { Drawer } from 'antd';
import { useRouter } from 'next/router';
import { useCallback, useState, type ReactNode } from 'react';
import styled from 'styled-components';
import { ExpiredDevicesModal } from '@/components/device/ExpiredDevicesModal';
import { ErrorBoundary } from '@/components/errors/ErrorBoundary';
import { ErrorView } from '@/components/errors/ErrorView';
import { useSession } from '@/lib/SessionContext';
import { HEADER_HEIGHT, SIDER_COLLAPSED_WIDTH, SIDER_WIDTH } from '@/components/ui/constants';
import { useViewport, type Viewport } from '@/hooks/useViewport';
import { pathOnly } from '@/routes/match';
import type { RouteDef } from '@/routes/routes';
import { ChangePasswordDrawer } from './ChangePasswordDrawer';
import { HeaderBar } from './HeaderBar';
import { NoticeModal } from './NoticeModal';
import { SideMenu } from './SideMenu';
import { TabsBar } from './TabsBar';
import { EMPTY_TABS, openTab, type TabsState } from './tabs';
import { useNavigate } from './useNavigate';
import { usePasswordAgeing } from './usePasswordAgeing';

const Sider = styled.aside<{ $width: number }>`
  position: fixed;
  top: 0;
  bottom: 0;
  left: 0;
  z-index: 110;
  width: ${({ $width }) => $width}px;
  overflow: hidden auto;
  background: ${({ theme }) => theme.colors.siderBg};
  transition: width 0.2s;

  .ant-menu {
    border-inline-end: none;
  }
`;

const Main = styled.div<{ $left: number }>`
  min-height: 100vh;
  margin-left: ${({ $left }) => $left}px;
  padding-top: ${HEADER_HEIGHT}px;
  background: ${({ theme }) => theme.colors.layoutBg};
  transition: margin-left 0.2s;
`;

const Content = styled.main`
  margin: 16px;
  padding: 24px;
  min-height: calc(100vh - ${HEADER_HEIGHT + 41 + 32}px);
  background: ${({ theme }) => theme.colors.container};
  border-radius: ${({ theme }) => theme.radius * 2}px;
  box-sizing: border-box;

  @media (max-width: ${({ theme }) => theme.breakpoints.tablet - 1}px) {
    margin: 8px;
    padding: 12px;
  }
`;

const DrawerMenu = styled.div`
  min-height: 100%;
  background: ${({ theme }) => theme.colors.siderBg};
`;

/** Spec 2.3: the sidebar opens on desktop and mobile (a drawer there) and closes on tablet. */
function initialCollapsed(viewport: Viewport): boolean {
  return viewport === 'tablet';
}

// On a phone the sidebar is a drawer the header's button opens: it never opens by itself over the
// page (issue 47: it covered every full load, with the modals stacked on top of it).

interface ConsoleLayoutProps {
  route: RouteDef;
  /** allowed: the page; forbidden: 403; missing: 404 (not on this site or not built). */
  verdict: 'allowed' | 'forbidden' | 'missing';
  children: ReactNode;
}

/**
 * The console shell (spec 2.3): sidebar 256 / 80 px, header, multi-tab bar and the page, at
 * desktop, tablet and mobile widths; the notice modal and the password-ageing warning after sign-in.
 */
export function ConsoleLayout({ route, verdict, children }: ConsoleLayoutProps) {
  const router = useRouter();
  const navigate = useNavigate();
  const { info, access } = useSession();
  const viewport = useViewport();
  const [collapsed, setCollapsed] = useState(() => initialCollapsed(viewport));
  const [drawerOpen, setDrawerOpen] = useState(false);
  // The start-up modals one at a time: the notices first, then the expired devices.
  const [noticesDone, setNoticesDone] = useState(false);
  const noticesSettled = useCallback(() => setNoticesDone(true), []);
  const [tabs, setTabs] = useState<TabsState>(() => openTab(EMPTY_TABS, { key: router.asPath, name: route.name }));
  const [tabbedPath, setTabbedPath] = useState(router.asPath);
  const [changingPassword, setChangingPassword] = useState(false);
  const [shownViewport, setShownViewport] = useState(viewport);

  // Crossing a breakpoint resets the sidebar to that width's default.
  if (shownViewport !== viewport) {
    setShownViewport(viewport);
    setCollapsed(initialCollapsed(viewport));
    setDrawerOpen(false);
  }

  // Every page opened gets (or focuses) its tab.
  if (tabbedPath !== router.asPath) {
    setTabbedPath(router.asPath);
    setTabs(openTab(tabs, { key: router.asPath, name: route.name }));
  }

  const go = useCallback(
    (path: string) => {
      setDrawerOpen(false);
      navigate(path);
    },
    [navigate],
  );
  const openPasswordDrawer = useCallback(() => setChangingPassword(true), []);
  usePasswordAgeing(info?.baseAccount, openPasswordDrawer);

  const mobile = viewport === 'mobile';
  const siderWidth = mobile ? 0 : collapsed ? SIDER_COLLAPSED_WIDTH : SIDER_WIDTH;
  const current = { menu: route.menu, path: pathOnly(router.asPath) };
  const menu = access?.menu ?? [];
  const home = access?.landing ?? '/';

  return (
    <>
      {mobile ? (
        <Drawer
          placement="left"
          open={drawerOpen}
          onClose={() => setDrawerOpen(false)}
          size={SIDER_WIDTH}
          closable={false}
          styles={{ body: { padding: 0 } }}
        >
          <DrawerMenu data-testid="side-menu">
            <SideMenu items={menu} current={current} collapsed={false} onNavigate={go} />
          </DrawerMenu>
        </Drawer>
      ) : (
        <Sider $width={siderWidth} data-testid="side-menu">
          <SideMenu items={menu} current={current} collapsed={collapsed} onNavigate={go} />
        </Sider>
      )}
      <Main $left={siderWidth}>
        <HeaderBar
          left={siderWidth}
          collapsed={mobile ? !drawerOpen : collapsed}
          compact={mobile}
          onToggleMenu={() => (mobile ? setDrawerOpen((open) => !open) : setCollapsed((value) => !value))}
          onNavigate={go}
          onChangePassword={openPasswordDrawer}
        />
        <TabsBar state={tabs} onChange={setTabs} onNavigate={go} />
        <Content data-testid="page-content">
          <ErrorBoundary resetKey={router.asPath} fallback={<ErrorView status={500} home={home} />}>
            {verdict === 'allowed' ? children : <ErrorView status={verdict === 'forbidden' ? 403 : 404} home={home} />}
          </ErrorBoundary>
        </Content>
      </Main>
      <ChangePasswordDrawer open={changingPassword} onClose={() => setChangingPassword(false)} />
      {info ? <NoticeModal accountId={info.baseAccount.id} ready={!drawerOpen} onSettled={noticesSettled} /> : null}
      {info ? <ExpiredDevicesModal accountId={info.baseAccount.id} ready={noticesDone && !drawerOpen} /> : null}
    </>
  );
}
