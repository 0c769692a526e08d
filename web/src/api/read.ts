/**
 * Reads as data (design 7): a read is the request itself, `[path, params]` (and `'post'` for the few
 * reads the api takes as a POST body). SWR keys are these requests and one fetcher runs them on the
 * request client, so the same request is cached once whichever page asks for it, and signing out or
 * in clears the whole cache (SessionProvider).
 */
import { unstable_serialize } from 'swr';
import { get, post, type RequestOptions } from './client';
import { getAccessToken } from './session';

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

function runRead<T>(key: ReadKey): Promise<T> {
  const [path, params, method = 'get', failures] = key;
  const extra: [RequestOptions?] = failures === 'quiet' ? [{ handleErrors: false }] : [];
  return method === 'post' ? post<T>(path, params ?? {}, ...extra) : get<T>(path, params ?? undefined, ...extra);
}

/** How long a read started ahead waits for its page's hook; later, the hook asks again. */
export const EARLY_READ_TTL_MS = 30_000;

/**
 * Reads started before their page's hook asks for them (a page's first reads, lib/firstReads), by
 * request key. The hook's fetch takes the answer under way only when it asks with the same token and
 * soon: never another account's answer (a sign-out and a sign-in in the same tab), nor an old one.
 */
const earlyReads = new Map<string, { token: string | null; at: number; answer: Promise<unknown> }>();

const fresh = (early: { at: number }) => Date.now() - early.at < EARLY_READ_TTL_MS;

export function startRead(key: ReadKey): void {
  const id = unstable_serialize(key);
  const running = earlyReads.get(id);
  if (running && fresh(running)) return;
  const answer = runRead(key);
  answer.catch(() => undefined); // a failure is the hook's to report, if its page opens
  earlyReads.set(id, { token: getAccessToken(), at: Date.now(), answer });
}

/** The one fetcher (useRead gives it to SWR with every key). */
export function fetchRead<T>(key: ReadKey): Promise<T> {
  const id = unstable_serialize(key);
  const early = earlyReads.get(id);
  if (early) {
    earlyReads.delete(id);
    if (early.token === getAccessToken() && fresh(early)) return early.answer as Promise<T>;
  }
  return runRead<T>(key);
}

/** Several reads as one answer, in the keys' order (useReads: the SWR key is the list of requests). */
export function fetchReads<T>(keys: readonly ReadKey[]): Promise<T[]> {
  return Promise.all(keys.map((key) => fetchRead<T>(key)));
}
