/**
 * A console page's first reads, started beside the account info on the first entry (issue 47: every
 * page but /home waited 0.5-1.5 s for the account before asking for its own data). A page declares
 * them once, next to the component (`Page.firstReads = (query) => [key]`), with the same key function
 * its view uses, so the view's request-keyed hook takes over the request already under way (the one
 * fetcher's early reads, api/read.ts: bound to the token and to 30 s) instead of sending it again.
 */
import type { ParsedUrlQuery } from 'querystring';
import { startRead, type ReadKey } from '@/api/read';

export type FirstReads = (query: ParsedUrlQuery) => readonly ReadKey[];

/** The reads a page component declares, if any. */
export function firstReadsOf(page: unknown): FirstReads | undefined {
  const reads = (page as { firstReads?: unknown } | null)?.firstReads;
  return typeof reads === 'function' ? (reads as FirstReads) : undefined;
}

/**
 * Start the reads now. A failure is handled as any read's (the request client's notice, or the end
 * of the session), and the page's hook, if its page opens, receives it with the request.
 */
export function startFirstReads(reads: readonly ReadKey[]): void {
  for (const key of reads) startRead(key);
}
