/**
 * Reads as data (design 7): a read is the request itself, `[path, params]` (and `'post'` for the few
 * reads the api takes as a POST body). SWR keys are these requests and one fetcher runs them on the
 * request client, so the same request is cached once whichever page asks for it, and signing out or
 * in clears the whole cache (SessionProvider).
 */
import { get, post } from './client';

export type ReadKey = readonly [path: string, params?: object | null, method?: 'get' | 'post'];

export function readKey(path: string, params?: object | null, method: 'get' | 'post' = 'get'): ReadKey {
  return method === 'get' ? [path, params ?? null] : [path, params ?? null, method];
}

/** The one fetcher (useRead gives it to SWR with every key). */
export function fetchRead<T>(key: ReadKey): Promise<T> {
  const [path, params, method = 'get'] = key;
  return method === 'post' ? post<T>(path, params ?? {}) : get<T>(path, params ?? undefined);
}
