/**
 * The error catalogue of spec section 8, in one place: every failed call is classified into an
 * ApiFailure that names its localized message (keys of the `common` namespace) and whether the
 * session must end (logout, then /user/login after 1.5 s).
 */
export const SUCCESS_CODE = 0;
export const SESSION_EXPIRED_CODE = 2010;

export type FailureKind = 'accessDenied' | 'sessionExpired' | 'validation' | 'business' | 'server' | 'network';

export const ERROR_MESSAGE_KEYS: Record<FailureKind, string> = {
  accessDenied: 'errors.accessDenied',
  sessionExpired: 'errors.sessionExpired',
  validation: 'errors.validation',
  business: 'errors.requestFailed',
  server: 'errors.serverException',
  network: 'errors.networkAnomaly',
};

export interface ApiFailure {
  kind: FailureKind;
  /** Key of the localized message in the common namespace. */
  messageKey: string;
  /** The server's own (already localized) description, when it gave one. */
  serverMessage?: string;
  status?: number;
  code?: number;
  /** Log out and go to the sign-in page after the redirect delay. */
  endSession: boolean;
  /** HTTP 422: the server's (localized) messages per field, for the form to show at each field. */
  fieldErrors?: Record<string, string[]>;
}

export class ApiError extends Error {
  constructor(
    readonly failure: ApiFailure,
    readonly body?: unknown,
  ) {
    super(failure.serverMessage || failure.messageKey);
    this.name = 'ApiError';
  }
}

export interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data: T;
}

export function isEnvelope(body: unknown): body is Envelope {
  return typeof body === 'object' && body !== null && typeof (body as Envelope).code === 'number';
}

function failure(kind: FailureKind, extra: Partial<ApiFailure> = {}): ApiFailure {
  return { kind, messageKey: ERROR_MESSAGE_KEYS[kind], endSession: false, ...extra };
}

/** `data.errors` of a validation answer: {field: [messages]}, when it has that shape. */
export function fieldErrorsOf(body: Envelope): Record<string, string[]> | undefined {
  const errors = (body.data as { errors?: unknown } | null | undefined)?.errors;
  if (typeof errors !== 'object' || errors === null || Array.isArray(errors)) return undefined;
  const entries = Object.entries(errors as Record<string, unknown>).flatMap(
    ([field, messages]): [string, string[]][] => {
      const list = (Array.isArray(messages) ? messages : [messages]).filter(
        (item): item is string => typeof item === 'string',
      );
      return list.length ? [[field, list]] : [];
    },
  );
  return entries.length ? Object.fromEntries(entries) : undefined;
}

/** A well-formed answer whose body code is not 0. */
export function failureFromBody(body: Envelope, status?: number): ApiFailure {
  if (body.code === SESSION_EXPIRED_CODE) {
    return failure('sessionExpired', { status, code: body.code, serverMessage: body.msg, endSession: true });
  }
  const fieldErrors = status === 422 ? fieldErrorsOf(body) : undefined;
  if (fieldErrors)
    return failure('validation', { status, code: body.code, serverMessage: body.msg || undefined, fieldErrors });
  return failure('business', { status, code: body.code, serverMessage: body.msg || undefined });
}

/**
 * A call that failed at the HTTP level. `status` is undefined when no response arrived;
 * `hadToken` tells whether the call carried a session (401 ends it only then).
 */
export function failureFromHttp(status: number | undefined, body: unknown, hadToken: boolean): ApiFailure {
  const envelope = isEnvelope(body) ? body : undefined;
  if (status === undefined) return failure('network');
  if (status === 403) {
    return failure('accessDenied', { status, code: envelope?.code, serverMessage: envelope?.msg, endSession: true });
  }
  if (status === 401) {
    // Why the session ended (idle in FDA mode, signing locked), when the server says so.
    return failure('sessionExpired', {
      status,
      code: envelope?.code,
      serverMessage: envelope?.msg || undefined,
      endSession: hadToken,
    });
  }
  if (envelope && envelope.code !== SUCCESS_CODE && status < 500) return failureFromBody(envelope, status);
  return failure('server', { status, code: envelope?.code });
}

/** The text to show for a failure, given a translate function of the common namespace. */
export function failureText(item: ApiFailure, t: (key: string) => string): { message: string; description?: string } {
  if (item.kind === 'business') return { message: item.serverMessage || t(item.messageKey) };
  if (item.kind === 'accessDenied' || item.kind === 'sessionExpired')
    return { message: t(item.messageKey), description: item.serverMessage };
  return { message: t(item.messageKey) };
}
