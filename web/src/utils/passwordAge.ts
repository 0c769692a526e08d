import { PASSWORD_LIFETIME_DAYS, PASSWORD_WARNING_DAYS } from '@/api/constants';

const DAY_MS = 86_400_000;

/**
 * Password ageing of spec section 5: from 75 days after the last change (prevResetAt) the user is
 * warned that the password expires in (90 - elapsed) days. null: no warning (younger, or unknown).
 * `daysLeft` is 0 or less once the 90 days have passed.
 */
export function passwordAgeWarning(
  prevResetAt: string | null | undefined,
  now: number = Date.now(),
): { elapsed: number; daysLeft: number } | null {
  if (!prevResetAt) return null;
  const changed = Date.parse(prevResetAt);
  if (Number.isNaN(changed)) return null;
  const elapsed = Math.floor((now - changed) / DAY_MS);
  if (elapsed < PASSWORD_WARNING_DAYS) return null;
  return { elapsed, daysLeft: PASSWORD_LIFETIME_DAYS - elapsed };
}
