import { describe, expect, it } from 'vitest';
import {
  CODE_PATTERN,
  confirmPasswordRules,
  isUserName,
  passwordClasses,
  passwordProblem,
  PHONE_PATTERN,
  USER_NAME_PATTERN,
} from './formRules';

describe('user name (business spec 5)', () => {
  it.each(['abcdef', 'cold_chain_01', 'A12345', '冷链用户名称', 'a'.repeat(50)])('accepts %s', (value) => {
    expect(isUserName(value)).toBe(true);
  });
  it.each(['abcde', 'a'.repeat(51), '1abcdef', '_abcdef', 'abc def', 'abc-def', 'abc@de.com', ''])(
    'refuses %j',
    (value) => {
      expect(isUserName(value)).toBe(false);
    },
  );
  it('is the same pattern as the api in the Chinese edition', () => {
    expect(USER_NAME_PATTERN.source).toBe('^[A-Za-z\\u4e00-\\u9fff][A-Za-z0-9_\\u4e00-\\u9fff]{5,49}$');
  });
});

describe('password (business spec 5)', () => {
  it.each([
    ['abc123', null],
    ['abc#def', null],
    ['123#456', null],
    ['Cold#2026', null],
    ['abcdef', 'strength'],
    ['123456', 'strength'],
    ['#$%^&*', 'strength'],
    ['ab12', 'length'],
    ['a1'.repeat(11), 'length'],
    ['abc 123', 'whitespace'],
  ])('%j -> %s', (value, problem) => {
    expect(passwordProblem(value)).toBe(problem);
  });
  it('counts the classes used', () => {
    expect(passwordClasses('a1#')).toBe(3);
    expect(passwordClasses('')).toBe(0);
  });
});

describe('confirm password (spec 5)', () => {
  const t = (key: string) => key;
  const check = (password: string | undefined, confirm: string | undefined) => {
    const rule = confirmPasswordRules(t)[0] as (form: { getFieldValue: (name: string) => unknown }) => {
      validator: (rule: unknown, value: unknown) => Promise<void>;
    };
    return rule({ getFieldValue: () => password })
      .validator({}, confirm)
      .then(
        () => 'ok',
        (error: Error) => error.message,
      );
  };
  it('is required only when a password was entered', async () => {
    expect(await check(undefined, undefined)).toBe('ok');
    expect(await check('abc123', undefined)).toBe('rules.confirmPassword.required');
  });
  it('refuses whitespace and a mismatch', async () => {
    expect(await check('abc123', 'abc 123')).toBe('rules.confirmPassword.whitespace');
    expect(await check('abc123', 'abc124')).toBe('rules.confirmPassword.mismatch');
    expect(await check('abc123', 'abc123')).toBe('ok');
  });
});

describe('phone and code', () => {
  it.each(['13800138000', '+8613800138000', '+14155550123'])('accepts the phone %s', (value) => {
    expect(PHONE_PATTERN.test(value)).toBe(true);
  });
  it.each(['12800138000', '1380013800', '+0123', 'phone'])('refuses the phone %s', (value) => {
    expect(PHONE_PATTERN.test(value)).toBe(false);
  });
  it('wants six digits', () => {
    expect(CODE_PATTERN.test('012345')).toBe(true);
    expect(CODE_PATTERN.test('12345')).toBe(false);
  });
});
