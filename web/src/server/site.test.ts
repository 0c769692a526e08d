import type { IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchSite, hostWithoutPort } from './site';

const request = (host: string) => ({ headers: { host } }) as IncomingMessage;

function answer(status: number, body: unknown) {
  return vi.fn(
    async () => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }),
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
});

describe('hostWithoutPort', () => {
  it.each([
    ['junjia.localhost:3000', 'junjia.localhost'],
    ['Example.COM', 'example.com'],
    ['[::1]:3000', '::1'],
    ['127.0.0.1:80', '127.0.0.1'],
  ])('%s -> %s', (host, expected) => expect(hostWithoutPort(host)).toBe(expected));
});

describe('fetchSite', () => {
  it('asks the api for the branding of the requested host', async () => {
    vi.stubEnv('API_URL', 'http://api.test:5100/');
    const fetch = answer(200, { code: 0, msg: 'ok', data: { title: 'T', themeColor: '#0f8a5f' } });
    vi.stubGlobal('fetch', fetch);
    const site = await fetchSite(request('junjia.localhost:3100'), 'en-US');
    expect(site).toEqual({ kind: 'ok', branding: { title: 'T', themeColor: '#0f8a5f' } });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('http://api.test:5100/api/base/BaseCustomPage/queryByTopDomain?topDomain=junjia.localhost');
    expect(init.headers).toMatchObject({ 'X-Forwarded-Host': 'junjia.localhost:3100', 'Accept-Language': 'en-US' });
  });

  it('reports an unknown host with the api message', async () => {
    vi.stubGlobal('fetch', answer(421, { code: 421, msg: 'not configured' }));
    await expect(fetchSite(request('x.localhost'), 'zh-CN')).resolves.toEqual({
      kind: 'notConfigured',
      status: 421,
      message: 'not configured',
    });
  });

  it('reports a site the operator switched off as closed (issue 47)', async () => {
    vi.stubGlobal('fetch', answer(410, { code: 410, msg: 'This site is closed.' }));
    await expect(fetchSite(request('acme.localhost'), 'en-US')).resolves.toEqual({
      kind: 'closed',
      status: 410,
      message: 'This site is closed.',
    });
  });

  it('reports an unreachable api as unavailable', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('fetch failed')));
    await expect(fetchSite(request('localhost'), 'zh-CN')).resolves.toEqual({ kind: 'unavailable', status: 503 });
    vi.stubGlobal('fetch', answer(502, { code: 1 }));
    await expect(fetchSite(request('localhost'), 'zh-CN')).resolves.toEqual({ kind: 'unavailable', status: 503 });
  });
});
