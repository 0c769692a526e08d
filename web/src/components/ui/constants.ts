/** Interaction constants of spec section 9. */
export const SUBMIT_DEBOUNCE_MS = 500;
export const FILTER_DEBOUNCE_MS = 800;
export const NOTIFICATION_DURATION_S = 4;
/** Wait before a verification code may be sent again. */
export const CODE_RESEND_SECONDS = 60;
/** Shell layout (spec 2.3 and 9). */
export const SIDER_WIDTH = 256;
export const SIDER_COLLAPSED_WIDTH = 80;
export const HEADER_HEIGHT = 56;
export const HEADER_AUTO_HIDE = true;
export const HEADER_HIDE_AFTER_PX = 300;
