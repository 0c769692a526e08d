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
