/**
 * Account field rules of business spec section 5, shared by register, recover, binding and the
 * change-password drawer. The pure checks are exported for the unit tests; the form rules take the
 * translate function of the `account` namespace.
 */
import type { FormInstance } from 'antd';
import type { Rule } from 'antd/es/form';

const OVERSEAS = process.env.NEXT_PUBLIC_OVERSEAS === '1';

/** 6-50 letters, digits, underscores (Chinese edition: Chinese characters too), not starting with a digit or underscore. */
export const USER_NAME_PATTERN = OVERSEAS
  ? /^[A-Za-z][A-Za-z0-9_]{5,49}$/
  : /^[A-Za-z\u4e00-\u9fff][A-Za-z0-9_\u4e00-\u9fff]{5,49}$/;
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 20;
export const COMPANY_MIN = 2;
export const COMPANY_MAX = 50;
export const REAL_NAME_MAX = 20;
export const CODE_PATTERN = /^\d{6}$/;
/** A mainland mobile number, or an international one with its + country code. */
export const PHONE_PATTERN = /^(?:1[3-9]\d{9}|\+[1-9]\d{6,14})$/;

export function isUserName(value: string, pattern: RegExp = USER_NAME_PATTERN): boolean {
  return pattern.test(value);
}

/** How many of the classes digits, letters, symbols the password uses. */
export function passwordClasses(value: string): number {
  return [/[0-9]/, /[A-Za-z]/, /[^0-9A-Za-z\s]/].filter((pattern) => pattern.test(value)).length;
}

export type PasswordProblem = 'length' | 'whitespace' | 'strength' | null;

/** 6-20 characters without spaces, at least two of digits, letters and symbols. */
export function passwordProblem(value: string): PasswordProblem {
  if (/\s/.test(value)) return 'whitespace';
  if (value.length < PASSWORD_MIN || value.length > PASSWORD_MAX) return 'length';
  if (passwordClasses(value) < 2) return 'strength';
  return null;
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
    { pattern: PHONE_PATTERN, message: t('rules.phone.invalid'), transform: (value: string) => value?.replace(/[\s-]/g, '') },
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
    { min: COMPANY_MIN, max: COMPANY_MAX, message: t('rules.company.length', { min: COMPANY_MIN, max: COMPANY_MAX }), transform: (value: string) => value?.trim() },
  ];
}

export function realNameRules(t: T): Rule[] {
  return [{ max: REAL_NAME_MAX, message: t('rules.realName.length', { max: REAL_NAME_MAX }) }];
}

/** Phone numbers go to the api without spaces or dashes. */
export function cleanPhone(value: string): string {
  return value.replace(/[\s-]/g, '');
}
