import fieldRules from '@rules/fields.json';

/** Shell constants of spec sections 7.1 and 9. */
export const API_BASE = '/api';
export const REQUEST_TIMEOUT_MS = 60_000;
export const ACCESS_TOKEN_KEY = 'Access-Token';
export const TOKEN_LIFETIME_MS = 604_800_000; // 7 days
export const LOGOUT_REDIRECT_DELAY_MS = 1_500;
export const LOGIN_PATH = '/user/login';
export const DEFAULT_LANDING_PATH = '/home';
export const TIMEZONE_HEADER = 'X-Timezone';
/** Calls sent without the bearer header (spec 7.1). */
export const ANONYMOUS_PATHS = ['/base/BaseAccount/login', '/base/BaseAccount/register'];
/** Password ageing (spec sections 5 and 9): warn from day 75, the password lives 90 days (FDA mode
 * enforces it at sign-in); shared with the api in rules/fields.json. */
export const PASSWORD_WARNING_DAYS: number = fieldRules.password.warningDays;
export const PASSWORD_LIFETIME_DAYS: number = fieldRules.password.lifetimeDays;
/** Namespace prefix of everything this console keeps in localStorage besides the token. */
export const STORAGE_PREFIX = 'coldchain:';
/** FDA mode (api/fda/records.py): a change to a GxP record answers this code until it carries its
 * reason, or for a signed action also the user name and password again, in these headers. */
export const EVIDENCE_REQUIRED_CODE = 4604;
export const REASON_HEADER = 'X-Change-Reason';
export const SIGNER_HEADER = 'X-Signature-User';
export const PASSWORD_HEADER = 'X-Signature-Password';
