"""The app's one Redis connection (jobs, rate limits, snapshots, list totals), or None while Redis
is unreachable: the embedded default of `make run` works without it."""

from __future__ import annotations

import logging
import time

from flask import Flask, current_app
from redis import Redis
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

# How long an unreachable Redis is believed down before the next connection attempt.
REDIS_RECHECK_SECONDS = 30


def redis_connection(app: Flask | None = None) -> Redis | None:
    """The app's Redis connection, or None while Redis is unreachable."""
    app = app or current_app._get_current_object()  # type: ignore[attr-defined]
    state = app.extensions.setdefault("jobs", {"redis": None, "down_until": 0.0})
    if state["redis"] is not None:
        return state["redis"]
    if time.monotonic() < state["down_until"]:
        return None
    connection = Redis.from_url(app.config["REDIS_URL"], socket_connect_timeout=1, socket_timeout=5)
    try:
        connection.ping()
    except (RedisError, OSError) as exc:
        state["down_until"] = time.monotonic() + REDIS_RECHECK_SECONDS
        log.warning("Redis unreachable at %s (%s)", app.config["REDIS_URL"], exc)
        return None
    state["redis"] = connection
    return connection
