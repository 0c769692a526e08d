from __future__ import annotations

import flask

from api.extensions.db import db, utcnow
from api.jobs import DEFAULT, job
from api.telemetry.compaction import compact
from api.telemetry.partitions import ensure_partitions


@job(DEFAULT, timeout=120)
def ensure_upcoming_partitions() -> list[str]:
    """Partition upkeep: create next months' reading partitions ahead of time (idempotent)."""
    with db.engine.begin() as connection:
        return ensure_partitions(connection, utcnow(), months_back=0)


@job(DEFAULT, timeout=3 * 3600)
def compact_readings() -> dict:
    """Pack the readings older than READING_PACK_AFTER_DAYS (idempotent, safe during ingestion).
    (`flask.current_app`, not an imported proxy: job modules are scanned outside an app context.)"""
    return compact(db.engine, utcnow(), flask.current_app.config["READING_PACK_AFTER_DAYS"]).as_dict()
