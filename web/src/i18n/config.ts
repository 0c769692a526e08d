import type { UserConfig } from 'next-i18next/pages';
import { DEFAULT_LANGUAGE, LANGUAGES } from './languages';

/**
 * next-i18next configuration, passed explicitly to serverSideTranslations and appWithTranslation.
 * Next's own i18n routing is not used: paths carry no locale prefix, the language comes from the
 * `lang` cookie (see languages.ts). Namespaces: one JSON file per domain under public/locales.
 */
export const i18nConfig: UserConfig = {
  i18n: { defaultLocale: DEFAULT_LANGUAGE, locales: [...LANGUAGES] },
  // Both languages have exactly the same keys (checked by a unit test): no fallback payload.
  fallbackLng: false,
  defaultNS: 'common',
  localePath: typeof window === 'undefined' ? './public/locales' : '/locales',
  serializeConfig: false,
  react: { useSuspense: false },
};
