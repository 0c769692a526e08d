import http from 'node:http';
import https from 'node:https';
import type { TLSSocket } from 'node:tls';
import type { NextApiRequest, NextApiResponse } from 'next';
import { REQUEST_TIMEOUT_MS } from '@/api/constants';
import { answerHeaders, forwardHeaders, trustedProxies } from '@/server/forwarding';
import { apiOrigin } from '@/server/site';

/** Bodies and answers stream through untouched (uploads, exports, captcha images). */
export const config = { api: { bodyParser: false, responseLimit: false, externalResolver: true } };

const TRUSTED = trustedProxies();

/**
 * /api/* of every tenant host, forwarded to the api (one origin per host, DESIGN section 1). Unlike
 * a Next rewrite, this sets X-Forwarded-For from the connection, so the api's per-address rate
 * limits see each client (and not one shared address, nor one a browser made up).
 */
export default function forward(req: NextApiRequest, res: NextApiResponse) {
  const target = new URL(req.url ?? '/api', apiOrigin());
  const transport = target.protocol === 'https:' ? https : http;
  const upstream = transport.request(
    target,
    {
      method: req.method,
      headers: forwardHeaders(
        req.headers,
        { address: req.socket.remoteAddress, encrypted: Boolean((req.socket as TLSSocket).encrypted) },
        TRUSTED,
        target.host,
      ),
      timeout: REQUEST_TIMEOUT_MS + 5_000,
    },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answerHeaders(answer.headers));
      answer.pipe(res);
    },
  );
  upstream.on('timeout', () => upstream.destroy(new Error('api time-out')));
  upstream.on('error', () => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.status(502).json({ code: 502, msg: 'Bad Gateway', data: null });
  });
  res.on('close', () => {
    if (!res.writableFinished) upstream.destroy();
  });
  req.pipe(upstream);
}
