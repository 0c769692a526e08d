import { describe, expect, it } from 'vitest';
import { failureFromBody, failureFromHttp, failureText } from './errors';

const t = (key: string) => `t(${key})`;

describe('error catalogue', () => {
  it.each([
    [403, { code: 403, msg: 'denied', data: null }, true, 'accessDenied', true],
    [401, null, true, 'sessionExpired', true],
    [401, null, false, 'sessionExpired', false],
    [500, null, true, 'server', false],
    [502, { code: 1, msg: 'x', data: null }, true, 'server', false],
    [404, '<html>', true, 'server', false],
    [422, { code: 422, msg: 'name: required', data: null }, true, 'business', false],
    [undefined, undefined, true, 'network', false],
  ] as const)('HTTP %s -> %s', (status, body, hadToken, kind, endSession) => {
    expect(failureFromHttp(status, body, hadToken)).toMatchObject({ kind, endSession });
  });

  it('maps 422 field errors for the form', () => {
    const body = {
      code: 422,
      msg: 'Invalid input - userName: bad',
      data: { errors: { userName: ['bad'], code: 'x', n: [1] } },
    };
    expect(failureFromHttp(422, body, false)).toMatchObject({
      kind: 'validation',
      messageKey: 'errors.validation',
      fieldErrors: { userName: ['bad'], code: ['x'] },
      endSession: false,
    });
    expect(failureText(failureFromHttp(422, body, false), t)).toEqual({ message: 't(errors.validation)' });
  });

  it('says why a session ended when the server says so (signing locked, idle in FDA mode)', () => {
    const locked = {
      code: 2010,
      msg: 'Too many wrong signature passwords: signing is locked until 2026-11-28 12:53 (UTC+08:00)',
      data: null,
    };
    const item = failureFromHttp(401, locked, true);
    expect(item).toMatchObject({ kind: 'sessionExpired', endSession: true });
    expect(failureText(item, t)).toEqual({ message: 't(errors.sessionExpired)', description: locked.msg });
    expect(failureText(failureFromHttp(401, null, true), t)).toEqual({
      message: 't(errors.sessionExpired)',
      description: undefined,
    });
  });

  it('treats body code 2010 as an expired session', () => {
    expect(failureFromBody({ code: 2010, msg: '', data: null })).toMatchObject({
      kind: 'sessionExpired',
      endSession: true,
    });
    expect(failureFromHttp(400, { code: 2010, msg: '', data: null }, true)).toMatchObject({ kind: 'sessionExpired' });
  });

  it('words each failure', () => {
    expect(failureText(failureFromBody({ code: 7, msg: 'The user already exists', data: null }), t)).toEqual({
      message: 'The user already exists',
    });
    expect(failureText(failureFromBody({ code: 7, msg: '', data: null }), t)).toEqual({
      message: 't(errors.requestFailed)',
    });
    expect(failureText(failureFromHttp(403, { code: 403, msg: 'why', data: null }, true), t)).toEqual({
      message: 't(errors.accessDenied)',
      description: 'why',
    });
    expect(failureText(failureFromHttp(undefined, null, false), t)).toEqual({ message: 't(errors.networkAnomaly)' });
  });
});
