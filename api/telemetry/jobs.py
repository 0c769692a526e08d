from __future__ import annotations

from api.extensions.db import db, utcnow
from api.jobs import DEFAULT, job
from api.telemetry.partitions import ensure_partitions


@job(DEFAULT, timeout=120)
def ensure_upcoming_partitions() -> list[str]:
    """Partition upkeep: create next months' reading partitions ahead of time (idempotent)."""
    with db.engine.begin() as connection:
        return ensure_partitions(connection, utcnow(), months_back=0)
