import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubBrowser } from '@/test/browser';
import { clearSession, getAccessToken, setAccessToken } from './session';

let storage: Map<string, string>;

beforeEach(() => {
  storage = stubBrowser();
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('access token', () => {
  it('is stored under Access-Token for 7 days', () => {
    vi.useFakeTimers({ now: 1_000 });
    setAccessToken('tok');
    expect(JSON.parse(storage.get('Access-Token') ?? '')).toEqual({ value: 'tok', expire: 1_000 + 604_800_000 });
    expect(getAccessToken()).toBe('tok');
    vi.setSystemTime(1_000 + 604_800_000);
    expect(getAccessToken()).toBeNull();
    expect(storage.has('Access-Token')).toBe(false);
  });

  it('is cleared on logout', () => {
    setAccessToken('tok');
    clearSession();
    expect(getAccessToken()).toBeNull();
  });
});
