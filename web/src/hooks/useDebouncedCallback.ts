import { useCallback, useEffect, useRef } from 'react';

/**
 * Leading-edge debounce: the first call runs at once, further calls are ignored until `waitMs`
 * passed without one (spec section 9: form submit debounced 500 ms).
 */
export function useDebouncedCallback<A extends unknown[]>(callback: (...args: A) => void, waitMs: number) {
  const latest = useRef(callback);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => {
    latest.current = callback;
  }, [callback]);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  return useCallback(
    (...args: A) => {
      const idle = timer.current === null;
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => {
        timer.current = null;
      }, waitMs);
      if (idle) latest.current(...args);
    },
    [waitMs],
  );
}
