import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe('languages', () => {
  it('default to zh-CN', async () => {
    const { DEFAULT_LANGUAGE, resolveLanguage } = await import('./languages');
    expect(DEFAULT_LANGUAGE).toBe('zh-CN');
    expect(resolveLanguage('en-US')).toBe('en-US');
    expect(resolveLanguage('fr-FR')).toBe('zh-CN');
    expect(resolveLanguage(undefined)).toBe('zh-CN');
  });

  it('default to en-US in the overseas edition', async () => {
    vi.stubEnv('NEXT_PUBLIC_OVERSEAS', '1');
    const { DEFAULT_LANGUAGE, resolveLanguage } = await import('./languages');
    expect(DEFAULT_LANGUAGE).toBe('en-US');
    expect(resolveLanguage('')).toBe('en-US');
  });

  it('read the lang cookie', async () => {
    const { readCookie } = await import('./languages');
    expect(readCookie('a=1; lang=en-US; b=2', 'lang')).toBe('en-US');
    expect(readCookie('xlang=en-US', 'lang')).toBeNull();
  });
});
