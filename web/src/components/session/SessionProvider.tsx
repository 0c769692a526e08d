import { App } from 'antd';
import Router, { useRouter } from 'next/router';
import { useTranslation } from 'next-i18next/pages';
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import { logout as logoutCall } from '@/api/account';
import { setClientHandlers } from '@/api/client';
import { ACCESS_TOKEN_KEY, LOGOUT_REDIRECT_DELAY_MS } from '@/api/constants';
import { ApiError, failureText } from '@/api/errors';
import { clearSession, getAccessToken, loginRedirectFor, onTokenChange, takeTokenFromQuery } from '@/api/session';
import { setDisplayZone } from '@/lib/format';
import { useSiteBranding } from '@/lib/SiteContext';
import { buildAccess } from '@/routes/access';
import { loginPathFor } from '@/routes/match';
import { grantedSet } from '@/routes/permissions';
import { ACCOUNT_INFO_KEY, loadAccountInfo, NoRolesError } from './accountInfo';
import { SessionContext, type Session, type SessionStatus } from '@/lib/SessionContext';
import { useIdleSignOut } from '@/hooks/useIdleSignOut';

/** Store a token found in the address (spec 2.1) and show the address without it. */
function adoptTokenFromAddress(): void {
  const { pathname, search, hash } = window.location;
  const cleaned = takeTokenFromQuery(`${pathname}${search}${hash}`);
  if (cleaned !== null) void Router.replace(cleaned, undefined, { shallow: true, scroll: false });
}

const noSubscription = () => () => undefined;

/** false in the server render and while hydrating, true afterwards (the token lives in the browser). */
function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

function subscribeToken(onChange: () => void): () => void {
  return onTokenChange(onChange);
}

/**
 * The session of spec section 4 for the whole app: the stored token, the account info (loaded on
 * the first entry to a signed-in page and refreshed on each navigation there, so a session revoked
 * elsewhere is noticed), the routes built from it, logout, and the rules that end a session.
 */
export function SessionProvider({ needsAccount, children }: { needsAccount: boolean; children: ReactNode }) {
  const router = useRouter();
  const branding = useSiteBranding();
  const { notification } = App.useApp();
  const { t } = useTranslation('common');
  const { mutate: mutateCache } = useSWRConfig();
  const booted = useHydrated();
  const token = useSyncExternalStore(subscribeToken, getAccessToken, () => null);
  const [ending, setEnding] = useState(false);
  const endingRef = useRef(false);

  // Signing out or in clears the whole SWR cache (design 7): reads are keyed by the request alone,
  // so a second account on this browser must never be shown the first one's answers. At a sign-in the
  // keys are also revalidated, which is what drops SWR's markers of requests made in the last 2 s
  // (its deduping interval): otherwise a page opened quickly after the switch joined the previous
  // account's request, whose answer the clearing discards, and waited with nothing until its next refresh.
  const forgetAccount = useCallback(
    (signingIn: boolean) => {
      void mutateCache(() => true, undefined, { revalidate: signingIn });
    },
    [mutateCache],
  );

  useEffect(() => {
    const stop = onTokenChange((value) => {
      if (!value) return;
      // A new sign-in ends the signing-out state and starts from an empty cache.
      forgetAccount(true);
      endingRef.current = false;
      setEnding(false);
    });
    // Spec 2.1: a token change made in another tab reloads this one.
    const onStorage = (event: StorageEvent) => {
      if (event.key === ACCESS_TOKEN_KEY || event.key === null) window.location.reload();
    };
    window.addEventListener('storage', onStorage);
    return () => {
      stop();
      window.removeEventListener('storage', onStorage);
    };
  }, [forgetAccount]);

  // Spec 2.1: a token in the query is stored and removed from the address (first load and later).
  useEffect(() => {
    adoptTokenFromAddress();
  }, [router.asPath]);

  const endSession = useCallback(() => {
    if (endingRef.current) return;
    endingRef.current = true;
    setEnding(true);
    const target = loginRedirectFor(Router.asPath);
    clearSession();
    forgetAccount(false);
    window.setTimeout(() => void Router.replace(target), LOGOUT_REDIRECT_DELAY_MS);
  }, [forgetAccount]);

  const logout = useCallback(async () => {
    endingRef.current = true;
    setEnding(true);
    try {
      await logoutCall();
    } catch {
      // Spec 4: the token is forgotten even when the call fails.
    } finally {
      const target = loginPathFor(Router.asPath);
      clearSession();
      forgetAccount(false);
      await Router.replace(target);
    }
  }, [forgetAccount]);

  useEffect(() => {
    setClientHandlers({ endSession });
  }, [endSession]);

  const wantInfo = booted && token !== null && needsAccount && !ending;
  // Not a useRead: the session's account (checked for roles), keyed by the token on purpose so a new sign-in never sees the last one's.
  const {
    data: info,
    error,
    mutate,
  } = useSWR(wantInfo ? ([ACCOUNT_INFO_KEY, token] as const) : null, loadAccountInfo, {
    revalidateOnFocus: false,
    revalidateOnReconnect: false,
    shouldRetryOnError: false,
  });
  // Times without a device of their own show in the account's zone (never the browser's); set while
  // rendering so the page's first render with the account already uses it.
  setDisplayZone(info?.baseAccount?.timeZone);

  // Refresh on every navigation inside the console: a revoked or expired session shows at once.
  const seenPath = useRef<string | null>(null);
  useEffect(() => {
    if (!wantInfo) return;
    if (seenPath.current !== null && seenPath.current !== router.asPath && info) void mutate();
    seenPath.current = router.asPath;
  }, [router.asPath, wantInfo, info, mutate]);

  // Spec 2.1 / 8: account info failing -> error notification with the logout description, logout, sign-in.
  useEffect(() => {
    if (!error || endingRef.current) return;
    const failure = error instanceof ApiError ? error.failure : undefined;
    // A refresh that fails for a passing reason (network) keeps the session it already has.
    if (info && !failure?.endSession && !(error instanceof NoRolesError)) return;
    const title =
      error instanceof NoRolesError
        ? t('errors.rolesRequired')
        : failure
          ? failureText(failure, t).message
          : t('errors.requestFailed');
    notification.error({ title, description: t('session.loggedOut'), key: 'session-ended' });
    endSession();
  }, [error, info, notification, t, endSession]);

  // FDA mode: no input for the server's idle limit signs out here too (the server refuses it anyway).
  const signOutIdle = useCallback(
    (minutes: number) => {
      if (endingRef.current) return;
      notification.warning({
        title: t('session.idleSignedOut', { minutes }),
        description: t('session.loggedOut'),
        key: 'session-ended',
      });
      endSession();
    },
    [notification, t, endSession],
  );
  useIdleSignOut(Boolean(token) && !ending, signOutIdle);

  const granted = useMemo(() => grantedSet(info?.permissionRoutes), [info]);
  const plcUrl = branding?.plcUrl;
  const calibrationUrl = branding?.calibrationUrl;
  const access = useMemo(
    () =>
      info
        ? buildAccess(branding?.styleModel, granted, info.userProfile?.homePage, {
            plc: plcUrl,
            calibrationServe: calibrationUrl,
          })
        : undefined,
    [branding?.styleModel, granted, info, plcUrl, calibrationUrl],
  );

  let status: SessionStatus;
  if (!booted) status = 'booting';
  else if (ending) status = 'ending';
  else if (!token) status = 'anonymous';
  else if (needsAccount && !info) status = 'loading';
  else status = 'ready';

  const value = useMemo<Session>(
    () => ({ status, token, info, access, granted, logout, endSession }),
    [status, token, info, access, granted, logout, endSession],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}
