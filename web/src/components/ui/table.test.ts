import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_PAGE_SIZE, PAGE_SIZE_OPTIONS, pageAfterEmpty, paginationConfig } from './table';

describe('table defaults (spec 9)', () => {
  it('pages by 10 with sizes 10/20/30/40 labelled pcs/page', () => {
    const t = (key: string, options?: Record<string, unknown>) =>
      key === 'table.perPage' ? 'pcs/page' : `${key}:${JSON.stringify(options)}`;
    const config = paginationConfig(1, DEFAULT_PAGE_SIZE, 95, t, () => undefined);
    expect(DEFAULT_PAGE_SIZE).toBe(10);
    expect(PAGE_SIZE_OPTIONS).toEqual([10, 20, 30, 40]);
    expect(config).toMatchObject({
      current: 1,
      pageSize: 10,
      total: 95,
      showSizeChanger: true,
      locale: { items_per_page: 'pcs/page' },
    });
  });

  it('goes back to page 1 when the size changes', () => {
    const onChange = vi.fn();
    const config = paginationConfig(3, 10, 95, (key) => key, onChange);
    config.onChange?.(3, 20);
    config.onChange?.(4, 10);
    expect(onChange.mock.calls).toEqual([
      [1, 20],
      [4, 10],
    ]);
  });
});

describe('pageAfterEmpty (spec 4)', () => {
  it('goes back one page when a later page comes back empty', () => {
    expect(pageAfterEmpty(3, 0)).toBe(2);
    expect(pageAfterEmpty(2, 0)).toBe(1);
  });
  it('stays on the first page or a page with rows', () => {
    expect(pageAfterEmpty(1, 0)).toBeNull();
    expect(pageAfterEmpty(3, 4)).toBeNull();
  });
});
