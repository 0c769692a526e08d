/**
 * The range rule of a number field with bounds: the form refuses a value out of range with its own
 * message naming the range. The input itself is never given min/max, because antd's InputNumber then
 * clamps silently (1000 typed into a field of at most 999 became 999, issue 47).
 * The messages live in the `shell` namespace (loaded on every console and calibration page) and are
 * asked for with its prefix, so any component's t will do.
 */
import type { Rule } from 'antd/es/form';

/** Any namespace's t will do (the keys carry their namespace). */
export type T = (key: string, options?: Record<string, unknown>) => string;

/** The message naming the range (one-sided when a bound is missing). */
export function rangeMessage(t: T, min?: number, max?: number): string {
  return min !== undefined && max !== undefined
    ? t('shell:drawerForm.numberRange', { min, max })
    : min !== undefined
      ? t('shell:drawerForm.numberMin', { min })
      : t('shell:drawerForm.numberMax', { max });
}

/** Whether a value is within the bounds; an empty value is (required-ness is another rule's business). */
export function inRange(value: unknown, min?: number, max?: number): boolean {
  if (value === undefined || value === null || value === '') return true;
  const number = Number(value);
  return !(Number.isNaN(number) || (min !== undefined && number < min) || (max !== undefined && number > max));
}

export function rangeRules(t: T, min?: number, max?: number): Rule[] {
  if (min === undefined && max === undefined) return [];
  const message = rangeMessage(t, min, max);
  return [
    {
      validator: (_rule, value: unknown) =>
        inRange(value, min, max) ? Promise.resolve() : Promise.reject(new Error(message)),
    },
  ];
}
