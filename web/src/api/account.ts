/** Account and session calls of spec section 7.2 (all under /base/BaseAccount). */
import { get, getBlob, post, type BlobAnswer, type RequestOptions } from './client';
import type { Schemas } from './generated';

const BASE = '/base/BaseAccount';

export interface PasswordLoginPayload {
  userName: string;
  password: string;
  verifyCode: string;
  verifyKey: string;
}

export type EmailLoginPayload = Schemas['EmailLogin'];

export type LoginAnswer = Schemas['Token'];

export type AccountType = 'enterprise' | 'personal';
export type CodeChannel = 'phone' | 'email';
export type CodePurpose = 'login' | 'register' | 'forgot' | 'bind';

/** Exactly one of phone and email carries the code. */
export interface ContactCode {
  phone?: string;
  email?: string;
  code: string;
}

export interface NewPassword {
  password: string;
  confirmPassword: string;
}

export interface RegisterPayload extends ContactCode, NewPassword {
  accountType: AccountType;
  userName: string;
  companyName?: string;
  realName?: string;
}

export type ForgotPayload = ContactCode & NewPassword;

export interface ChangePasswordPayload extends NewPassword {
  oldPassword: string;
}

export interface BaseAccount {
  id: number;
  userName: string;
  realName: string | null;
  accountPhoto: string | null;
  accountType: AccountType;
  phone: string | null;
  email: string | null;
  companyName: string | null;
  timeZone: string;
  temperatureUnit: string;
  /** ISO date-time of the last password change (password ageing, spec 5). */
  prevResetAt: string | null;
}

export interface OrgWithRole {
  organizationId: number;
  organizationName: string;
  roleName: string;
}

export interface AccountInfo {
  baseAccount: BaseAccount;
  permissionRoutes: string[];
  orgWithMyRole: OrgWithRole[];
  userProfile: { homePage: string };
}

export type SocialProvider = 'wechat' | 'qq' | 'facebook';

export interface SocialResult {
  token: string | null;
  bindingTicket: string | null;
}

export type BindingPayload =
  { bindingTicket: string; userName: string; password: string } | { bindingTicket: string; register: RegisterPayload };

/** POST login: user name (or phone or email), password and image captcha. */
export function login(payload: PasswordLoginPayload): Promise<LoginAnswer> {
  return post<LoginAnswer>(`${BASE}/login`, payload);
}

/** POST login/email: email address and the code sent to it. */
export function loginByEmail(payload: EmailLoginPayload): Promise<LoginAnswer> {
  return post<LoginAnswer>(`${BASE}/login/email`, payload);
}

/** Answer code of a code request for an address that received many codes lately: send the image captcha. */
export const CAPTCHA_NEEDED_CODE = 1014;

export interface CodeCaptcha {
  verifyKey: string;
  verifyCode: string;
}

/** GET code/phone or code/email: sends a verification code for a purpose (with the image captcha when asked for). */
export function sendCode(
  channel: CodeChannel,
  target: string,
  type: CodePurpose,
  captcha?: CodeCaptcha,
): Promise<{ resendAfter: number }> {
  return get<{ resendAfter: number }>(`${BASE}/code/${channel}`, { [channel]: target, type, ...captcha });
}

/** GET code/email for sign-in. */
export function sendEmailCode(email: string, captcha?: CodeCaptcha): Promise<{ resendAfter: number }> {
  return sendCode('email', email, 'login', captcha);
}

/** The header of a newVerify answer naming the captcha; sent back as `verifyKey` on sign-in. */
export const CAPTCHA_KEY_HEADER = 'x-captcha-key';
/** '1' when sign-in asks for the captcha, '0' when the api does not (CAPTCHA_REQUIRED=0). */
export const CAPTCHA_REQUIRED_HEADER = 'x-captcha-required';

/** GET newVerify: the image captcha as a blob, its key in a header. */
export function newVerify(): Promise<BlobAnswer> {
  return getBlob(`${BASE}/newVerify`, undefined, { handleErrors: false });
}

/** POST register (business or personal): signs in, answers the token. Form errors come back to the form. */
export function register(payload: RegisterPayload, options?: RequestOptions): Promise<LoginAnswer> {
  return post<LoginAnswer>(`${BASE}/register`, payload, options);
}

/** POST forgot: a new password with a code sent to the account's phone or email. */
export function forgotPassword(payload: ForgotPayload, options?: RequestOptions): Promise<null> {
  return post<null>(`${BASE}/forgot`, payload, options);
}

/** POST updatePassword (signed in): revokes the other sessions. */
export function updatePassword(payload: ChangePasswordPayload, options?: RequestOptions): Promise<null> {
  return post<null>(`${BASE}/updatePassword`, payload, options);
}

export function bindPhone(payload: { phone: string; code: string }, options?: RequestOptions): Promise<null> {
  return post<null>(`${BASE}/bindPhone`, payload, options);
}

export function bindEmail(payload: { email: string; code: string }, options?: RequestOptions): Promise<null> {
  return post<null>(`${BASE}/bindEmail`, payload, options);
}

/** GET loginOut: revokes the token server-side; the caller forgets it whatever the answer. */
export function logout(): Promise<null> {
  return get<null>(`${BASE}/loginOut`, undefined, { handleErrors: false });
}

/** POST cancelWithNoParam: cancels the signed-in account. */
export function cancelAccount(): Promise<null> {
  return post<null>(`${BASE}/cancelWithNoParam`);
}

/** GET accountInfo (param timeStamp): account, permission keys, organisations, profile. */
export function accountInfo(): Promise<AccountInfo> {
  return get<AccountInfo>(`${BASE}/accountInfo`, { timeStamp: Date.now() }, { handleErrors: false });
}

/** GET login/{provider}/web/authorize: where to send the browser for a social sign-in. */
export function socialAuthorize(provider: SocialProvider): Promise<{ url: string }> {
  return get<{ url: string }>(`${BASE}/login/${provider}/web/authorize`);
}

/** Finish a social sign-in with the provider's code and state: a token, or a binding ticket. */
export function socialFinish(provider: SocialProvider, code: string, state: string): Promise<SocialResult> {
  const options = { handleErrors: false } as const;
  if (provider === 'facebook') return get<SocialResult>(`${BASE}/login/facebook/web`, { code, state }, options);
  return post<SocialResult>(`${BASE}/login/${provider}/web`, { code, state }, options);
}

/** POST binding: ties a first-time social identity to an existing or a new account. */
export function bindSocial(payload: BindingPayload, options?: RequestOptions): Promise<LoginAnswer> {
  return post<LoginAnswer>(`${BASE}/binding`, payload, options);
}
