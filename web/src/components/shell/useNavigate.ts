import { useRouter } from 'next/router';
import { useCallback } from 'react';

/** Client-side navigation; spec 2.1: going to the route already shown is silently ignored. */
export function useNavigate(): (href: string) => void {
  const router = useRouter();
  return useCallback(
    (href: string) => {
      if (href === router.asPath) return;
      void router.push(href);
    },
    [router],
  );
}
