import { useRouter } from 'next/router';
import { useCallback } from 'react';
import { setAccessToken } from '@/api/session';
import { useSiteBranding } from '@/lib/SiteContext';
import { modelLanding } from '@/routes/access';
import { safeRedirect } from '@/utils/redirect';

/**
 * After a sign-in: keep the token for 7 days, then go to `redirect` (same site only) or the
 * landing path of the site's style model (/home; /device/list on junjia).
 */
export function useSignedIn() {
  const router = useRouter();
  const branding = useSiteBranding();
  return useCallback(
    (token: string, redirect: unknown = router.query.redirect) => {
      setAccessToken(token);
      void router.replace(safeRedirect(redirect, modelLanding(branding?.styleModel)));
    },
    [router, branding],
  );
}
