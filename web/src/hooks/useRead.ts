import useSWR, { type SWRConfiguration } from 'swr';
import { fetchRead, fetchReads, type ReadKey } from '@/api/read';

/** SWR keyed by the request (`[path, params]`) with the one fetcher; `null` pauses. */
export function useRead<T>(key: ReadKey | null, config?: SWRConfiguration<T>) {
  return useSWR<T, unknown, ReadKey | null>(key, fetchRead<T>, config);
}

/** Several requests as one SWR entry keyed by the list of requests (answers in the keys' order); `null` pauses. */
export function useReads<T>(keys: readonly ReadKey[] | null, config?: SWRConfiguration<T[]>) {
  return useSWR<T[], unknown, readonly ReadKey[] | null>(keys, fetchReads<T>, config);
}
