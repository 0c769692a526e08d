/**
 * Account field rules of business spec section 5, shared by register, recover, binding and the
 * change-password drawer. The pure checks are exported for the unit tests; the form rules take the
 * translate function of the `account` namespace.
 */
import type { FormInstance } from 'antd';
import type { Rule } from 'antd/es/form';

import fieldRules from '@rules/fields.json';

const OVERSEAS = process.env.NEXT_PUBLIC_OVERSEAS === '1';

/** The rules as data, shared with the api (rules/fields.json; cases in rules/cases.json). */
export const FIELD_RULES = fieldRules;

/** 6-50 letters, digits, underscores (Chinese edition: Chinese characters too), not starting with a digit or underscore. */
export function userNamePattern(overseas: boolean = OVERSEAS): RegExp {
  return new RegExp(overseas ? fieldRules.userName.overseasPattern : fieldRules.userName.pattern);
}
export const USER_NAME_PATTERN = userNamePattern();
export const PASSWORD_MIN = fieldRules.password.min;
export const PASSWORD_MAX = fieldRules.password.max;
export const COMPANY_MIN = fieldRules.lengths.companyName.min;
export const COMPANY_MAX = fieldRules.lengths.companyName.max;
export const REAL_NAME_MAX = fieldRules.lengths.realName.max;
/** #RRGGBB: theme colours, track lines. */
export const COLOUR_PATTERN = new RegExp(fieldRules.colour.pattern);
export const CODE_PATTERN = new RegExp(fieldRules.code.pattern);
/** A mainland mobile number, or an international one with its + country code. */
export const PHONE_PATTERN = new RegExp(fieldRules.phone.pattern);
const PHONE_STRIP = new RegExp(fieldRules.phone.strip, 'g');
const PASSWORD_CLASSES = fieldRules.password.classes.map((pattern) => new RegExp(pattern));

/** Field length limits of spec 5, by name (rules/fields.json `lengths`). */
export function lengthOf(name: keyof typeof fieldRules.lengths): { min?: number; max?: number } {
  return fieldRules.lengths[name] as { min?: number; max?: number };
}

export function isUserName(value: string, pattern: RegExp = USER_NAME_PATTERN): boolean {
  return pattern.test(value);
}

/** How many of the classes digits, letters, symbols the password uses. */
export function passwordClasses(value: string): number {
  return PASSWORD_CLASSES.filter((pattern) => pattern.test(value)).length;
}

export type PasswordProblem = 'length' | 'whitespace' | 'strength' | null;

/** 6-20 characters without spaces, at least two of digits, letters and symbols. */
export function passwordProblem(value: string): PasswordProblem {
  if (/\s/.test(value)) return 'whitespace';
  if (value.length < PASSWORD_MIN || value.length > PASSWORD_MAX) return 'length';
  if (passwordClasses(value) < fieldRules.password.minClasses) return 'strength';
  return null;
}

/** The phone's shape (after removing spaces and dashes). */
export function isPhone(value: string): boolean {
  return PHONE_PATTERN.test(cleanPhone(value));
}

/** Alarm level minutes: one to three levels, each within range, rising strictly (1 < 2 < 3). */
export function levelMinutesValid(minutes: readonly number[]): boolean {
  const rule = fieldRules.levelMinutes;
  if (minutes.length < 1 || minutes.length > rule.maxLevels) return false;
  if (minutes.some((value) => value < rule.min || value > rule.max)) return false;
  return minutes.every((value, index) => index === 0 || value > minutes[index - 1]);
}

type T = (key: string, options?: Record<string, unknown>) => string;

export function userNameRules(t: T): Rule[] {
  return [
    { required: true, message: t('rules.userName.required') },
    { pattern: USER_NAME_PATTERN, message: t(OVERSEAS ? 'rules.userName.formatLatin' : 'rules.userName.format') },
  ];
}

export function passwordRules(t: T): Rule[] {
  return [
    { required: true, message: t('rules.password.required') },
    {
      validator: async (_, value: string | undefined) => {
        const problem = value ? passwordProblem(value) : null;
        if (problem) throw new Error(t(`rules.password.${problem}`, { min: PASSWORD_MIN, max: PASSWORD_MAX }));
      },
    },
  ];
}

/**
 * The confirm-password field (spec 5): required only when a password was entered, no whitespace,
 * equal to the password field.
 */
export function confirmPasswordRules(t: T, passwordField = 'password'): Rule[] {
  return [
    ({ getFieldValue }: Pick<FormInstance, 'getFieldValue'>) => ({
      validator: async (_: unknown, value: string | undefined) => {
        const password: string | undefined = getFieldValue(passwordField);
        if (!value) {
          if (password) throw new Error(t('rules.confirmPassword.required'));
          return;
        }
        if (/\s/.test(value)) throw new Error(t('rules.confirmPassword.whitespace'));
        if (value !== password) throw new Error(t('rules.confirmPassword.mismatch'));
      },
    }),
  ];
}

export function phoneRules(t: T): Rule[] {
  return [
    { required: true, whitespace: true, message: t('rules.phone.required') },
    {
      pattern: PHONE_PATTERN,
      message: t('rules.phone.invalid'),
      transform: (value: string) => (value ? cleanPhone(value) : value),
    },
  ];
}

export function emailRules(t: T): Rule[] {
  return [
    { required: true, whitespace: true, message: t('rules.email.required') },
    { type: 'email', message: t('rules.email.invalid'), transform: (value: string) => value?.trim() },
  ];
}

export function codeRules(t: T): Rule[] {
  return [
    { required: true, whitespace: true, message: t('rules.code.required') },
    { pattern: CODE_PATTERN, message: t('rules.code.format'), transform: (value: string) => value?.trim() },
  ];
}

export function companyRules(t: T): Rule[] {
  return [
    { required: true, whitespace: true, message: t('rules.company.required') },
    {
      min: COMPANY_MIN,
      max: COMPANY_MAX,
      message: t('rules.company.length', { min: COMPANY_MIN, max: COMPANY_MAX }),
      transform: (value: string) => value?.trim(),
    },
  ];
}

export function realNameRules(t: T): Rule[] {
  return [{ max: REAL_NAME_MAX, message: t('rules.realName.length', { max: REAL_NAME_MAX }) }];
}

/** Phone numbers go to the api without spaces or dashes. */
export function cleanPhone(value: string): string {
  return value.trim().replace(PHONE_STRIP, '');
}
