/**
 * The range rule of a number field with bounds: the form refuses a value out of range with its own
 * message naming the range. The input itself is never given min/max, because antd's InputNumber then
 * clamps silently (1000 typed into a field of at most 999 became 999, issue 47).
 */
import type { Rule } from 'antd/es/form';

type T = (key: string, options?: Record<string, unknown>) => string;

export function rangeRules(t: T, min?: number, max?: number): Rule[] {
  if (min === undefined && max === undefined) return [];
  const message =
    min !== undefined && max !== undefined
      ? t('drawerForm.numberRange', { min, max })
      : min !== undefined
        ? t('drawerForm.numberMin', { min })
        : t('drawerForm.numberMax', { max });
  return [
    {
      validator: (_rule, value: unknown) => {
        if (value === undefined || value === null || value === '') return Promise.resolve();
        const number = Number(value);
        if (Number.isNaN(number) || (min !== undefined && number < min) || (max !== undefined && number > max))
          return Promise.reject(new Error(message));
        return Promise.resolve();
      },
    },
  ];
}
