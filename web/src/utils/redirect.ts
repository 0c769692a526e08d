import { DEFAULT_LANDING_PATH } from '@/api/constants';

/**
 * The `redirect` query value when it is a path of this site, else the landing path. Only a single
 * leading "/" is accepted: "//host" and "/\host" are other sites, and control characters (tabs and
 * new lines are stripped by browsers) could turn a path into one.
 */
export function safeRedirect(value: unknown, fallback: string = DEFAULT_LANDING_PATH): string {
  const candidate = Array.isArray(value) ? value[0] : value;
  if (typeof candidate !== 'string') return fallback;
  if (!candidate.startsWith('/') || /^\/[/\\]/.test(candidate) || /[\u0000-\u001f\u007f]/.test(candidate)) {
    return fallback;
  }
  return candidate;
}
