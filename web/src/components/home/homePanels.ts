/**
 * The home page's panels and the user's choice of them (business spec: a customizable drawer, at
 * least 5 options kept), remembered in this browser.
 */
import { getItem, setItem } from '@/utils/storage';

export const HOME_PANELS = ['search', 'counts', 'map', 'pinned', 'recent', 'expiring', 'categories'] as const;
export type HomePanel = (typeof HOME_PANELS)[number];

/** At least this many panels stay on the home page. */
export const MIN_HOME_PANELS = 5;
export const HOME_PANELS_KEY = 'home.panels';

/** A stored choice, cleaned: known panels only, in page order; the default when too few remain. */
export function normalizePanels(value: unknown): HomePanel[] {
  if (!Array.isArray(value)) return [...HOME_PANELS];
  const chosen = HOME_PANELS.filter((panel) => value.includes(panel));
  return chosen.length >= MIN_HOME_PANELS ? chosen : [...HOME_PANELS];
}

export function loadPanels(): HomePanel[] {
  return normalizePanels(getItem<unknown>(HOME_PANELS_KEY));
}

export function savePanels(panels: HomePanel[]): void {
  setItem(HOME_PANELS_KEY, normalizePanels(panels));
}

/** Device list address of a status count ("all" is the unfiltered list). */
export function statusListHref(status: string): string {
  return status === 'all' ? '/device/list' : `/device/list?status=${encodeURIComponent(status)}`;
}
