import { vi } from 'vitest';

/** A minimal browser for unit tests running in Node: localStorage, document.cookie, location. */
export function stubBrowser(cookie = ''): Map<string, string> {
  const data = new Map<string, string>();
  const localStorage = {
    getItem: (key: string) => data.get(key) ?? null,
    setItem: (key: string, value: string) => void data.set(key, String(value)),
    removeItem: (key: string) => void data.delete(key),
    clear: () => data.clear(),
    key: (index: number) => [...data.keys()][index] ?? null,
    get length() {
      return data.size;
    },
  };
  vi.stubGlobal('window', { localStorage, location: { pathname: '/device/list', search: '' }, setTimeout });
  vi.stubGlobal('document', { cookie });
  return data;
}
