import useSWR, { type SWRConfiguration } from 'swr';
import { fetchRead, type ReadKey } from '@/api/read';

/** SWR keyed by the request (`[path, params]`) with the one fetcher; `null` pauses. */
export function useRead<T>(key: ReadKey | null, config?: SWRConfiguration<T>) {
  return useSWR<T, unknown, ReadKey | null>(key, fetchRead<T>, config);
}
