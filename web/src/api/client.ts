/**
 * The request client of spec section 7.1: base /api, 60 s time-out, JSON; every call carries the
 * browser's time zone and the chosen language, and (except sign-in and register) the bearer token;
 * a second identical in-flight call cancels the first, which is then silently ignored; blob answers
 * come back with their headers; body code 0 is success, everything else goes through errors.ts.
 * A change that FDA mode wants evidence for (a reason, or a signature) is asked of the user and sent
 * again with it, so no page has to know which calls are GxP records.
 */
import axios, { AxiosHeaders, type AxiosRequestConfig, type AxiosResponse } from 'axios';
import { getStoredLanguage } from '@/i18n/languages';
import {
  ANONYMOUS_PATHS,
  API_BASE,
  EVIDENCE_REQUIRED_CODE,
  PASSWORD_HEADER,
  REASON_HEADER,
  REQUEST_TIMEOUT_MS,
  SIGNER_HEADER,
  TIMEZONE_HEADER,
} from './constants';
import {
  ApiError,
  failureFromBody,
  failureFromHttp,
  isEnvelope,
  SUCCESS_CODE,
  type ApiFailure,
  type Envelope,
} from './errors';
import { IDLE_HEADER, recordIdleLimit } from './idle';
import { acceptedBody } from './requestFields';
import { endSession, getAccessToken } from './session';

export interface RequestOptions extends AxiosRequestConfig {
  /** false: no notice and no logout; the caller handles the rejected ApiError itself. */
  handleErrors?: boolean;
  /** Set on the second try of a call that FDA mode asked evidence for (asked once only). */
  withEvidence?: boolean;
}

export type EvidenceNeed = 'reason' | 'signature';

/** What the user gives for a GxP change: the reason, and for a signature the two components again. */
export interface Evidence {
  reason: string;
  userName?: string;
  password?: string;
}

export interface BlobAnswer {
  data: Blob;
  headers: Record<string, string>;
}

/** What the client does with a failure; the app installs the notifier (see ui/RequestFeedback). */
export interface ClientHandlers {
  notify: (failure: ApiFailure) => void;
  endSession: () => void;
  /** Ask the user for a change's evidence (see ui/EvidencePrompt); null when they cancel. */
  askEvidence: ((need: EvidenceNeed, message: string) => Promise<Evidence | null>) | null;
}

const handlers: ClientHandlers = { notify: () => undefined, endSession, askEvidence: null };

export function setClientHandlers(next: Partial<ClientHandlers>): void {
  Object.assign(handlers, next);
}

export const http = axios.create({
  baseURL: API_BASE,
  timeout: REQUEST_TIMEOUT_MS,
  headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
});

function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

export function isAnonymousPath(url: string | undefined): boolean {
  const path = (url ?? '')
    .split('?')[0]
    .replace(/^\/api(?=\/)/, '')
    .replace(/\/+$/, '');
  return ANONYMOUS_PATHS.includes(path);
}

http.interceptors.request.use((config) => {
  // A file goes as multipart, whatever the call says: with the instance's JSON content type axios
  // would turn the FormData into JSON (the help and storage image uploads did, issue 47). The browser
  // writes the boundary (axios drops this content type of FormData there).
  if (typeof FormData !== 'undefined' && config.data instanceof FormData)
    config.headers.set('Content-Type', 'multipart/form-data');
  config.headers.set(TIMEZONE_HEADER, browserTimeZone());
  config.headers.set('Accept-Language', getStoredLanguage());
  const token = isAnonymousPath(config.url) ? null : getAccessToken();
  if (token) config.headers.set('Authorization', `Bearer ${token}`);
  return config;
});

http.interceptors.response.use((response) => {
  // Only signed-in answers speak about the session's idle limit.
  if (response.config.headers?.Authorization)
    recordIdleLimit(AxiosHeaders.from(response.headers as AxiosHeaders).get(IDLE_HEADER) as string | null);
  return response;
});

/** Identity of a call for de-duplication: method, path and payload (query and body). */
export function requestKey(config: AxiosRequestConfig): string {
  return JSON.stringify([
    (config.method ?? 'get').toLowerCase(),
    config.url,
    config.params ?? null,
    config.data ?? null,
  ]);
}

const inFlight = new Map<string, AbortController>();

/** A cancelled duplicate never settles: whoever awaited it simply hears nothing more. */
function ignored<T>(): Promise<T> {
  return new Promise<T>(() => undefined);
}

function fail(item: ApiFailure, options: RequestOptions, body?: unknown): never {
  if (options.handleErrors !== false) {
    handlers.notify(item);
    if (item.endSession) handlers.endSession();
  }
  throw new ApiError(item, body);
}

async function readBody(data: unknown): Promise<unknown> {
  if (typeof Blob !== 'undefined' && data instanceof Blob) {
    if (!data.type.includes('json')) return data;
    try {
      return JSON.parse(await data.text());
    } catch {
      return data;
    }
  }
  return data;
}

/** Header names in lower case (as browsers give them), values as strings. */
function lowerCaseHeaders(headers: AxiosResponse['headers']): Record<string, string> {
  const plain = AxiosHeaders.from(headers as AxiosHeaders).toJSON(true);
  return Object.fromEntries(Object.entries(plain).map(([name, value]) => [name.toLowerCase(), String(value)]));
}

async function unwrap<T>(response: AxiosResponse, options: RequestOptions): Promise<T> {
  if (options.responseType === 'blob') {
    const body = await readBody(response.data);
    if (isEnvelope(body) && body.code !== SUCCESS_CODE) fail(failureFromBody(body, response.status), options, body);
    return { data: response.data as Blob, headers: lowerCaseHeaders(response.headers) } as T;
  }
  const body: unknown = response.data;
  if (!isEnvelope(body)) return fail(failureFromHttp(500, body, false), options, body);
  if (body.code !== SUCCESS_CODE) return fail(failureFromBody(body, response.status), options, body);
  return (body as Envelope<T>).data;
}

function evidenceNeeded(body: unknown): EvidenceNeed | null {
  if (!isEnvelope(body) || body.code !== EVIDENCE_REQUIRED_CODE) return null;
  const needs = (body.data as { needs?: unknown } | null)?.needs;
  return needs === 'signature' ? 'signature' : 'reason';
}

export function evidenceHeaders(evidence: Evidence): Record<string, string> {
  // Encoded: headers carry ASCII only, and a reason is often Chinese.
  const headers: Record<string, string> = { [REASON_HEADER]: encodeURIComponent(evidence.reason.trim()) };
  if (evidence.userName) headers[SIGNER_HEADER] = encodeURIComponent(evidence.userName);
  if (evidence.password) headers[PASSWORD_HEADER] = encodeURIComponent(evidence.password);
  return headers;
}

/**
 * One call. Resolves with the answer's `data` (or a BlobAnswer), rejects with an ApiError. The body
 * goes with the fields its call accepts only (requestFields.ts).
 */
export async function request<T>(given: RequestOptions): Promise<T> {
  const options = { ...given, data: acceptedBody(given.method ?? 'get', given.url ?? '', given.data) };
  const key = requestKey(options);
  inFlight.get(key)?.abort();
  const controller = new AbortController();
  inFlight.set(key, controller);
  let response: AxiosResponse;
  try {
    response = await http.request({ ...options, signal: controller.signal });
  } catch (error) {
    if (controller.signal.aborted || axios.isCancel(error)) return ignored<T>();
    if (!axios.isAxiosError(error)) throw error;
    const hadToken = Boolean(error.config?.headers?.Authorization);
    const body = await readBody(error.response?.data);
    return fail(failureFromHttp(error.response?.status, body, hadToken), options, body);
  } finally {
    if (inFlight.get(key) === controller) inFlight.delete(key);
  }
  if (controller.signal.aborted) return ignored<T>();
  const need = options.withEvidence || !handlers.askEvidence ? null : evidenceNeeded(response.data);
  if (need && handlers.askEvidence) {
    const evidence = await handlers.askEvidence(need, (response.data as Envelope).msg);
    // Cancelled: the change is not made, and the user knows why (they closed the prompt).
    if (!evidence) throw new ApiError(failureFromBody(response.data as Envelope, response.status), response.data);
    const headers = { ...(options.headers as Record<string, string> | undefined), ...evidenceHeaders(evidence) };
    return request<T>({ ...options, headers, withEvidence: true });
  }
  return unwrap<T>(response, options);
}

export function get<T>(url: string, params?: object, options: RequestOptions = {}): Promise<T> {
  return request<T>({ ...options, method: 'get', url, params });
}

export function post<T>(url: string, data?: unknown, options: RequestOptions = {}): Promise<T> {
  return request<T>({ ...options, method: 'post', url, data });
}

export function put<T>(url: string, data?: unknown, options: RequestOptions = {}): Promise<T> {
  return request<T>({ ...options, method: 'put', url, data });
}

export function del<T>(url: string, params?: object, options: RequestOptions = {}): Promise<T> {
  return request<T>({ ...options, method: 'delete', url, params });
}

export function getBlob(url: string, params?: object, options: RequestOptions = {}): Promise<BlobAnswer> {
  return request<BlobAnswer>({ ...options, method: 'get', url, params, responseType: 'blob' });
}
