/**
 * FDA mode's idle limit (api/fda/sessions.py): signed-in answers carry X-Idle-Timeout (seconds) while
 * the account's FDA mode is on. The request client records it here; the session signs out on time
 * (hooks/useIdleSignOut), and the server refuses the idle session anyway.
 */
export const IDLE_HEADER = 'x-idle-timeout';

let limitSeconds: number | null = null;
const listeners = new Set<() => void>();

export function getIdleLimitSeconds(): number | null {
  return limitSeconds;
}

export function subscribeIdleLimit(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** From a signed-in answer's headers: the limit, or none when the header is absent (FDA mode off). */
export function recordIdleLimit(headerValue: string | null | undefined): void {
  const seconds = headerValue ? Number(headerValue) : NaN;
  const next = Number.isFinite(seconds) && seconds > 0 ? seconds : null;
  if (next === limitSeconds) return;
  limitSeconds = next;
  listeners.forEach((listener) => listener());
}
