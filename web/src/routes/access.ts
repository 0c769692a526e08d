/**
 * The route builder of spec section 6: from the style model's menu (themes/<model>/theme.json) and
 * the granted permission keys, the menu the sidebar shows, the routes the user may open and the
 * landing path. Style model junjia has a limited menu and lands on /device/list; the others have
 * the full menu including home.
 */
import { getStyleModel, type MenuEntry } from '@/theme/styleModels';
import { matchRoute } from './match';
import { hasPermission, type Granted } from './permissions';
import { CONSOLE_ROUTES, type ExternalSite, type RouteDef } from './routes';

/** The configured addresses of the external sites (unset or empty: their menu entries are hidden). */
export type ExternalUrls = Partial<Record<ExternalSite, string | null>>;

export interface MenuItem {
  key: string;
  path?: string;
  icon?: string;
  children?: MenuItem[];
}

export interface Access {
  styleModel: string;
  menu: MenuItem[];
  /** Names of the console routes this user may open on this site. */
  permitted: ReadonlySet<string>;
  /** Names of the console routes the style model has at all (others are missing: 404). */
  available: ReadonlySet<string>;
  landing: string;
}

function keysOf(entries: MenuEntry[]): string[] {
  return entries.flatMap((entry) => [entry.key, ...keysOf(entry.children ?? [])]);
}

/** Menu entries the user may see: leaves by their route's permission, groups when a child is left; an external
 * site's entry by its route's permission and only while its address is set. */
export function filterMenu(entries: MenuEntry[], granted: Granted, externals: ExternalUrls = {}): MenuItem[] {
  return entries.flatMap((entry): MenuItem[] => {
    if (entry.children?.length) {
      const children = filterMenu(entry.children, granted, externals);
      return children.length ? [{ key: entry.key, path: entry.path, icon: entry.icon, children }] : [];
    }
    const route = CONSOLE_ROUTES.find((item) => item.name === entry.key);
    // A leaf shows by its route's permission (a page kept under another page's keys, such as the
    // stability profiles under waybill.list); a key without a route by itself.
    const visible = route?.external
      ? Boolean(externals[route.external]) && hasPermission(granted, route.permission)
      : hasPermission(granted, route?.permission ?? entry.key);
    return visible ? [{ key: entry.key, path: entry.path, icon: entry.icon }] : [];
  });
}

function firstPath(items: MenuItem[]): string | undefined {
  for (const item of items) {
    const found = item.children?.length ? firstPath(item.children) : item.path;
    if (found) return found;
  }
  return undefined;
}

/**
 * Everything the shell needs to know about what this user may do on this site.
 * `homePage` (accountInfo.userProfile.homePage) wins as the landing path when the user may open it.
 */
export function buildAccess(
  styleModelName: string | null | undefined,
  granted: Granted,
  homePage?: string | null,
  externals: ExternalUrls = {},
): Access {
  const model = getStyleModel(styleModelName);
  const modelKeys = new Set(keysOf(model.menu));
  const available = new Set(
    CONSOLE_ROUTES.filter((route) => route.menu && modelKeys.has(route.menu)).map((route) => route.name),
  );
  const permitted = new Set(
    CONSOLE_ROUTES.filter((route) => available.has(route.name) && hasPermission(granted, route.permission)).map(
      (route) => route.name,
    ),
  );
  const menu = filterMenu(model.menu, granted, externals);
  const opens = (path: string | null | undefined) => {
    const match = path ? matchRoute(path) : null;
    return Boolean(match && permitted.has(match.route.name));
  };
  const landing = [homePage, model.landing].find(opens) ?? firstPath(menu) ?? model.landing;
  return { styleModel: model.name, menu, permitted, available, landing };
}

export type RouteAccess = 'allowed' | 'forbidden' | 'missing';

/** Whether a console route opens (allowed), is refused (403) or does not exist on this site (404). */
export function routeAccess(access: Access, route: RouteDef): RouteAccess {
  if (!access.available.has(route.name)) return 'missing';
  return access.permitted.has(route.name) ? 'allowed' : 'forbidden';
}

/** The landing path of a style model before the user is known (the "/" redirect). */
export function modelLanding(styleModelName: string | null | undefined): string {
  return getStyleModel(styleModelName).landing;
}
