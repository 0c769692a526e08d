import { get, getBlob, post, type BlobAnswer } from './client';

export interface PasswordLoginPayload {
  userName: string;
  password: string;
  verifyCode: string;
  verifyKey: string;
}

export interface EmailLoginPayload {
  email: string;
  code: string;
}

export interface LoginAnswer {
  token: string;
}

/** POST /base/BaseAccount/login: user name (or phone or email), password and image captcha. */
export function login(payload: PasswordLoginPayload): Promise<LoginAnswer> {
  return post<LoginAnswer>('/base/BaseAccount/login', payload);
}

/** POST /base/BaseAccount/login/email: email address and the code sent to it. */
export function loginByEmail(payload: EmailLoginPayload): Promise<LoginAnswer> {
  return post<LoginAnswer>('/base/BaseAccount/login/email', payload);
}

/** GET /base/BaseAccount/code/email: sends a sign-in verification code. */
export function sendEmailCode(email: string): Promise<unknown> {
  return get<unknown>('/base/BaseAccount/code/email', { email, type: 'login' });
}

/** The header of a newVerify answer naming the captcha; sent back as `verifyKey` on sign-in. */
export const CAPTCHA_KEY_HEADER = 'x-captcha-key';

/** GET /base/BaseAccount/newVerify: the image captcha as a blob, its key in a header. */
export function newVerify(): Promise<BlobAnswer> {
  return getBlob('/base/BaseAccount/newVerify', undefined, { handleErrors: false });
}
