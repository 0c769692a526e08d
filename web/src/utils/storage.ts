/**
 * localStorage (or, for `'tab'`, this tab's sessionStorage) with optional expiry. Values are stored as
 * {"value": ..., "expire": epoch ms | null}; an expired entry reads as null and is removed. Every access
 * tolerates a missing or disabled store.
 */
interface Entry<T> {
  value: T;
  expire: number | null;
}

/** 'browser': kept across tabs and visits (localStorage); 'tab': this tab only (sessionStorage). */
export type StorageScope = 'browser' | 'tab';

function store(scope: StorageScope = 'browser'): Storage | null {
  try {
    if (typeof window === 'undefined') return null;
    return scope === 'tab' ? window.sessionStorage : window.localStorage;
  } catch {
    return null;
  }
}

export function setItem<T>(key: string, value: T, ttlMs?: number, scope: StorageScope = 'browser'): void {
  const entry: Entry<T> = { value, expire: ttlMs ? Date.now() + ttlMs : null };
  try {
    store(scope)?.setItem(key, JSON.stringify(entry));
  } catch {
    // Quota exceeded or storage disabled: the value is simply not remembered.
  }
}

export function getItem<T>(key: string, scope: StorageScope = 'browser'): T | null {
  const raw = store(scope)?.getItem(key);
  if (!raw) return null;
  try {
    const entry = JSON.parse(raw) as Entry<T>;
    if (entry.expire !== null && entry.expire <= Date.now()) {
      removeItem(key, scope);
      return null;
    }
    return entry.value;
  } catch {
    return null;
  }
}

export function removeItem(key: string, scope: StorageScope = 'browser'): void {
  store(scope)?.removeItem(key);
}
