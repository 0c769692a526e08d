import { useTranslation } from 'next-i18next/pages';
import { useCallback } from 'react';

/**
 * Labels of menu entries and console routes: the `menu` namespace, keyed by permission key or
 * route name ("operation.product.type"); the keys contain dots, so they are flat, not nested.
 */
export function useMenuLabel(): (key: string) => string {
  const { t } = useTranslation('menu');
  return useCallback((key: string) => t(key, { keySeparator: false }), [t]);
}
