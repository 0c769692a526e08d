import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from './languages';

const root = path.resolve(__dirname, '../../public/locales');

function keys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, child]) => keys(child, prefix ? `${prefix}.${key}` : key));
}

describe('locale files', () => {
  const namespaces = fs.readdirSync(path.join(root, LANGUAGES[0])).sort();

  it('exist for every language with the same namespaces', () => {
    for (const language of LANGUAGES) expect(fs.readdirSync(path.join(root, language)).sort()).toEqual(namespaces);
  });

  it.each(namespaces)('%s has exactly the same keys in every language, none empty', (file) => {
    const [first, ...others] = LANGUAGES.map((language) =>
      JSON.parse(fs.readFileSync(path.join(root, language, file), 'utf8')),
    );
    for (const other of others) expect(keys(other).sort()).toEqual(keys(first).sort());
    for (const table of [first, ...others]) {
      expect(JSON.stringify(table)).not.toMatch(/""/);
    }
  });
});
