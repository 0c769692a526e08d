import Router from 'next/router';
import { ACCESS_TOKEN_KEY, LOGIN_PATH, LOGOUT_REDIRECT_DELAY_MS, TOKEN_LIFETIME_MS } from './constants';
import { getItem, removeItem, setItem } from '@/utils/storage';

/** The access token of spec section 4: stored for 7 days under `Access-Token`. */
export function getAccessToken(): string | null {
  return getItem<string>(ACCESS_TOKEN_KEY);
}

export function setAccessToken(token: string): void {
  setItem(ACCESS_TOKEN_KEY, token, TOKEN_LIFETIME_MS);
}

export function clearSession(): void {
  removeItem(ACCESS_TOKEN_KEY);
}

/**
 * End the session (spec section 8: 401, 403, body code 2010): forget the token, then go to the
 * sign-in page after the redirect delay, coming back to the current page afterwards.
 */
export function endSession(): void {
  clearSession();
  if (typeof window === 'undefined') return;
  const { pathname, search } = window.location;
  if (pathname === LOGIN_PATH) return;
  const redirect = encodeURIComponent(`${pathname}${search}`);
  window.setTimeout(() => void Router.replace(`${LOGIN_PATH}?redirect=${redirect}`), LOGOUT_REDIRECT_DELAY_MS);
}
