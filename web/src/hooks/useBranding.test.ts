import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, failureFromHttp } from '@/api/errors';
import { stubBrowser } from '@/test/browser';
import { BRANDING_CACHE_KEY, loadBranding } from './useBranding';

const queryByTopDomain = vi.hoisted(() => vi.fn());
vi.mock('@/api/customPage', () => ({ queryByTopDomain }));

const cached = { title: 'Cached', themeColor: '#ec6c00' };
let storage: Map<string, string>;

beforeEach(() => {
  storage = stubBrowser();
  storage.set(BRANDING_CACHE_KEY, JSON.stringify({ value: cached, expire: null }));
  queryByTopDomain.mockReset();
});

afterEach(() => vi.unstubAllGlobals());

describe('loadBranding (spec section 4)', () => {
  it('keeps a fresh answer in the cache', async () => {
    queryByTopDomain.mockResolvedValue({ title: 'Fresh' });
    await expect(loadBranding('localhost')).resolves.toEqual({ kind: 'ok', branding: { title: 'Fresh' } });
    expect(JSON.parse(storage.get(BRANDING_CACHE_KEY) ?? '').value).toEqual({ title: 'Fresh' });
  });

  it('falls back on the cached copy when the call fails', async () => {
    queryByTopDomain.mockRejectedValue(new ApiError(failureFromHttp(undefined, null, false)));
    await expect(loadBranding('localhost')).resolves.toEqual({ kind: 'ok', branding: cached });
  });

  it('clears the cache on 403', async () => {
    queryByTopDomain.mockRejectedValue(new ApiError(failureFromHttp(403, { code: 403, msg: 'no', data: null }, false)));
    await expect(loadBranding('localhost')).resolves.toMatchObject({ kind: 'forbidden' });
    expect(storage.has(BRANDING_CACHE_KEY)).toBe(false);
  });
});
