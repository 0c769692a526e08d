import { useSyncExternalStore } from 'react';
import { BREAKPOINTS } from '@/theme/buildTheme';

/** Spec 2.3: desktop from 1350 px, tablet 576-1349 px, mobile below. */
export type Viewport = 'desktop' | 'tablet' | 'mobile';

export function viewportOf(width: number): Viewport {
  if (width >= BREAKPOINTS.desktop) return 'desktop';
  if (width >= BREAKPOINTS.tablet) return 'tablet';
  return 'mobile';
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener('resize', onChange);
  return () => window.removeEventListener('resize', onChange);
}

/** The viewport class of the window (desktop on the server). */
export function useViewport(): Viewport {
  return useSyncExternalStore(
    subscribe,
    () => viewportOf(window.innerWidth),
    () => 'desktop' as const,
  );
}
