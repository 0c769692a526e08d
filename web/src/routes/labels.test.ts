import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '@/i18n/languages';
import { STYLE_MODELS, type MenuEntry } from '@/theme/styleModels';
import { CONSOLE_ROUTES, PUBLIC_ROUTES } from './routes';

const locales = path.resolve(__dirname, '../../public/locales');
const read = (language: string, namespace: string) =>
  JSON.parse(fs.readFileSync(path.join(locales, language, `${namespace}.json`), 'utf8')) as Record<string, unknown>;
const keysOf = (entries: MenuEntry[]): string[] =>
  entries.flatMap((entry) => [entry.key, ...keysOf(entry.children ?? [])]);

describe('menu labels (menu namespace keyed by permission key)', () => {
  it.each(LANGUAGES)('%s names every menu entry of every style model and every console route', (language) => {
    const menu = read(language, 'menu');
    const wanted = new Set([
      ...Object.values(STYLE_MODELS).flatMap((model) => keysOf(model.menu)),
      ...CONSOLE_ROUTES.map((route) => route.name),
    ]);
    for (const key of wanted) expect(typeof menu[key], key).toBe('string');
  });

  it.each(LANGUAGES)('%s names the sign-in pages', (language) => {
    const routes = read(language, 'common').routes as Record<string, string>;
    for (const name of [
      'login',
      'register',
      'recover',
      'loginResult',
      'bindPhone',
      'bindEmail',
      'notFound',
      'serverError',
    ]) {
      expect(typeof routes[name], name).toBe('string');
    }
    expect(PUBLIC_ROUTES.some((route) => route.name === 'loginResult')).toBe(true);
  });

  it('uses the spec messages for the tab bar and the error catalogue in English', () => {
    const shell = read('en-US', 'shell') as {
      tabs: Record<string, string>;
      table: Record<string, string>;
      header: Record<string, string>;
    };
    expect(shell.tabs.lastTab).toBe('This is the last tab, cannot be closed');
    expect(shell.tabs.noLeft).toBe('No tab on the left');
    expect(shell.tabs.noRight).toBe('No tab on the right');
    expect(shell.table.perPage).toBe('pcs/page');
    expect(shell.header.fullscreenUnsupported).toMatch(/does not support full screen/);
    const common = read('en-US', 'common') as { errors: Record<string, string> };
    expect(common.errors.rolesRequired).toBe('getInfo: roles must be a non-null array');
    expect(common.errors.sessionExpired).toBe('Logon timeout, please login again');
  });
});
