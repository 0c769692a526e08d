import { useEffect } from 'react';
import { MOBILE_REM_DIVISOR } from '@/components/ui/constants';

/**
 * The rem-sized mobile pages (the mobile quick query): the root font size is the screen width
 * divided by 11.04 (spec 9), kept on resize and given back when the page goes. The console itself
 * keeps px sizes: antd's components and the spec's fixed sizes (sidebar 256 / 80 px, header
 * 300 px auto-hide) are in px, and a rem root would scale them with the window.
 */
export function useRemRoot(enabled = true): void {
  useEffect(() => {
    if (!enabled) return undefined;
    const root = document.documentElement;
    const before = root.style.fontSize;
    const apply = () => {
      root.style.fontSize = `${window.innerWidth / MOBILE_REM_DIVISOR}px`;
    };
    apply();
    window.addEventListener('resize', apply);
    return () => {
      window.removeEventListener('resize', apply);
      root.style.fontSize = before;
    };
  }, [enabled]);
}
