/**
 * The length rule of a form field with a limit (business spec 5): the form refuses a value out of
 * range with its own message, before the api's. `min` with `max` is a range ("2-20 characters").
 */
import type { Rule } from 'antd/es/form';

type T = (key: string, options?: Record<string, unknown>) => string;

export function lengthRules(t: T, max?: number, min?: number): Rule[] {
  if (!max) return [];
  if (min) return [{ min, max, message: t('drawerForm.lengthRange', { min, max }) }];
  return [{ max, message: t('drawerForm.maxLength', { max }) }];
}
