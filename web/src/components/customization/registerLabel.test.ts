import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const LOCALES = join(__dirname, '../../../public/locales');

/** Every `enableRegister` label of every namespace, with where it is. */
function labels(): [string, string][] {
  const found: [string, string][] = [];
  for (const language of readdirSync(LOCALES)) {
    for (const file of readdirSync(join(LOCALES, language))) {
      const walk = (node: unknown, path: string) => {
        if (!node || typeof node !== 'object') return;
        for (const [key, value] of Object.entries(node)) {
          if (key === 'enableRegister' && typeof value === 'string') found.push([`${language}/${file}:${path}`, value]);
          else walk(value, `${path}.${key}`);
        }
      };
      walk(JSON.parse(readFileSync(join(LOCALES, language, file), 'utf8')), '');
    }
  }
  return found;
}

describe('the enableRegister switch is labelled for what it does (issue 47)', () => {
  it('every label says registration is closed when the switch is on (spec: register leads to sign-in)', () => {
    const all = labels();
    expect(all.length).toBeGreaterThanOrEqual(4);
    for (const [where, label] of all) expect(`${where} ${label}`).toMatch(/closed|关闭/i);
  });
});
