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
/** Password ageing (spec sections 5 and 9): warn from day 75, the password lives 90 days. */
export const PASSWORD_WARNING_DAYS = 75;
export const PASSWORD_LIFETIME_DAYS = 90;
/** Namespace prefix of everything this console keeps in localStorage besides the token. */
export const STORAGE_PREFIX = 'coldchain:';
