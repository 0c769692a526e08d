import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';

/** Headers that belong to one connection, never forwarded (RFC 9110 section 7.6.1). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** "::ffff:127.0.0.1" -> "127.0.0.1"; other addresses unchanged. */
export function plainAddress(address: string | undefined): string {
  const value = (address ?? '').trim();
  return value.toLowerCase().startsWith('::ffff:') && value.includes('.') ? value.slice(7) : value;
}

/** Proxies in front of the web server whose X-Forwarded-For / -Proto are believed (WEB_TRUSTED_PROXIES). */
export function trustedProxies(raw: string | undefined = process.env.WEB_TRUSTED_PROXIES): Set<string> {
  return new Set(
    (raw ?? '')
      .split(',')
      .map((item) => plainAddress(item))
      .filter(Boolean),
  );
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

export interface Peer {
  /** The socket's remote address. */
  address: string | undefined;
  encrypted: boolean;
}

/**
 * The headers of a browser request forwarded to the api. The api believes X-Forwarded-* from this
 * server only (TRUSTED_PROXIES) and keys its rate limits on X-Forwarded-For, so the client address is
 * set here from the socket: a value the browser sent is replaced, unless the request came through a
 * proxy configured in WEB_TRUSTED_PROXIES, whose last X-Forwarded-For entry is then the client.
 */
export function forwardHeaders(
  incoming: IncomingHttpHeaders,
  peer: Peer,
  trusted: Set<string>,
  targetHost: string,
): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {};
  const named = new Set(
    (first(incoming.connection) ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter(Boolean),
  );
  for (const [name, value] of Object.entries(incoming)) {
    const key = name.toLowerCase();
    if (
      value === undefined ||
      HOP_BY_HOP.has(key) ||
      named.has(key) ||
      key === 'host' ||
      key.startsWith('x-forwarded-') ||
      key === 'forwarded'
    ) {
      continue;
    }
    headers[key] = value;
  }
  const peerAddress = plainAddress(peer.address);
  const fromTrusted = trusted.has(peerAddress);
  const upstreamFor = fromTrusted ? first(incoming['x-forwarded-for'])?.split(',').at(-1)?.trim() : undefined;
  const upstreamProto = fromTrusted ? first(incoming['x-forwarded-proto'])?.split(',')[0]?.trim() : undefined;
  headers.host = targetHost;
  headers['x-forwarded-for'] = plainAddress(upstreamFor) || peerAddress || 'unknown';
  headers['x-forwarded-host'] = (fromTrusted && first(incoming['x-forwarded-host'])) || first(incoming.host) || '';
  headers['x-forwarded-proto'] =
    upstreamProto === 'https' || upstreamProto === 'http' ? upstreamProto : peer.encrypted ? 'https' : 'http';
  return headers;
}

/** Response headers passed back to the browser (hop-by-hop ones dropped). */
export function answerHeaders(incoming: IncomingHttpHeaders): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(incoming)) {
    if (value !== undefined && !HOP_BY_HOP.has(name.toLowerCase())) headers[name] = value;
  }
  return headers;
}
