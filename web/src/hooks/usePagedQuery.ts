import { useTranslation } from 'next-i18next/pages';
import { useMemo, useState } from 'react';
import type { ReadKey } from '@/api/read';
import { DEFAULT_PAGE_SIZE, pageAfterEmpty, paginationConfig, type Page } from '@/components/ui/table';
import { useDebouncedValue } from './useDebouncedValue';
import { useRead } from './useRead';

/**
 * The filters a paged query sends: the debounced ones, except right after the query resumed from a
 * pause, when the live filters (unchanged since) are sent at once.
 */
export function filtersToSend<F>(live: F, debounced: F, liveKey: string, resumedKey: string | null): F {
  return resumedKey !== null && resumedKey === liveKey ? live : debounced;
}

export interface PageArgs {
  start: number;
  pageSize: number;
}

/** The request of a paged list's first page for `filters`: what usePagedQuery sends first. */
export function firstPageKey<F extends object>(request: (args: PageArgs & F) => ReadKey, filters: F): ReadKey {
  return request({ ...filters, start: 1, pageSize: DEFAULT_PAGE_SIZE });
}

/**
 * A paged list for the shared list component: SWR keyed by the request (`[path, {filters, start,
 * pageSize}]`, built by the api module's key function) with the one fetcher; filter changes are
 * debounced (800 ms) and go back to page 1; an empty later page goes back one page (spec 4).
 * `request` null pauses the query.
 */
export function usePagedQuery<T, F extends object>(request: ((args: PageArgs & F) => ReadKey) | null, filters: F) {
  const { t } = useTranslation('shell');
  const debounced = useDebouncedValue(filters);
  // The query resumes (request no longer null) with the filters of that moment, not the debounced
  // ones of before: those lack what the pause waited for (the device-parameters page sent its first
  // request without the type it waited for and showed a 422 on every load, issue 47).
  const liveKey = JSON.stringify(filters);
  const [paused, setPaused] = useState(request === null);
  const [resumedKey, setResumedKey] = useState<string | null>(null);
  if (request === null && !paused) setPaused(true);
  if (request !== null && paused) {
    setPaused(false);
    setResumedKey(liveKey);
  }
  const settledFilters = filtersToSend(filters, debounced, liveKey, resumedKey);
  const filterKey = JSON.stringify(settledFilters);
  const [paging, setPaging] = useState({ page: 1, pageSize: DEFAULT_PAGE_SIZE, filterKey });
  // Other filters: back to the first page.
  const page = paging.filterKey === filterKey ? paging.page : 1;
  const { pageSize } = paging;
  const swr = useRead<Page<T>>(request ? request({ ...settledFilters, start: page, pageSize }) : null, {
    keepPreviousData: true,
  });
  const rows = swr.data?.list;
  // The answer for this very page (not the previous one kept on screen) is empty: one page back.
  const back = swr.data && !swr.isLoading ? pageAfterEmpty(page, swr.data.list.length) : null;
  if (back !== null) setPaging({ page: back, pageSize, filterKey });
  const pagination = useMemo(
    () =>
      paginationConfig(page, pageSize, swr.data?.total ?? 0, t, (next, size) =>
        setPaging({ page: next, pageSize: size, filterKey }),
      ),
    [page, pageSize, swr.data?.total, t, filterKey, setPaging],
  );
  return {
    data: rows ?? [],
    total: swr.data?.total ?? 0,
    loading: swr.isLoading || swr.isValidating,
    error: swr.error,
    pagination,
    mutate: swr.mutate,
  };
}
