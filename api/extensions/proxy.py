"""X-Forwarded-* headers are believed only from configured proxies (TRUSTED_PROXIES).

The web server proxies /api to the api and says which host the browser asked for in
X-Forwarded-Host; anyone else sending that header is ignored, so a client cannot pick a tenant
or an IP address for rate limits by forging it.
"""

from __future__ import annotations

from werkzeug.middleware.proxy_fix import ProxyFix

FORWARDED_HEADERS = ("HTTP_X_FORWARDED_FOR", "HTTP_X_FORWARDED_HOST", "HTTP_X_FORWARDED_PROTO", "HTTP_X_FORWARDED_PORT")


class TrustedProxyMiddleware:
    def __init__(self, wsgi_app, trusted: list[str]):
        self.wsgi_app = wsgi_app
        self.trusted = frozenset(trusted)
        self.proxied = ProxyFix(wsgi_app, x_for=1, x_host=1, x_proto=1, x_port=1)

    def __call__(self, environ, start_response):
        if environ.get("REMOTE_ADDR") in self.trusted:
            return self.proxied(environ, start_response)
        for header in FORWARDED_HEADERS:
            environ.pop(header, None)
        return self.wsgi_app(environ, start_response)
