/** Interaction constants of spec section 9. */
export const SUBMIT_DEBOUNCE_MS = 500;
export const NOTIFICATION_DURATION_S = 4;
/** Wait before a verification code may be sent again. */
export const CODE_RESEND_SECONDS = 60;
