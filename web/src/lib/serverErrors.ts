import type { FormInstance } from 'antd';
import { ApiError } from '@/api/errors';

/**
 * Put the api's validation messages (HTTP 422 data.errors, already in the user's language) on the
 * form's fields. Fields the form does not have are mapped through `aliases` or left out (the
 * request client's notice says the input is invalid). Returns whether anything was shown.
 */
export function showServerErrors(form: FormInstance, error: unknown, aliases: Record<string, string> = {}): boolean {
  if (!(error instanceof ApiError) || !error.failure.fieldErrors) return false;
  const known = new Set(Object.keys(form.getFieldsValue() as Record<string, unknown>));
  const fields = Object.entries(error.failure.fieldErrors)
    .map(([field, errors]) => ({ name: aliases[field] ?? field.replace(/^register\./, ''), errors }))
    .filter((field) => known.has(field.name));
  form.setFields(fields);
  if (fields.length) form.scrollToField(fields[0].name, { block: 'center' });
  return fields.length > 0;
}
