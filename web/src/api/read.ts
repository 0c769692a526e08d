/**
 * Reads as data (design 7): a read is the request itself, `[path, params]` (and `'post'` for the few
 * reads the api takes as a POST body). SWR keys are these requests and one fetcher runs them on the
 * request client, so the same request is cached once whichever page asks for it, and signing out or
 * in clears the whole cache (SessionProvider).
 */
import { get, post, type RequestOptions } from './client';

/** 'quiet': the page shows the read's failure itself (public look-ups, a silent reminder): no notice, no sign-out. */
export type ReadFailures = 'quiet';

export type ReadKey = readonly [path: string, params?: object | null, method?: 'get' | 'post', failures?: ReadFailures];

export function readKey(path: string, params?: object | null, method: 'get' | 'post' = 'get'): ReadKey {
  return method === 'get' ? [path, params ?? null] : [path, params ?? null, method];
}

/** A read whose failure the page handles (the request client's handleErrors false). */
export function quietReadKey(path: string, params?: object | null, method: 'get' | 'post' = 'get'): ReadKey {
  return [path, params ?? null, method, 'quiet'];
}

/** The one fetcher (useRead gives it to SWR with every key). */
export function fetchRead<T>(key: ReadKey): Promise<T> {
  const [path, params, method = 'get', failures] = key;
  const extra: [RequestOptions?] = failures === 'quiet' ? [{ handleErrors: false }] : [];
  return method === 'post' ? post<T>(path, params ?? {}, ...extra) : get<T>(path, params ?? undefined, ...extra);
}

/** Several reads as one answer, in the keys' order (useReads: the SWR key is the list of requests). */
export function fetchReads<T>(keys: readonly ReadKey[]): Promise<T[]> {
  return Promise.all(keys.map((key) => fetchRead<T>(key)));
}
