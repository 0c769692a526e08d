import { useEffect, useSyncExternalStore } from 'react';
import { getIdleLimitSeconds, subscribeIdleLimit } from '@/api/idle';

const ACTIVITY_EVENTS = ['pointerdown', 'keydown', 'wheel', 'touchstart', 'mousemove'] as const;
export const IDLE_CHECK_EVERY_MS = 10_000;

/** Calls `onIdle` (once) when `target` saw no input for `limitSeconds`; returns the stop function. */
export function watchIdle(
  target: Pick<EventTarget, 'addEventListener' | 'removeEventListener'>,
  limitSeconds: number,
  onIdle: (minutes: number) => void,
  now: () => number = Date.now,
): () => void {
  let lastActivity = now();
  const touch = () => {
    lastActivity = now();
  };
  ACTIVITY_EVENTS.forEach((name) => target.addEventListener(name, touch, { passive: true }));
  const stop = () => {
    ACTIVITY_EVENTS.forEach((name) => target.removeEventListener(name, touch));
    clearInterval(timer);
  };
  const timer = setInterval(() => {
    if (now() - lastActivity < limitSeconds * 1000) return;
    stop();
    onIdle(Math.round(limitSeconds / 60));
  }, IDLE_CHECK_EVERY_MS);
  return stop;
}

/**
 * FDA mode's idle sign-out in the browser: with a limit from the server (api/idle), no input for that
 * long calls `onIdle` (the session ends and the user signs in again); the server refuses it anyway.
 */
export function useIdleSignOut(active: boolean, onIdle: (minutes: number) => void): number | null {
  const limitSeconds = useSyncExternalStore(subscribeIdleLimit, getIdleLimitSeconds, () => null);
  useEffect(() => {
    if (!active || limitSeconds === null) return undefined;
    return watchIdle(window, limitSeconds, onIdle);
  }, [active, limitSeconds, onIdle]);
  return limitSeconds;
}
