import { useEffect, useState } from 'react';
import { FILTER_DEBOUNCE_MS } from '@/components/ui/constants';

/** The value, once it stopped changing for `waitMs` (spec 9: filter changes debounced 800 ms). */
export function useDebouncedValue<T>(value: T, waitMs: number = FILTER_DEBOUNCE_MS): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), waitMs);
    return () => clearTimeout(timer);
  }, [value, waitMs]);
  return settled;
}
