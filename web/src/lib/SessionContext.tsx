import { createContext, useContext } from 'react';
import type { AccountInfo } from '@/api/account';
import type { Access } from '@/routes/access';
import type { Granted } from '@/routes/permissions';

/**
 * booting: the browser has not read the stored token yet (server render, first paint);
 * anonymous: no token; loading: account info on its way; ready; ending: signing out.
 */
export type SessionStatus = 'booting' | 'anonymous' | 'loading' | 'ready' | 'ending';

export interface Session {
  status: SessionStatus;
  token: string | null;
  info?: AccountInfo;
  access?: Access;
  granted: Granted;
  /** Log out: revoke the token (whatever the api answers, it is forgotten) and go to sign-in. */
  logout: () => Promise<void>;
  /** The session ended (expired, refused): sign-in after the redirect delay, back here afterwards. */
  endSession: () => void;
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}
