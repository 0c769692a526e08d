"""Security headers on every api answer (and the request-size cap behind 413), and no cookie session.

The api answers JSON and files, never pages a browser should run: its CSP forbids everything
(`default-src 'none'`), no site may frame it, browsers must not guess content types and no
referrer leaves. The documentation UI (`/api/docs`) is the one HTML page: it may load the
Swagger UI bundle from its configured origin and its own openapi.json.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Flask, Response, current_app, request
from flask.sessions import SessionInterface

API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
# Headers every answer carries; a view may set a stricter CSP of its own (branding files, uploads).
COMMON_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=()",
}


def docs_csp(swagger_url: str) -> str:
    """The Swagger UI page: its bundle from its own origin, its inline bootstrap script and styles."""
    parts = urlsplit(swagger_url or "")
    # Another origin only when the bundle is configured elsewhere; by default the api serves it.
    bundle = f" {parts.scheme}://{parts.netloc}" if parts.scheme and parts.netloc else ""
    return (
        f"default-src 'none'; script-src 'self' 'unsafe-inline'{bundle}; style-src 'self' 'unsafe-inline'{bundle}; "
        f"img-src 'self' data:{bundle}; connect-src 'self'; font-src 'self' data:{bundle}; "
        "frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
    )


def add_security_headers(response: Response) -> Response:
    # The names present, read once: werkzeug's setdefault raises and catches an HTTP exception for
    # every header it then adds (a fifth of this hook's cost on each answer). A header the view set stays.
    present = {name.lower() for name, _value in response.headers}
    for name, value in security_headers(request.path):
        if name.lower() not in present:
            response.headers.add(name, value)
    return response


def security_headers(path: str) -> list[tuple[str, str]]:
    """The security headers of an answer to `path` (also for answers built below Flask's request,
    api/telemetry/fast_upload.py)."""
    docs_prefix = current_app.config.get("OPENAPI_URL_PREFIX", "/api").rstrip("/") + current_app.config.get(
        "OPENAPI_SWAGGER_UI_PATH", "/docs"
    )
    if path == docs_prefix or path.startswith(docs_prefix + "/"):
        policy = docs_csp(current_app.config.get("OPENAPI_SWAGGER_UI_URL"))
    else:
        policy = API_CSP
    return [*COMMON_HEADERS.items(), ("Content-Security-Policy", policy)]


class NoCookieSession(SessionInterface):
    """The api keeps no cookie session: an account's session is a bearer token checked in PostgreSQL
    and a social sign-in's state is a database row. Flask opened a signed-cookie session (a signer
    built per request: 3% of a one-record upload's CPU) that nothing read; `flask.session` is now
    Flask's null session, which refuses any write, so nothing comes to rely on a cookie by accident."""

    def open_session(self, app: Flask, request) -> None:
        return None  # Flask then uses make_null_session

    def save_session(self, app: Flask, session, response: Response) -> None:
        return None


def init_app(app: Flask) -> None:
    app.after_request(add_security_headers)
    app.session_interface = NoCookieSession()
