import { validateRules } from '@rc-component/form/lib/utils/validateUtil';
import type { RuleObject } from 'antd/es/form';
import { describe, expect, it } from 'vitest';
import { rangeRules } from '@/components/ui/rangeRules';
import { batchCountRules } from './OperatorViews';

const t = (key: string, options?: Record<string, unknown>) => `${key} ${JSON.stringify(options)}`;

describe("a form's merged rules, through antd's own validation (rc-component/form)", () => {
  /** The errors antd's form shows for a value (empty: it submits the value as typed). */
  const errors = (rules: RuleObject[], value: unknown) =>
    validateRules(['count'], value, rules, {}, false).then(
      () => [],
      (failed: { errors: string[] }[]) => failed.flatMap((error) => error.errors),
    );

  it('the coupon/card batch count: 1 and 999 submit unchanged, 1,000 and 0 are refused naming the range', async () => {
    const rules = batchCountRules(t) as RuleObject[];
    expect(await errors(rules, 1)).toEqual([]);
    expect(await errors(rules, 999)).toEqual([]);
    expect(await errors(rules, 1000)).toEqual(['shell:drawerForm.numberRange {"min":1,"max":999}']);
    expect(await errors(rules, 0)).toEqual(['shell:drawerForm.numberRange {"min":1,"max":999}']);
    expect(await errors(rules, null)).toEqual(['codes.count undefined']);
  });

  it('a range merged after other rules leaves them working (required, one-sided bound)', async () => {
    const rules = [{ required: true, message: 'required' }, ...rangeRules(t, 0)] as RuleObject[];
    expect(await errors(rules, 0.01)).toEqual([]);
    expect(await errors(rules, -0.01)).toEqual(['shell:drawerForm.numberMin {"min":0}']);
    expect(await errors(rules, undefined)).toEqual(['required']);
  });
});
