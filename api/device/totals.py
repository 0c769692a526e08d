"""Totals of the device list, kept for a few seconds.

The total of a filtered list costs PostgreSQL a pass over every device of the account (about 8 ms
for 10,000 devices on this 2-core machine) where the page itself costs well under one, and a fleet
dashboard watched by many people asks for the same total again and again. So a total is kept in
Redis for TOTAL_SECONDS, keyed by who asks (account, site, the devices reached through
organizations and shares) and by the filters, and stamped with the registry generation:
- any committed write to a device row (add, edit, enable, disable, scrap, delete, transfer ...)
  starts a new generation, so those show in the next total at once;
- changes of the latest state (a device going offline, an alarm) show within TOTAL_SECONDS, as
  they would on the next refresh of the list; the rows of the page are always read fresh.
Without Redis every page counts.
"""

from __future__ import annotations

import hashlib
import logging

from redis.exceptions import RedisError

from api.device.models import Device
from api.extensions.db import bulk_write_table, flushed_models
from api.jobs import redis_connection

TOTAL_SECONDS = 5
GENERATION_KEY = "device-list:generation"
log = logging.getLogger(__name__)


def total_key(*parts) -> str:
    return "device-list:total:" + hashlib.sha256(repr(parts).encode()).hexdigest()[:32]


def known_total(key: str) -> tuple[int | None, bytes | None]:
    """(the kept total if still of the current generation, that generation) in one round trip."""
    connection = _redis()
    if connection is None:
        return None, None
    try:
        generation, kept = connection.mget(GENERATION_KEY, key)
    except RedisError as exc:
        log.warning("device list totals unavailable: %s", exc)
        return None, None
    generation = generation or b"0"
    if kept is not None:
        kept_generation, _, total = kept.partition(b":")
        if kept_generation == generation:
            return int(total), generation
    return None, generation


def keep_total(key: str, generation: bytes | None, total: int) -> None:
    """Keep `total`, stamped with the generation read before counting: a write committed meanwhile
    has moved the generation on, so this total is never served after it."""
    connection = _redis()
    if connection is None or generation is None:
        return
    try:
        connection.set(key, generation + b":" + str(total).encode(), ex=TOTAL_SECONDS)
    except RedisError as exc:
        log.warning("device list totals unavailable: %s", exc)


def _redis():

    return redis_connection()


# ---- the registry generation: moved on by every committed write to a device row ----------------------


def note_device_rows(session, _context) -> None:
    if Device in flushed_models(session):
        session.info["device_rows_written"] = True


def note_device_statements(orm_execute_state) -> None:
    if bulk_write_table(orm_execute_state) == Device.__tablename__:
        orm_execute_state.session.info["device_rows_written"] = True


def next_registry_generation(session) -> None:
    if not session.info.pop("device_rows_written", False):
        return
    from flask import has_app_context

    connection = _redis() if has_app_context() else None
    if connection is None:
        return
    try:
        connection.incr(GENERATION_KEY)
    except RedisError as exc:  # totals then lag by at most TOTAL_SECONDS
        log.warning("device list generation not moved on: %s", exc)
