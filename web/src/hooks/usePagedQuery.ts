import { useTranslation } from 'next-i18next/pages';
import { useMemo, useState } from 'react';
import type { ReadKey } from '@/api/read';
import { DEFAULT_PAGE_SIZE, pageAfterEmpty, paginationConfig, type Page } from '@/components/ui/table';
import { useDebouncedValue } from './useDebouncedValue';
import { useRead } from './useRead';

export interface PageArgs {
  start: number;
  pageSize: number;
}

/**
 * A paged list for the shared list component: SWR keyed by the request (`[path, {filters, start,
 * pageSize}]`, built by the api module's key function) with the one fetcher; filter changes are
 * debounced (800 ms) and go back to page 1; an empty later page goes back one page (spec 4).
 * `request` null pauses the query.
 */
export function usePagedQuery<T, F extends object>(request: ((args: PageArgs & F) => ReadKey) | null, filters: F) {
  const { t } = useTranslation('shell');
  const settledFilters = useDebouncedValue(filters);
  const filterKey = JSON.stringify(settledFilters);
  const [paging, setPaging] = useState({ page: 1, pageSize: DEFAULT_PAGE_SIZE, filterKey });
  // Other filters: back to the first page.
  const page = paging.filterKey === filterKey ? paging.page : 1;
  const { pageSize } = paging;
  const swr = useRead<Page<T>>(request ? request({ ...settledFilters, start: page, pageSize }) : null, { keepPreviousData: true });
  const rows = swr.data?.list;
  // The answer for this very page (not the previous one kept on screen) is empty: one page back.
  const back = swr.data && !swr.isLoading ? pageAfterEmpty(page, swr.data.list.length) : null;
  if (back !== null) setPaging({ page: back, pageSize, filterKey });
  const pagination = useMemo(
    () => paginationConfig(page, pageSize, swr.data?.total ?? 0, t, (next, size) => setPaging({ page: next, pageSize: size, filterKey })),
    [page, pageSize, swr.data?.total, t, filterKey],
  );
  return { data: rows ?? [], total: swr.data?.total ?? 0, loading: swr.isLoading || swr.isValidating, error: swr.error, pagination, mutate: swr.mutate };
}
