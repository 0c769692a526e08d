import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONSOLE_ROUTES } from './routes';

const PAGES = path.resolve(__dirname, '../pages');

/**
 * The page files Next.js could serve a route path from: "/device/detail/:deviceId" ->
 * device/detail/[deviceId]; a trailing optional ":start?" -> [[...start]].
 */
function pageFile(routePath: string): string[] {
  const parts = routePath
    .replace(/^\//, '')
    .split('/')
    .map((part) =>
      part.endsWith('?') ? `[[...${part.slice(1, -1)}]]` : part.startsWith(':') ? `[${part.slice(1)}]` : part,
    );
  return [path.join(PAGES, ...parts) + '.tsx', path.join(PAGES, ...parts, 'index.tsx')];
}

describe('console routes', () => {
  it('every console route (every menu entry) has its page: none is the 404 page (issue 47: role management)', () => {
    const pages = CONSOLE_ROUTES.filter((route) => !route.external); // external sites open in a new window
    const missing = pages.filter((route) => !pageFile(route.path).some((file) => fs.existsSync(file)));
    expect(missing.map((route) => route.path)).toEqual([]);
  });
});
