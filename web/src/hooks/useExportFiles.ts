import { useTranslation } from 'next-i18next/pages';
import { useMemo, useState } from 'react';
import useSWR from 'swr';
import { filePage, type ExportFile } from '@/api/report';
import { anyGenerating, GENERATING_REFRESH_MS } from '@/components/report/helpers';
import { DEFAULT_PAGE_SIZE, pageAfterEmpty, paginationConfig, type Page } from '@/components/ui/table';

/**
 * The download centre's files, a page at a time. While any row of the page is generating the page
 * is asked for again every 2 s, so rows move to generated (or failed) without a reload; then it stops.
 */
export function useExportFiles(enabled = true) {
  const { t } = useTranslation('shell');
  const [paging, setPaging] = useState({ page: 1, pageSize: DEFAULT_PAGE_SIZE });
  const swr = useSWR<Page<ExportFile> & { page: number }>(
    enabled ? ['export-files', paging.page, paging.pageSize] : null,
    async () => ({ ...(await filePage({ start: paging.page, pageSize: paging.pageSize })), page: paging.page }),
    { keepPreviousData: true, refreshInterval: (latest) => (anyGenerating(latest?.list) ? GENERATING_REFRESH_MS : 0) },
  );
  const back = swr.data && swr.data.page === paging.page ? pageAfterEmpty(paging.page, swr.data.list.length) : null;
  if (back !== null) setPaging({ page: back, pageSize: paging.pageSize });
  const pagination = useMemo(
    () => paginationConfig(paging.page, paging.pageSize, swr.data?.total ?? 0, t, (page, pageSize) => setPaging({ page, pageSize })),
    [paging, swr.data?.total, t],
  );
  return { rows: swr.data?.list ?? [], loading: swr.isLoading, pagination, mutate: swr.mutate };
}
