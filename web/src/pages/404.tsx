import type { GetStaticProps } from 'next';
import { useTranslation } from 'next-i18next/pages';
import { serverSideTranslations } from 'next-i18next/pages/serverSideTranslations';
import { useEffect } from 'react';
import { ErrorPage } from '@/components/errors/ErrorPage';
import { i18nConfig } from '@/i18n/config';
import { DEFAULT_LANGUAGE, getStoredLanguage, LANGUAGES } from '@/i18n/languages';

/**
 * The static 404 (built once, so without a request): both languages are shipped and the stored one
 * is applied in the browser; the branding is resolved there too. Unknown paths normally get the
 * server-rendered 404 of [...path].tsx instead.
 */
export const getStaticProps: GetStaticProps = async () => ({
  props: await serverSideTranslations(
    DEFAULT_LANGUAGE,
    ['common'],
    i18nConfig,
    LANGUAGES.filter((language) => language !== DEFAULT_LANGUAGE),
  ),
});

export default function NotFoundPage() {
  const { i18n } = useTranslation('common');
  useEffect(() => {
    void i18n.changeLanguage(getStoredLanguage());
  }, [i18n]);
  return <ErrorPage status={404} />;
}
