import { AxiosError, AxiosHeaders, CanceledError, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubBrowser } from '@/test/browser';
import { get, getBlob, http, post, put, setClientHandlers } from './client';
import { ApiError } from './errors';
import { setAccessToken } from './session';

type Reply = { status: number; body: unknown; headers?: Record<string, string> } | 'network';

let replies: (config: InternalAxiosRequestConfig) => Reply;
let seen: InternalAxiosRequestConfig[];
const notify = vi.fn();
const endSession = vi.fn();

/** A fake transport: answers after a few milliseconds unless the call is aborted first. */
function adapter(config: InternalAxiosRequestConfig): Promise<AxiosResponse> {
  seen.push(config);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      const reply = replies(config);
      if (reply === 'network') return reject(new AxiosError('Network Error', AxiosError.ERR_NETWORK, config, {}));
      const response: AxiosResponse = {
        status: reply.status,
        statusText: '',
        data: reply.body,
        headers: new AxiosHeaders(reply.headers ?? {}),
        config,
      };
      if (reply.status >= 200 && reply.status < 300) resolve(response);
      else reject(new AxiosError('Request failed', AxiosError.ERR_BAD_RESPONSE, config, {}, response));
    }, 5);
    config.signal?.addEventListener?.('abort', () => {
      clearTimeout(timer);
      reject(new CanceledError(undefined, undefined, config));
    });
  });
}

const ok = (data: unknown): Reply => ({ status: 200, body: { code: 0, msg: 'success', data } });
const settled = (promise: Promise<unknown>, ms = 50) =>
  Promise.race([
    promise.then(
      () => 'resolved',
      () => 'rejected',
    ),
    new Promise((r) => setTimeout(() => r('pending'), ms)),
  ]);

beforeEach(() => {
  stubBrowser();
  seen = [];
  replies = () => ok(null);
  notify.mockReset();
  endSession.mockReset();
  http.defaults.adapter = adapter;
  setClientHandlers({ notify, endSession });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('request client defaults', () => {
  it('uses /api, a 60 s time-out and JSON', () => {
    expect(http.defaults.baseURL).toBe('/api');
    expect(http.defaults.timeout).toBe(60_000);
    expect(http.defaults.headers['Content-Type']).toBe('application/json');
  });

  it('sends the time zone and the stored language', async () => {
    stubBrowser('theme=x; lang=en-US');
    await get('/device/Device/list');
    const headers = seen[0].headers;
    expect(headers.get('X-Timezone')).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(headers.get('Accept-Language')).toBe('en-US');
  });

  it('falls back on zh-CN when no language is stored', async () => {
    await get('/device/Device/list');
    expect(seen[0].headers.get('Accept-Language')).toBe('zh-CN');
  });
});

describe('request bodies', () => {
  it('go with the fields their call accepts: a loaded record sent back loses what the api only answers', async () => {
    const fence = { id: 3, name: 'Depot', shape: 'circle', center: [121.4, 31.2], radius: 500, alarmEnter: true };
    await put('/waybill/Fence/update', { ...fence, gmtCreate: '2026-11-28 09:00:00', creator: 'demouser' });
    expect(JSON.parse(seen[0].data as string)).toEqual(fence);
  });
});

describe('bearer token', () => {
  it('is sent with the stored access token', async () => {
    setAccessToken('tok-1');
    await get('/base/BaseAccount/accountInfo', { timeStamp: 1 });
    expect(seen[0].headers.get('Authorization')).toBe('Bearer tok-1');
  });

  it.each(['/base/BaseAccount/login', '/base/BaseAccount/register'])('is not sent to %s', async (url) => {
    setAccessToken('tok-1');
    await post(url, { userName: 'a' });
    expect(seen[0].headers.get('Authorization')).toBeUndefined();
  });

  it('is not sent without a token', async () => {
    await get('/base/BaseAccount/accountInfo');
    expect(seen[0].headers.get('Authorization')).toBeUndefined();
  });
});

describe('answers', () => {
  it('resolves with data when the body code is 0', async () => {
    replies = () => ok({ token: 'abc' });
    await expect(post('/base/BaseAccount/login', {})).resolves.toEqual({ token: 'abc' });
    expect(notify).not.toHaveBeenCalled();
  });

  it('rejects a non-zero body code with the server message', async () => {
    replies = () => ({ status: 200, body: { code: 1001, msg: 'wrong password', data: null } });
    const error = await post('/base/BaseAccount/login', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).failure).toMatchObject({
      kind: 'business',
      code: 1001,
      serverMessage: 'wrong password',
    });
    expect(notify).toHaveBeenCalledOnce();
    expect(endSession).not.toHaveBeenCalled();
  });

  it('ends the session on body code 2010', async () => {
    replies = () => ({ status: 200, body: { code: 2010, msg: 'expired', data: null } });
    await expect(get('/x')).rejects.toBeInstanceOf(ApiError);
    expect(notify.mock.calls[0][0]).toMatchObject({ kind: 'sessionExpired', messageKey: 'errors.sessionExpired' });
    expect(endSession).toHaveBeenCalledOnce();
  });

  it('ends the session on 401 only when a token was sent', async () => {
    replies = () => ({ status: 401, body: { code: 401, msg: 'no', data: null } });
    await expect(get('/x')).rejects.toBeInstanceOf(ApiError);
    expect(endSession).not.toHaveBeenCalled();
    setAccessToken('tok');
    await expect(get('/x')).rejects.toBeInstanceOf(ApiError);
    expect(endSession).toHaveBeenCalledOnce();
  });

  it('shows Access Denied with the server message and ends the session on 403', async () => {
    replies = () => ({ status: 403, body: { code: 403, msg: 'not yours', data: null } });
    await expect(get('/x')).rejects.toBeInstanceOf(ApiError);
    expect(notify.mock.calls[0][0]).toMatchObject({
      kind: 'accessDenied',
      messageKey: 'errors.accessDenied',
      serverMessage: 'not yours',
    });
    expect(endSession).toHaveBeenCalledOnce();
  });

  it('hands 422 field errors to the form and says the input is invalid', async () => {
    replies = () => ({
      status: 422,
      body: { code: 422, msg: 'Invalid input - phone: bad', data: { errors: { phone: ['bad'] } } },
    });
    const error = await post('/base/BaseAccount/bindPhone', { phone: '1' }).catch((e: unknown) => e);
    expect((error as ApiError).failure).toMatchObject({
      kind: 'validation',
      fieldErrors: { phone: ['bad'] },
      endSession: false,
    });
    expect(notify.mock.calls[0][0]).toMatchObject({ messageKey: 'errors.validation' });
    expect(endSession).not.toHaveBeenCalled();
  });

  it('treats a time-out (no answer within 60 s) as Network anomaly', async () => {
    http.defaults.adapter = (config) =>
      Promise.reject(new AxiosError('timeout of 60000ms exceeded', AxiosError.ECONNABORTED, config));
    await expect(get('/slow')).rejects.toBeInstanceOf(ApiError);
    expect(notify.mock.calls[0][0]).toMatchObject({ kind: 'network', messageKey: 'errors.networkAnomaly' });
  });

  it('maps 500 to Server Exception and no response to Network anomaly', async () => {
    replies = () => ({ status: 500, body: '<html>' });
    await expect(get('/x')).rejects.toBeInstanceOf(ApiError);
    replies = () => 'network';
    await expect(get('/y')).rejects.toBeInstanceOf(ApiError);
    expect(notify.mock.calls.map(([failure]) => failure.messageKey)).toEqual([
      'errors.serverException',
      'errors.networkAnomaly',
    ]);
  });

  it('leaves failures to the caller with handleErrors: false', async () => {
    replies = () => ({ status: 403, body: { code: 403, msg: 'no', data: null } });
    await expect(get('/x', undefined, { handleErrors: false })).rejects.toBeInstanceOf(ApiError);
    expect(notify).not.toHaveBeenCalled();
    expect(endSession).not.toHaveBeenCalled();
  });

  it('returns blob answers with their headers', async () => {
    const blob = new Blob(['png'], { type: 'image/png' });
    replies = () => ({ status: 200, body: blob, headers: { 'Content-Disposition': 'attachment; filename="a.pdf"' } });
    const answer = await getBlob('/file', { id: 1 });
    expect(answer.data).toBe(blob);
    expect(answer.headers['content-disposition']).toBe('attachment; filename="a.pdf"');
  });

  it('rejects a blob answer that is a JSON failure envelope', async () => {
    const blob = new Blob([JSON.stringify({ code: 5, msg: 'file failed', data: null })], { type: 'application/json' });
    replies = () => ({ status: 200, body: blob });
    const error = await getBlob('/file').catch((e: unknown) => e);
    expect((error as ApiError).failure).toMatchObject({ kind: 'business', serverMessage: 'file failed' });
  });
});

describe('duplicate in-flight requests', () => {
  it('cancels the first of two identical calls and ignores it silently', async () => {
    replies = (config) => ok(config.params);
    const first = get('/device/Device/list', { start: 1 });
    await new Promise((resolve) => setTimeout(resolve, 1)); // the first call is on the wire
    expect(seen).toHaveLength(1);
    const second = get('/device/Device/list', { start: 1 });
    await expect(second).resolves.toEqual({ start: 1 });
    expect(await settled(first)).toBe('pending');
    expect(seen[0].signal?.aborted).toBe(true);
    expect(notify).not.toHaveBeenCalled();
  });

  it('cancels a duplicate even before it reached the transport', async () => {
    const first = post('/base/BaseNotice/queryNotice', { noticeType: 1 });
    const second = post('/base/BaseNotice/queryNotice', { noticeType: 1 });
    await expect(second).resolves.toBeNull();
    expect(await settled(first)).toBe('pending');
    expect(seen).toHaveLength(1);
    expect(notify).not.toHaveBeenCalled();
  });

  it('keeps calls that differ in method, path or payload', async () => {
    replies = (config) => ok(config.params ?? JSON.parse(config.data as string));
    const calls = [get('/a', { start: 1 }), get('/a', { start: 2 }), get('/b', { start: 1 }), post('/a', { start: 1 })];
    await expect(Promise.all(calls)).resolves.toEqual([{ start: 1 }, { start: 2 }, { start: 1 }, { start: 1 }]);
  });

  it('does not cancel a call that already finished', async () => {
    await get('/a');
    await expect(get('/a')).resolves.toBeNull();
    expect(seen.every((config) => !config.signal?.aborted)).toBe(true);
  });
});

describe('FDA evidence (a reason or a signature for a GxP change)', () => {
  const needed = (needs: string): Reply => ({
    status: 200,
    body: { code: 4604, msg: 'FDA mode: give a reason for this change.', data: { needs } },
  });
  afterEach(() => setClientHandlers({ askEvidence: null }));

  it('asks the user once and sends the call again with the evidence in encoded headers', async () => {
    replies = (config) => (config.headers.get('X-Change-Reason') ? ok({ saved: true }) : needed('signature'));
    const askEvidence = vi.fn(async () => ({ reason: '冷库门未关', userName: 'demouser', password: 'Cold#2026' }));
    setClientHandlers({ askEvidence });
    await expect(post('/alarm/AlarmMessage/process', { ids: [1] })).resolves.toEqual({ saved: true });
    expect(askEvidence).toHaveBeenCalledWith('signature', 'FDA mode: give a reason for this change.');
    expect(seen).toHaveLength(2);
    expect(seen[1].headers.get('X-Change-Reason')).toBe(encodeURIComponent('冷库门未关'));
    expect(seen[1].headers.get('X-Signature-User')).toBe('demouser');
    expect(seen[1].headers.get('X-Signature-Password')).toBe(encodeURIComponent('Cold#2026'));
    expect(notify).not.toHaveBeenCalled();
  });

  it('a cancelled prompt changes nothing and the call is refused without a second try', async () => {
    replies = () => needed('reason');
    setClientHandlers({ askEvidence: async () => null });
    await expect(post('/alarm/SensorLimit/save', { deviceId: 1 })).rejects.toBeInstanceOf(ApiError);
    expect(seen).toHaveLength(1);
  });

  it('asks only once: a second refusal is an ordinary failure', async () => {
    replies = () => needed('reason');
    const askEvidence = vi.fn(async () => ({ reason: 'SOP-12' }));
    setClientHandlers({ askEvidence });
    await expect(post('/alarm/SensorLimit/save', { deviceId: 1 })).rejects.toBeInstanceOf(ApiError);
    expect(askEvidence).toHaveBeenCalledTimes(1);
    expect(seen).toHaveLength(2);
    expect(notify).toHaveBeenCalledTimes(1);
  });
});
