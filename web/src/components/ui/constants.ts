/** Interaction constants of spec section 9. */
export const SUBMIT_DEBOUNCE_MS = 500;
export const FILTER_DEBOUNCE_MS = 800;
/** PDF and file downloads are debounced 1,000 ms. */
export const DOWNLOAD_DEBOUNCE_MS = 1000;
/** A chunk (page code) that has not loaded after 120 s is reported. */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;
/** Infinite lists load more within 50 px of the bottom. */
export const INFINITE_SCROLL_THRESHOLD_PX = 50;
/** Rem-sized mobile pages: the root font size is the screen width / 11.04. */
export const MOBILE_REM_DIVISOR = 11.04;
export const NOTIFICATION_DURATION_S = 4;
/** Wait before a verification code may be sent again. */
export const CODE_RESEND_SECONDS = 60;
/** Shell layout (spec 2.3 and 9). */
export const SIDER_WIDTH = 256;
export const SIDER_COLLAPSED_WIDTH = 80;
export const HEADER_HEIGHT = 56;
export const HEADER_AUTO_HIDE = true;
export const HEADER_HIDE_AFTER_PX = 300;
