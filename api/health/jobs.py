from __future__ import annotations

import time

from api.jobs import DEFAULT, job, redis_connection

HEARTBEAT_KEY = "coldchain:cron:heartbeat"


@job(DEFAULT, timeout=30)
def record_heartbeat() -> float:
    """Proves the cron scheduler and a worker are alive; /api/health reports its age."""
    now = time.time()
    connection = redis_connection()
    if connection is not None:
        connection.set(HEARTBEAT_KEY, now, ex=3600)
    return now


def heartbeat_age() -> float | None:
    connection = redis_connection()
    if connection is None:
        return None
    value = connection.get(HEARTBEAT_KEY)
    return round(time.time() - float(value), 1) if value else None
