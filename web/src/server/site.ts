import type { IncomingMessage } from 'node:http';
import { CUSTOM_PAGE_BY_DOMAIN, type SiteState } from '@/api/customPage';
import { isEnvelope, SUCCESS_CODE } from '@/api/errors';
import type { Language } from '@/i18n/languages';

/** How long a server render waits for the branding before showing "unavailable". */
const BRANDING_TIMEOUT_MS = 10_000;

export function apiOrigin(): string {
  return (process.env.API_URL || 'http://127.0.0.1:5000').replace(/\/+$/, '');
}

/** "junjia.localhost:3000" -> "junjia.localhost"; "[::1]:3000" -> "::1". */
export function hostWithoutPort(host: string): string {
  const value = host.trim().toLowerCase();
  if (value.startsWith('[')) return value.slice(1, value.indexOf(']') > 0 ? value.indexOf(']') : undefined);
  return value.replace(/:\d+$/, '');
}

/**
 * The branding of the host this request came to, from the api. The original Host (with its port)
 * goes along as X-Forwarded-Host: the api trusts it from this proxy only.
 */
export async function fetchSite(req: IncomingMessage, language: Language): Promise<SiteState> {
  const host = req.headers.host ?? '';
  const url = `${apiOrigin()}/api${CUSTOM_PAGE_BY_DOMAIN}?topDomain=${encodeURIComponent(hostWithoutPort(host))}`;
  const proto = String(req.headers['x-forwarded-proto'] ?? 'http')
    .split(',')[0]
    .trim();
  try {
    const response = await fetch(url, {
      headers: {
        Accept: 'application/json',
        'Accept-Language': language,
        'X-Forwarded-Host': host,
        'X-Forwarded-Proto': proto,
      },
      signal: AbortSignal.timeout(BRANDING_TIMEOUT_MS),
    });
    const body: unknown = await response.json().catch(() => null);
    if (response.ok && isEnvelope(body) && body.code === SUCCESS_CODE) {
      return { kind: 'ok', branding: body.data as Extract<SiteState, { kind: 'ok' }>['branding'] };
    }
    const message = isEnvelope(body) ? body.msg : '';
    if (response.status === 403) return { kind: 'forbidden', status: 403, message };
    // 410: the operator switched the site off.
    if (response.status === 410) return { kind: 'closed', status: 410, message };
    // 421: the host is not one of the configured domains; 404: no site for that top domain.
    if (response.status === 421 || response.status === 404)
      return { kind: 'notConfigured', status: response.status, message };
    return { kind: 'unavailable', status: 503 };
  } catch {
    return { kind: 'unavailable', status: 503 };
  }
}
