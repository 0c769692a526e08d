import {
  DownloadOutlined,
  FullscreenExitOutlined,
  FullscreenOutlined,
  MenuFoldOutlined,
  MenuUnfoldOutlined,
  QuestionCircleOutlined,
} from '@ant-design/icons';
import { App, Button, Tooltip } from 'antd';
import { useTranslation } from 'next-i18next/pages';
import { useEffect, useState } from 'react';
import styled from 'styled-components';
import { UnreadBadge } from '@/components/alarm/UnreadBadge';
import { useSiteBranding } from '@/lib/SiteContext';
import { HEADER_AUTO_HIDE, HEADER_HEIGHT, HEADER_HIDE_AFTER_PX } from '@/components/ui/constants';
import { LanguageSwitch } from '@/components/ui/LanguageSwitch';
import { OVERSEAS } from '@/i18n/languages';
import { UserMenu } from './UserMenu';

const Bar = styled.header<{ $left: number; $hidden: boolean }>`
  position: fixed;
  top: 0;
  right: 0;
  left: ${({ $left }) => $left}px;
  z-index: 100;
  display: flex;
  align-items: center;
  gap: 4px;
  height: ${HEADER_HEIGHT}px;
  padding: 0 12px 0 4px;
  background: ${({ theme }) => theme.colors.headerBg};
  box-shadow: 0 1px 4px ${({ theme }) => theme.colors.border};
  transform: translateY(${({ $hidden }) => ($hidden ? '-100%' : '0')});
  transition:
    transform 0.2s,
    left 0.2s;

  .title {
    flex: 1;
    min-width: 0;
    overflow: hidden;
    font-size: 16px;
    font-weight: 500;
    white-space: nowrap;
    text-overflow: ellipsis;
    color: ${({ theme }) => theme.colors.text};
  }

  .ant-btn {
    color: ${({ theme }) => theme.colors.text};
  }
`;

/** Spec 2.3: with auto-hide on, scrolling down past 300 px hides the header, scrolling up shows it. */
function useAutoHide(enabled: boolean): boolean {
  const [hidden, setHidden] = useState(false);
  useEffect(() => {
    if (!enabled) return undefined;
    let last = window.scrollY;
    const onScroll = () => {
      const top = window.scrollY;
      if (top < last || top < HEADER_HIDE_AFTER_PX) setHidden(false);
      else if (top > HEADER_HIDE_AFTER_PX) setHidden(true);
      last = top;
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, [enabled]);
  return hidden;
}

function useFullscreen() {
  const [on, setOn] = useState(false);
  useEffect(() => {
    const sync = () => setOn(Boolean(document.fullscreenElement));
    document.addEventListener('fullscreenchange', sync);
    return () => document.removeEventListener('fullscreenchange', sync);
  }, []);
  return on;
}

interface HeaderBarProps {
  left: number;
  collapsed: boolean;
  compact: boolean;
  onToggleMenu: () => void;
  onNavigate: (path: string) => void;
  onChangePassword: () => void;
}

/**
 * The header of spec 2.3: menu collapse, help (default-campaign site, not the overseas edition),
 * downloads, fullscreen, language switch, user menu.
 */
export function HeaderBar({ left, collapsed, compact, onToggleMenu, onNavigate, onChangePassword }: HeaderBarProps) {
  const { t } = useTranslation('shell');
  const { message } = App.useApp();
  const branding = useSiteBranding();
  const hidden = useAutoHide(HEADER_AUTO_HIDE);
  const fullscreen = useFullscreen();

  const toggleFullscreen = async () => {
    if (!document.fullscreenEnabled || !document.documentElement.requestFullscreen) {
      void message.error(t('header.fullscreenUnsupported'));
      return;
    }
    try {
      if (document.fullscreenElement) await document.exitFullscreen();
      else await document.documentElement.requestFullscreen();
    } catch {
      void message.error(t('header.fullscreenUnsupported'));
    }
  };

  return (
    <Bar $left={left} $hidden={hidden} data-testid="shell-header">
      <Button
        type="text"
        icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
        onClick={onToggleMenu}
        aria-label={t(collapsed ? 'header.expand' : 'header.collapse')}
        data-testid="menu-toggle"
      />
      <span className="title">{branding?.title}</span>
      {branding?.defaultCamp && !OVERSEAS ? (
        <Tooltip title={t('header.help')}>
          <Button
            type="text"
            icon={<QuestionCircleOutlined />}
            aria-label={t('header.help')}
            href="/help/center"
            target="_blank"
            rel="noopener"
          />
        </Tooltip>
      ) : null}
      <UnreadBadge onNavigate={onNavigate} />
      <Tooltip title={t('header.downloads')}>
        <Button
          type="text"
          icon={<DownloadOutlined />}
          aria-label={t('header.downloads')}
          onClick={() => onNavigate('/consumer/download')}
        />
      </Tooltip>
      {compact ? null : (
        <Tooltip title={t(fullscreen ? 'header.exitFullscreen' : 'header.fullscreen')}>
          <Button
            type="text"
            icon={fullscreen ? <FullscreenExitOutlined /> : <FullscreenOutlined />}
            aria-label={t(fullscreen ? 'header.exitFullscreen' : 'header.fullscreen')}
            onClick={() => void toggleFullscreen()}
            data-testid="fullscreen"
          />
        </Tooltip>
      )}
      <LanguageSwitch compact={compact} />
      <UserMenu compact={compact} onChangePassword={onChangePassword} />
    </Bar>
  );
}
