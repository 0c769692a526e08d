/**
 * Table defaults of spec sections 4 and 9: page size 10 with the sizes 10, 20, 30, 40 labelled
 * "pcs/page"; a page other than the first that comes back empty (its last rows were deleted) makes
 * the table go back one page.
 */
import type { TablePaginationConfig } from 'antd';

export const DEFAULT_PAGE_SIZE = 10;
export const PAGE_SIZE_OPTIONS = [10, 20, 30, 40];

/** Paged answers of the api: data {list, total} (spec 3), shown as data and totalCount. */
export interface Page<T> {
  list: T[];
  total: number;
}

/** The page to show instead of `page` when it came back empty, or null to stay. */
export function pageAfterEmpty(page: number, rows: number): number | null {
  return page > 1 && rows === 0 ? page - 1 : null;
}

export function paginationConfig(
  page: number,
  pageSize: number,
  total: number,
  t: (key: string, options?: Record<string, unknown>) => string,
  onChange: (page: number, pageSize: number) => void,
): TablePaginationConfig {
  return {
    current: page,
    pageSize,
    total,
    showSizeChanger: true,
    pageSizeOptions: PAGE_SIZE_OPTIONS,
    showTotal: (count) => t('table.total', { total: count }),
    locale: { items_per_page: t('table.perPage') },
    onChange: (next, size) => onChange(size !== pageSize ? 1 : next, size),
  };
}
