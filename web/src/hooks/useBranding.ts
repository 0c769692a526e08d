import { useEffect } from 'react';
import useSWR from 'swr';
import { queryByTopDomain, type Branding, type SiteState } from '@/api/customPage';
import { ApiError } from '@/api/errors';
import { getItem, removeItem, setItem } from '@/utils/storage';

/** The last branding this browser saw for this origin (spec section 4: the fallback copy). */
export const BRANDING_CACHE_KEY = 'Custom-Page';

/**
 * Load the branding in the browser. A failure falls back on the cached copy, except a 403 which
 * clears it (spec section 4 and the error catalogue).
 */
export async function loadBranding(host: string): Promise<SiteState> {
  try {
    const branding = await queryByTopDomain(host);
    setItem(BRANDING_CACHE_KEY, branding);
    return { kind: 'ok', branding };
  } catch (error) {
    const failure = error instanceof ApiError ? error.failure : undefined;
    if (failure?.status === 403) {
      removeItem(BRANDING_CACHE_KEY);
      return { kind: 'forbidden', status: 403, message: failure.serverMessage ?? '' };
    }
    if (failure?.status === 410) {
      removeItem(BRANDING_CACHE_KEY);
      return { kind: 'closed', status: 410, message: failure.serverMessage ?? '' };
    }
    if (failure?.status === 421 || failure?.status === 404) {
      return { kind: 'notConfigured', status: failure.status, message: failure.serverMessage ?? '' };
    }
    const cached = getItem<Branding>(BRANDING_CACHE_KEY);
    return cached ? { kind: 'ok', branding: cached } : { kind: 'unavailable', status: 503 };
  }
}

/**
 * The site state of the page: what the server rendered, kept in the cache when it is a branding;
 * when the server could not get one (or did not try), resolved again in the browser.
 */
export function useBranding(site: SiteState): SiteState {
  useEffect(() => {
    if (site.kind === 'ok') setItem(BRANDING_CACHE_KEY, site.branding);
    if (site.kind === 'forbidden') removeItem(BRANDING_CACHE_KEY);
  }, [site]);
  const retry = site.kind === 'unavailable' || site.kind === 'unresolved';
  const host = typeof window === 'undefined' ? null : window.location.hostname;
  const { data } = useSWR(
    retry && host ? (['customPage', host] as const) : null,
    ([, topDomain]) => loadBranding(topDomain),
    {
      revalidateOnFocus: false,
      shouldRetryOnError: false,
    },
  );
  return data ?? site;
}
