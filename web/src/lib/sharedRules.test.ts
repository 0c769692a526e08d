import { describe, expect, it } from 'vitest';
import cases from '@rules/cases.json';
import { hasPermission } from '@/routes/permissions';
import { isPhone, isUserName, levelMinutesValid, passwordProblem, userNamePattern } from './formRules';

/** The same table of cases that pytest runs against the api (tests/api/test_shared_rules.py). */
describe('shared field rules (rules/cases.json)', () => {
  it.each(cases.userName)('user name $value', (item) => {
    expect(isUserName(item.value, userNamePattern(false))).toBe(item.cn);
    expect(isUserName(item.value, userNamePattern(true))).toBe(item.overseas);
  });
  it.each(cases.password)('password $value', (item) => {
    expect(passwordProblem(item.value) === null).toBe(item.valid);
  });
  it.each(cases.phone)('phone $value', (item) => {
    expect(isPhone(item.value)).toBe(item.valid);
  });
  it.each(cases.levelMinutes)('level minutes $value', (item) => {
    expect(levelMinutesValid(item.value)).toBe(item.valid);
  });
  it.each(cases.permission)('permission $granted -> $key', (item) => {
    expect(hasPermission(new Set(item.granted), item.key)).toBe(item.valid);
  });
});
