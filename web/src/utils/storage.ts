/**
 * localStorage with optional expiry. Values are stored as {"value": ..., "expire": epoch ms | null};
 * an expired entry reads as null and is removed. Every access tolerates a missing or disabled store.
 */
interface Entry<T> {
  value: T;
  expire: number | null;
}

function store(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

export function setItem<T>(key: string, value: T, ttlMs?: number): void {
  const entry: Entry<T> = { value, expire: ttlMs ? Date.now() + ttlMs : null };
  try {
    store()?.setItem(key, JSON.stringify(entry));
  } catch {
    // Quota exceeded or storage disabled: the value is simply not remembered.
  }
}

export function getItem<T>(key: string): T | null {
  const raw = store()?.getItem(key);
  if (!raw) return null;
  try {
    const entry = JSON.parse(raw) as Entry<T>;
    if (entry.expire !== null && entry.expire <= Date.now()) {
      removeItem(key);
      return null;
    }
    return entry.value;
  } catch {
    return null;
  }
}

export function removeItem(key: string): void {
  store()?.removeItem(key);
}
