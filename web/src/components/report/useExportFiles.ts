import { useTranslation } from 'next-i18next/pages';
import { useMemo, useState } from 'react';
import { filePageKey, type ExportFile } from '@/api/report';
import { anyGenerating, GENERATING_REFRESH_MS } from '@/components/report/helpers';
import { DEFAULT_PAGE_SIZE, pageAfterEmpty, paginationConfig, type Page } from '@/components/ui/table';
import { useRead } from '@/hooks/useRead';

/**
 * The download centre's files, a page at a time. While any row of the page is generating the page
 * is asked for again every 2 s, so rows move to generated (or failed) without a reload; then it stops.
 */
export function useExportFiles(enabled = true) {
  const { t } = useTranslation('shell');
  const [paging, setPaging] = useState({ page: 1, pageSize: DEFAULT_PAGE_SIZE });
  const swr = useRead<Page<ExportFile>>(
    enabled ? filePageKey({ start: paging.page, pageSize: paging.pageSize }) : null,
    {
      keepPreviousData: true,
      refreshInterval: (latest) => (anyGenerating(latest?.list) ? GENERATING_REFRESH_MS : 0),
    },
  );
  // The answer for this very page (not the previous one kept on screen) is empty: one page back.
  const back = swr.data && !swr.isLoading ? pageAfterEmpty(paging.page, swr.data.list.length) : null;
  if (back !== null) setPaging({ page: back, pageSize: paging.pageSize });
  const pagination = useMemo(
    () =>
      paginationConfig(paging.page, paging.pageSize, swr.data?.total ?? 0, t, (page, pageSize) =>
        setPaging({ page, pageSize }),
      ),
    [paging, swr.data?.total, t],
  );
  return { rows: swr.data?.list ?? [], loading: swr.isLoading, pagination, mutate: swr.mutate };
}
