import { describe, expect, it } from 'vitest';
import { lengthRules } from './lengthRules';

const t = (key: string, options?: Record<string, unknown>) => `${key} ${JSON.stringify(options)}`;

/** What an antd length rule says about a value (undefined: accepted). */
function check(rules: ReturnType<typeof lengthRules>, value: string): string | undefined {
  for (const rule of rules) {
    if (typeof rule === 'function') throw new Error('not a plain rule');
    if ((rule.min !== undefined && value.length < rule.min) || (rule.max !== undefined && value.length > rule.max))
      return String(rule.message);
  }
  return undefined;
}

describe('form length rules (spec 5)', () => {
  it('refuses a value past the maximum with its message', () => {
    const rules = lengthRules(t, 20);
    expect(check(rules, 'x'.repeat(20))).toBeUndefined();
    expect(check(rules, 'x'.repeat(25))).toBe('drawerForm.maxLength {"max":20}');
  });

  it('refuses a value under the minimum of a range, naming the range', () => {
    const rules = lengthRules(t, 20, 2);
    expect(check(rules, 'L')).toBe('drawerForm.lengthRange {"min":2,"max":20}');
    expect(check(rules, 'Li')).toBeUndefined();
    expect(check(rules, 'x'.repeat(21))).toBe('drawerForm.lengthRange {"min":2,"max":20}');
  });

  it('has no rule for a field without a limit', () => {
    expect(lengthRules(t, undefined, 2)).toEqual([]);
  });
});
