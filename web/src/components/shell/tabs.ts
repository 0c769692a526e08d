/**
 * The multi-tab bar of spec section 2.3 as pure state: one tab per opened page (its full path), the
 * right-click actions close current / right / left / all, and the three refusals. "Close all" keeps
 * the tab that was right-clicked, so the last tab is never closed.
 */
export interface PageTab {
  /** The full path (with query) the tab opens. */
  key: string;
  /** Route name (the label is its translation). */
  name: string;
}

export interface TabsState {
  tabs: PageTab[];
  active: string | null;
}

export type TabCommand = 'current' | 'right' | 'left' | 'all';
export type TabRefusal = 'lastTab' | 'noLeft' | 'noRight';

export interface TabsResult {
  state: TabsState;
  /** Set when nothing could be closed: the message to show. */
  refused?: TabRefusal;
}

export const EMPTY_TABS: TabsState = { tabs: [], active: null };

/** Open (or focus) a page's tab. A detail page opened again with other params gets its own tab. */
export function openTab(state: TabsState, tab: PageTab): TabsState {
  if (state.tabs.some((item) => item.key === tab.key))
    return state.active === tab.key ? state : { ...state, active: tab.key };
  return { tabs: [...state.tabs, tab], active: tab.key };
}

function keepOnly(state: TabsState, keep: (tab: PageTab, index: number) => boolean, target: string): TabsState {
  const tabs = state.tabs.filter(keep);
  const activeKept = tabs.some((tab) => tab.key === state.active);
  return {
    tabs,
    active: activeKept ? state.active : (tabs.find((tab) => tab.key === target)?.key ?? tabs.at(-1)?.key ?? null),
  };
}

/** A right-click action on the tab `target`. */
export function closeTabs(state: TabsState, target: string, command: TabCommand): TabsResult {
  const index = state.tabs.findIndex((tab) => tab.key === target);
  if (index < 0) return { state };
  switch (command) {
    case 'current': {
      if (state.tabs.length <= 1) return { state, refused: 'lastTab' };
      const tabs = state.tabs.filter((tab) => tab.key !== target);
      const active =
        state.active === target ? ((tabs[index - 1] ?? tabs[index] ?? tabs.at(-1))?.key ?? null) : state.active;
      return { state: { tabs, active } };
    }
    case 'left':
      if (index === 0) return { state, refused: 'noLeft' };
      return { state: keepOnly(state, (_, i) => i >= index, target) };
    case 'right':
      if (index === state.tabs.length - 1) return { state, refused: 'noRight' };
      return { state: keepOnly(state, (_, i) => i <= index, target) };
    case 'all':
      if (state.tabs.length <= 1) return { state, refused: 'lastTab' };
      return { state: keepOnly(state, (tab) => tab.key === target, target) };
    default:
      return { state };
  }
}
