import Router from 'next/router';
import { loginPathFor, pathOnly } from '@/routes/match';
import { getItem, removeItem, setItem } from '@/utils/storage';
import { ACCESS_TOKEN_KEY, LOGOUT_REDIRECT_DELAY_MS, TOKEN_LIFETIME_MS } from './constants';

type TokenListener = (token: string | null) => void;
const listeners = new Set<TokenListener>();

/** Hear about sign-in and sign-out in this tab (another tab's changes reload the page instead). */
export function onTokenChange(listener: TokenListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function announce(token: string | null): void {
  for (const listener of listeners) listener(token);
}

/** The access token of spec section 4: stored for 7 days under `Access-Token`. */
export function getAccessToken(): string | null {
  return getItem<string>(ACCESS_TOKEN_KEY);
}

export function setAccessToken(token: string): void {
  setItem(ACCESS_TOKEN_KEY, token, TOKEN_LIFETIME_MS);
  announce(token);
}

/** Forget the token (and with it the roles, which live with the token in the SWR cache). */
export function clearSession(): void {
  const had = getAccessToken() !== null;
  removeItem(ACCESS_TOKEN_KEY);
  if (had) announce(null);
}

/** The sign-in page for the current page, coming back to it afterwards. */
export function loginRedirectFor(asPath: string): string {
  const login = loginPathFor(asPath);
  const here = pathOnly(asPath);
  if (here === login) return login;
  return `${login}?redirect=${encodeURIComponent(asPath)}`;
}

/**
 * End the session (spec section 8: 401, 403, body code 2010): forget the token, then go to the
 * sign-in page after the redirect delay, coming back to the current page afterwards. The shell
 * installs its own version (components/session) that also resets its state.
 */
export function endSession(): void {
  clearSession();
  if (typeof window === 'undefined') return;
  const { pathname, search } = window.location;
  const target = loginRedirectFor(`${pathname}${search}`);
  if (pathOnly(target) === pathname) return;
  window.setTimeout(() => void Router.replace(target), LOGOUT_REDIRECT_DELAY_MS);
}

/**
 * Spec 2.1: a token in the query (without orderId, which belongs to payment pages) is stored as the
 * access token and the address is rewritten without it. Returns the address to show, or null when
 * there was nothing to take.
 */
export function takeTokenFromQuery(asPath: string): string | null {
  const [beforeHash, hash = ''] = asPath.split('#');
  const [path, search = ''] = beforeHash.split('?');
  const query = new URLSearchParams(search);
  const token = query.get('token');
  if (!token || query.has('orderId')) return null;
  setAccessToken(token);
  query.delete('token');
  const rest = query.toString();
  return `${path}${rest ? `?${rest}` : ''}${hash ? `#${hash}` : ''}`;
}
