import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rangeRules } from './rangeRules';

const t = (key: string, options?: Record<string, unknown>) => `${key} ${JSON.stringify(options)}`;

/** What the rules say about a value (undefined: accepted). */
async function check(rules: ReturnType<typeof rangeRules>, value: unknown): Promise<string | undefined> {
  for (const rule of rules) {
    if (typeof rule === 'function' || !rule.validator) throw new Error('not a validator rule');
    try {
      await rule.validator({} as never, value, () => undefined);
    } catch (error) {
      return (error as Error).message;
    }
  }
  return undefined;
}

describe('number range rules (issue 47: 1,000 GUIDs silently became 999)', () => {
  it('refuses a value past the maximum with a message naming the range, never clamps it', async () => {
    const rules = rangeRules(t, 1, 999);
    expect(await check(rules, 999)).toBeUndefined();
    expect(await check(rules, 1000)).toBe('shell:drawerForm.numberRange {"min":1,"max":999}');
    expect(await check(rules, 0)).toBe('shell:drawerForm.numberRange {"min":1,"max":999}');
    expect(await check(rules, undefined)).toBeUndefined();
  });

  it('names a one-sided bound', async () => {
    expect(await check(rangeRules(t, 0), -1)).toBe('shell:drawerForm.numberMin {"min":0}');
    expect(await check(rangeRules(t, undefined, 5), 6)).toBe('shell:drawerForm.numberMax {"max":5}');
    expect(rangeRules(t)).toEqual([]);
  });

  it('the drawer form gives its number inputs no min or max to clamp to (the class of the defect)', () => {
    const source = readFileSync(join(__dirname, 'DrawerForm.tsx'), 'utf8');
    const input = source.slice(source.indexOf('<InputNumber'), source.indexOf('/>', source.indexOf('<InputNumber')));
    expect(input).not.toMatch(/\bmin=|\bmax=/);
    expect(source).toContain('rangeRules(');
  });
});
