import { STORAGE_PREFIX } from '@/api/constants';
import { safeRedirect } from '@/utils/redirect';

/** Where to go after a social sign-in: the login page's `redirect`, kept while at the provider. */
const KEY = `${STORAGE_PREFIX}social-redirect`;

export function rememberSocialRedirect(redirect: unknown): void {
  try {
    const value = safeRedirect(redirect, '');
    if (value) window.sessionStorage.setItem(KEY, value);
    else window.sessionStorage.removeItem(KEY);
  } catch {
    // storage disabled: the user lands on the site's landing page instead
  }
}

export function takeSocialRedirect(): string | undefined {
  try {
    const value = window.sessionStorage.getItem(KEY) ?? undefined;
    window.sessionStorage.removeItem(KEY);
    return value;
  } catch {
    return undefined;
  }
}
