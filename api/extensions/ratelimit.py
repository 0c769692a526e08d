"""Rate limits (flask-limiter) on Redis, keyed by the client address werkzeug saw.

The address is the peer's unless the request came through a trusted proxy (api.extensions.proxy),
so a forged X-Forwarded-For cannot reset a limit.
"""

from __future__ import annotations

from flask import request
from flask_limiter import Limiter

from api.extensions.redis import redis_connection


def client_address() -> str:
    return request.remote_addr or "unknown"


limiter = Limiter(key_func=client_address, default_limits=[])


def init_app(app) -> None:
    if not app.config.get("RATELIMIT_STORAGE_URI"):
        # Limits must be shared by every api process: Redis when reachable, memory only for the
        # embedded single-process default.
        app.config["RATELIMIT_STORAGE_URI"] = app.config["REDIS_URL"] if redis_connection(app) else "memory://"
    limiter.init_app(app)
