import { Menu, type MenuProps } from 'antd';
import { useMemo, useState } from 'react';
import styled from 'styled-components';
import type { MenuItem } from '@/routes/access';
import { useSiteBranding } from '@/lib/SiteContext';
import { useMenuLabel } from './menuLabel';
import { MENU_ICONS } from './menuIcons';

const Brand = styled.div`
  display: flex;
  align-items: center;
  justify-content: center;
  height: 56px;
  padding: 0 16px;
  overflow: hidden;

  img {
    display: block;
    max-width: 100%;
    height: 32px;
    object-fit: contain;
  }
`;

type AntdItem = Required<MenuProps>['items'][number];

function toItems(items: MenuItem[], label: (key: string) => string): AntdItem[] {
  return items.map((item) =>
    item.children?.length
      ? {
          key: item.key,
          label: label(item.key),
          icon: item.icon ? MENU_ICONS[item.icon] : undefined,
          children: toItems(item.children, label),
        }
      : { key: item.key, label: label(item.key), icon: item.icon ? MENU_ICONS[item.icon] : undefined },
  );
}

/** Leaves by key, and the group keys above each one. */
function index(
  items: MenuItem[],
  parents: string[] = [],
  into = new Map<string, { path?: string; parents: string[] }>(),
) {
  for (const item of items) {
    if (item.children?.length) index(item.children, [...parents, item.key], into);
    else into.set(item.key, { path: item.path, parents });
  }
  return into;
}

interface SideMenuProps {
  items: MenuItem[];
  /** Menu key of the current route, and its path (for entries sharing a path). */
  current: { menu?: string; path: string };
  collapsed: boolean;
  onNavigate: (path: string) => void;
}

/** The sidebar: the site's logo and title, then the permitted menu of its style model. */
export function SideMenu({ items, current, collapsed, onNavigate }: SideMenuProps) {
  const branding = useSiteBranding();
  const label = useMenuLabel();
  const logo = (collapsed ? branding?.browserLogo : branding?.indexLogo) || branding?.browserLogo;
  const leaves = useMemo(() => index(items), [items]);
  const selected = useMemo(() => {
    if (current.menu && leaves.has(current.menu)) return current.menu;
    return [...leaves.entries()].find(([, leaf]) => leaf.path === current.path)?.[0];
  }, [leaves, current.menu, current.path]);
  const [openKeys, setOpenKeys] = useState<string[]>(() => (selected ? (leaves.get(selected)?.parents ?? []) : []));

  return (
    <>
      <Brand title={branding?.title}>
        {/* Tenant logos (svg or png of any size) from the api: next/image has nothing to optimise. */}
        {/* eslint-disable-next-line @next/next/no-img-element */}
        {logo ? <img src={logo} alt={branding?.title ?? ''} /> : null}
      </Brand>
      <Menu
        mode="inline"
        theme="dark"
        inlineCollapsed={collapsed}
        items={toItems(items, label)}
        selectedKeys={selected ? [selected] : []}
        {...(collapsed ? {} : { openKeys, onOpenChange: setOpenKeys })}
        onClick={({ key }) => {
          const path = leaves.get(String(key))?.path;
          if (path) onNavigate(path);
        }}
      />
    </>
  );
}
