import { describe, expect, it } from 'vitest';
import { filtersToSend } from './usePagedQuery';

describe('the filters a paged query sends (issue 47: device parameters showed a 422 on every load)', () => {
  it('sends the live filters at once when the query resumes, never the stale debounced ones', () => {
    const stale: { deviceTypeId?: number } = { deviceTypeId: undefined };
    const live: { deviceTypeId?: number } = { deviceTypeId: 3 };
    const key = JSON.stringify(live);
    expect(filtersToSend(live, stale, key, key)).toBe(live);
  });

  it('debounces every later change of the filters', () => {
    const debounced = { deviceTypeId: 3, keyword: 'te' };
    const live = { deviceTypeId: 3, keyword: 'temp' };
    expect(filtersToSend(live, debounced, JSON.stringify(live), JSON.stringify({ deviceTypeId: 3 }))).toBe(debounced);
    expect(filtersToSend(live, debounced, JSON.stringify(live), null)).toBe(debounced);
  });
});
