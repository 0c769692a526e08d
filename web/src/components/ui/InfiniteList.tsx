import { Empty, List, Spin } from 'antd';
import { useCallback, useEffect, useRef, useState, type Key, type ReactNode } from 'react';
import type { ReadKey } from '@/api/read';
import { useDebouncedValue } from '@/hooks/useDebouncedValue';
import { useRead } from '@/hooks/useRead';
import { hasMorePages, watchNearBottom } from './infinite';
import type { Page } from './table';

export interface InfiniteListProps<T, F extends object> {
  /** The api module's page key: one request per page, so each page is cached (and cleared at sign-out) like any read. */
  request: (args: F & { start: number; pageSize: number }) => ReadKey;
  filters: F;
  renderItem: (row: T) => ReactNode;
  rowKey: (row: T) => Key;
  empty?: ReactNode;
  pageSize?: number;
  testId?: string;
}

function PageRows<T>({
  read,
  renderItem,
  rowKey,
  onNearEnd,
}: {
  read: ReadKey;
  renderItem: (row: T) => ReactNode;
  rowKey: (row: T) => Key;
  onNearEnd: (() => void) | null;
}) {
  const { data } = useRead<Page<T>>(read);
  const end = useRef<HTMLDivElement>(null);
  const loaded = data !== undefined;
  useEffect(() => {
    if (!loaded || !onNearEnd || !end.current) return undefined;
    return watchNearBottom(end.current, onNearEnd);
  }, [loaded, onNearEnd]);
  if (!data) return <Spin style={{ display: 'block', margin: '12px auto' }} />;
  return (
    <>
      {data.list.map((row) => (
        <div key={rowKey(row)}>{renderItem(row)}</div>
      ))}
      {onNearEnd ? <div ref={end} data-testid="infinite-list-end" style={{ height: 1 }} /> : null}
    </>
  );
}

/**
 * A list that loads its next page when its end comes within 50 px of the bottom (spec 9), for the
 * phone pages: no pager to aim at. Filter changes (debounced 800 ms) start again from the first page.
 */
export function InfiniteList<T, F extends object>({
  request,
  filters,
  renderItem,
  rowKey,
  empty,
  pageSize = 10,
  testId,
}: InfiniteListProps<T, F>) {
  const settled = useDebouncedValue(filters);
  const filterKey = JSON.stringify(settled);
  const [shown, setShown] = useState({ pages: 1, filterKey });
  const pages = shown.filterKey === filterKey ? shown.pages : 1;
  const { data: first, isLoading } = useRead<Page<T>>(request({ ...settled, start: 1, pageSize }));
  const total = first?.total ?? 0;
  const more = hasMorePages(pages, pageSize, total);
  // Stable per page count, and idempotent: the end of one page can only ask for the same next page.
  const next = pages + 1;
  const loadMore = useCallback(() => setShown({ pages: next, filterKey }), [next, filterKey]);
  if (!isLoading && first && total === 0) return <List dataSource={[]} locale={{ emptyText: empty ?? <Empty /> }} />;
  return (
    <div data-testid={testId} data-pages={pages} data-total={total}>
      {Array.from({ length: pages }, (_, index) => (
        <PageRows<T>
          key={index}
          read={request({ ...settled, start: index + 1, pageSize })}
          renderItem={renderItem}
          rowKey={rowKey}
          onNearEnd={index === pages - 1 && more ? loadMore : null}
        />
      ))}
    </div>
  );
}
