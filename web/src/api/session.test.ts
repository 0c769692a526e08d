import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubBrowser } from '@/test/browser';
import {
  clearSession,
  getAccessToken,
  loginRedirectFor,
  onTokenChange,
  setAccessToken,
  takeTokenFromQuery,
} from './session';

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

  it('announces changes in this tab', () => {
    const heard: (string | null)[] = [];
    const stop = onTokenChange((token) => heard.push(token));
    setAccessToken('a');
    clearSession();
    clearSession(); // nothing left to clear: nothing announced
    stop();
    setAccessToken('b');
    expect(heard).toEqual(['a', null]);
  });
});

describe('token in the query (spec 2.1)', () => {
  it('is stored and removed from the address', () => {
    expect(takeTokenFromQuery('/device/list?token=abc&deviceName=x#top')).toBe('/device/list?deviceName=x#top');
    expect(getAccessToken()).toBe('abc');
    expect(takeTokenFromQuery('/home?token=t2')).toBe('/home');
    expect(getAccessToken()).toBe('t2');
  });

  it('is left alone with an orderId or when absent', () => {
    expect(takeTokenFromQuery('/mobilePay/pay?token=abc&orderId=7')).toBeNull();
    expect(takeTokenFromQuery('/home?x=1')).toBeNull();
    expect(takeTokenFromQuery('/home?token=')).toBeNull();
    expect(getAccessToken()).toBeNull();
  });
});

describe('loginRedirectFor', () => {
  it('comes back to the page after sign-in, by the sign-in page of its area', () => {
    expect(loginRedirectFor('/device/list?deviceName=a b')).toBe(
      '/user/login?redirect=%2Fdevice%2Flist%3FdeviceName%3Da%20b',
    );
    expect(loginRedirectFor('/calibration/admin/x')).toBe(
      '/calibration/admin/login?redirect=%2Fcalibration%2Fadmin%2Fx',
    );
    expect(loginRedirectFor('/user/login?redirect=%2Fhome')).toBe('/user/login');
  });
});
