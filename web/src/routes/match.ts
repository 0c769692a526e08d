import { ROUTES, type RouteDef } from './routes';
import { LOGIN_PATH } from '@/api/constants';

export interface RouteMatch {
  route: RouteDef;
  params: Record<string, string>;
}

/** "/device/detail/7?x=1#y" -> "/device/detail/7" (no trailing slash except for "/"). */
export function pathOnly(asPath: string): string {
  const path = asPath.split(/[?#]/)[0] || '/';
  return path.length > 1 ? path.replace(/\/+$/, '') || '/' : path;
}

function segments(path: string): string[] {
  return path.split('/').filter(Boolean);
}

/**
 * Match a path against one pattern: literal segments, `:name` (one segment), a trailing `:name?`
 * (zero or one) and a trailing `:name*` (zero or more). Parameters are URI-decoded.
 */
export function matchPattern(
  pattern: string,
  path: string,
  constraints: Record<string, RegExp> = {},
): Record<string, string> | null {
  const want = segments(pattern);
  const have = segments(path);
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i += 1) {
    const part = want[i];
    if (part.startsWith(':')) {
      const modifier = part.at(-1);
      const name = part.slice(1).replace(/[?*]$/, '');
      if (modifier === '*') {
        params[name] = have.slice(i).join('/');
        return i === want.length - 1 ? params : null;
      }
      if (have[i] === undefined) {
        if (modifier === '?' && i === want.length - 1) return params;
        return null;
      }
      let value: string;
      try {
        value = decodeURIComponent(have[i]);
      } catch {
        return null;
      }
      if (constraints[name] && !constraints[name].test(value)) return null;
      params[name] = value;
    } else if (have[i] !== part) {
      return null;
    }
  }
  return have.length === want.length ? params : null;
}

/** The route answering a path (query and hash ignored), or null for an unknown path. */
export function matchRoute(asPath: string, routes: RouteDef[] = ROUTES): RouteMatch | null {
  const path = pathOnly(asPath);
  for (const route of routes) {
    const params = matchPattern(route.path, path, route.params);
    if (params) return { route, params };
  }
  return null;
}

export function findRoute(name: string, routes: RouteDef[] = ROUTES): RouteDef | undefined {
  return routes.find((route) => route.name === name);
}

export function isPublicPath(asPath: string): boolean {
  return matchRoute(asPath)?.route.kind === 'public';
}

/**
 * The sign-in path for an unauthenticated visit (spec 2.1), chosen by the prefix of the requested
 * path: mobile calibration, calibration admin (a path containing "admin"), calibration, else user.
 */
export function loginPathFor(asPath: string): string {
  const path = pathOnly(asPath);
  const under = (prefix: string) => path === prefix || path.startsWith(`${prefix}/`);
  if (under('/mobile/calibration')) return '/mobile/calibration/login';
  if (under('/calibration'))
    return segments(path).includes('admin') ? '/calibration/admin/login' : '/calibration/login';
  return LOGIN_PATH;
}

/** The concrete path of a route pattern (optional parameters left out). */
export function routePath(route: RouteDef, params: Record<string, string> = {}): string {
  const parts = segments(route.path).flatMap((part) => {
    if (!part.startsWith(':')) return [part];
    const name = part.slice(1).replace(/[?*]$/, '');
    return params[name] ? [encodeURIComponent(params[name])] : [];
  });
  return `/${parts.join('/')}`;
}
