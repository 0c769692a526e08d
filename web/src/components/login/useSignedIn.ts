import { useRouter } from 'next/router';
import { useCallback } from 'react';
import { setAccessToken } from '@/api/session';
import { safeRedirect } from '@/utils/redirect';

/** After a sign-in: keep the token for 7 days, then go to `redirect` (same site only) or /home. */
export function useSignedIn() {
  const router = useRouter();
  return useCallback(
    (token: string) => {
      setAccessToken(token);
      void router.replace(safeRedirect(router.query.redirect));
    },
    [router],
  );
}
