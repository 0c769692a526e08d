/** The two console languages (spec section 1) and how the chosen one is remembered. */
export const LANGUAGES = ['zh-CN', 'en-US'] as const;
export type Language = (typeof LANGUAGES)[number];

/** The overseas map edition (build flag NEXT_PUBLIC_OVERSEAS=1): English by default, no help link. */
export const OVERSEAS = process.env.NEXT_PUBLIC_OVERSEAS === '1';

/** zh-CN by default; en-US when the overseas edition is built (NEXT_PUBLIC_OVERSEAS=1). */
export const DEFAULT_LANGUAGE: Language = OVERSEAS ? 'en-US' : 'zh-CN';

/** Cookie read by the server render and the request client; mirrored in localStorage. */
export const LANGUAGE_COOKIE = 'lang';
export const LANGUAGE_STORAGE_KEY = 'lang';
const ONE_YEAR_S = 365 * 24 * 3600;

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

export function resolveLanguage(value: unknown): Language {
  return isLanguage(value) ? value : DEFAULT_LANGUAGE;
}

export function readCookie(cookieHeader: string, name: string): string | null {
  for (const part of cookieHeader.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return null;
}

/** The language of this browser: cookie first (what the server renders), then localStorage. */
export function getStoredLanguage(): Language {
  if (typeof document === 'undefined') return DEFAULT_LANGUAGE;
  const fromCookie = readCookie(document.cookie, LANGUAGE_COOKIE);
  if (isLanguage(fromCookie)) return fromCookie;
  try {
    return resolveLanguage(window.localStorage.getItem(LANGUAGE_STORAGE_KEY));
  } catch {
    return DEFAULT_LANGUAGE;
  }
}

/** Remember the language and reload, so the server renders the page again in it (spec section 1). */
export function switchLanguage(language: Language): void {
  document.cookie = `${LANGUAGE_COOKIE}=${language}; path=/; max-age=${ONE_YEAR_S}; SameSite=Lax`;
  try {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Storage may be disabled (private mode); the cookie is what counts.
  }
  window.location.reload();
}
