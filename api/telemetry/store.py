"""Writing readings: the one hot path of the platform.

PostgreSQL: one statement inserts the rows into `reading` (ON CONFLICT DO NOTHING drops re-sent
readings) and folds exactly the inserted rows into the hourly rollup; small batches (a fleet's
one-record messages) pass the rows as arrays in that statement, large ones are COPied into a session
temp table first. SQLite (embedded default): the same semantics with portable statements.

A reading older than the store's horizon may belong to a day already moved into `reading_packed`:
the insert skips it when that day holds it (a duplicate: not stored, not folded into the rollup
again). Live readings skip that check, and only batches holding old readings take the compaction's
advisory lock (one statement more), so the live path stays one round trip.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from functools import cache
from typing import NamedTuple

from flask import current_app
from sqlalchemy import TextClause, func, text
from sqlalchemy.dialects import sqlite
from sqlalchemy.orm import Session

from api.extensions.db import utcnow
from api.telemetry.models import Reading, ReadingHourly
from api.telemetry.readings import PACK_LOCK, PACKED_HAS, store_horizon

STAGE = "reading_stage"
# Up to this many rows go in the statement itself, as one JSON parameter (one round trip; psycopg
# dumps one string for about half the CPU of four arrays, PostgreSQL parses it for a little more);
# larger batches are COPied into the stage table first (as fast at 2,000 rows, three round trips more).
INLINE_ROWS = 400
INLINE = (
    "json_to_recordset(CAST(:readings AS json)) AS r (device_id integer, sensor smallint, ts timestamptz,"
    " value double precision)"
)
STAGED = f"{STAGE} AS r"
_POSTGRES_STORE = """
WITH inserted AS (
    INSERT INTO reading (device_id, sensor, ts, value, received_at)
    SELECT r.device_id, r.sensor, r.ts, r.value, now() FROM {source}
    WHERE CASE WHEN r.ts >= CAST(:horizon AS timestamptz) THEN true ELSE NOT EXISTS ({packed_has}) END
    ON CONFLICT DO NOTHING
    RETURNING device_id, sensor, ts, value
), rolled AS (
    INSERT INTO reading_hourly (device_id, sensor, bucket, min_value, max_value, sum_value, count, first_ts, last_ts)
    SELECT device_id, sensor, date_trunc('hour', ts AT TIME ZONE 'UTC') AT TIME ZONE 'UTC',
           min(value), max(value), sum(value), count(*), min(ts), max(ts)
    FROM inserted GROUP BY 1, 2, 3
    ON CONFLICT (device_id, sensor, bucket) DO UPDATE SET
        min_value = least(reading_hourly.min_value, excluded.min_value),
        max_value = greatest(reading_hourly.max_value, excluded.max_value),
        sum_value = reading_hourly.sum_value + excluded.sum_value,
        count = reading_hourly.count + excluded.count,
        first_ts = least(reading_hourly.first_ts, excluded.first_ts),
        last_ts = greatest(reading_hourly.last_ts, excluded.last_ts)
)
"""  # nosec B608 - constants (STAGED, INLINE, PACKED_HAS) fill it, no input reaches this text
COUNT = "SELECT count(*) FROM inserted"
BY_DEVICE = "SELECT device_id, count(*) FROM inserted GROUP BY device_id"
READING_PARAMETERS = frozenset({"readings", "horizon"})
SHARE_PACK_LOCK = text(f"SELECT pg_advisory_xact_lock_shared({PACK_LOCK})")


class Companion(NamedTuple):
    """Another write of the same batch (PostgreSQL), run as a data-modifying CTE named `name` of the
    readings' statement: the batch's writes are one round trip. Its parameter names must differ from
    the readings' (READING_PARAMETERS)."""

    name: str
    sql: str
    params: dict


@cache
def _statement(source: str, tail: str, companions: tuple[tuple[str, str], ...] = ()) -> TextClause:
    """The store statement reading `source`, with the companions' CTEs, ending in `tail`. A few
    distinct texts in all, each built once (psycopg prepares each after a few runs)."""
    extra = "".join(f", {name} AS ({sql})\n" for name, sql in companions)
    return text(_POSTGRES_STORE.format(source=source, packed_has=PACKED_HAS) + extra + tail)


def store_readings(session: Session, rows: list[tuple[int, int, datetime, float]]) -> int:
    """Store (device_id, sensor, ts, value) rows; returns how many were new."""
    if not rows:
        return 0
    connection = session.connection()
    if connection.dialect.name == "postgresql":
        return _store_postgres(connection, rows)
    return _store_portable(session, rows)


def store_readings_by_device(
    session: Session, rows: list[tuple[int, int, datetime, float]], companions: Sequence[Companion] = ()
) -> dict[int, int]:
    """Store rows of several devices at once, with the batch's `companions` (PostgreSQL only);
    returns how many were new, per device."""
    connection = session.connection()
    if companions and connection.dialect.name != "postgresql":
        raise ValueError("companion writes are PostgreSQL statements")
    if not rows:
        for companion in companions:  # nothing to store: each write on its own
            connection.execute(_statement_alone(companion.sql), companion.params)
        return {}
    if connection.dialect.name == "postgresql":
        params = {key: value for companion in companions for key, value in companion.params.items()}
        if params.keys() & READING_PARAMETERS:
            raise ValueError(f"companion parameters clash with the readings': {params.keys() & READING_PARAMETERS}")
        ctes = tuple((companion.name, companion.sql) for companion in companions)
        horizon = _horizon(connection, rows)
        if len(rows) <= INLINE_ROWS:
            return dict(connection.execute(_statement(INLINE, BY_DEVICE, ctes), _inline(rows, horizon) | params).all())
        _stage_postgres(connection, rows)
        return dict(connection.execute(_statement(STAGED, BY_DEVICE, ctes), {"horizon": horizon} | params).all())
    per_device: dict[int, list] = {}
    for row in rows:
        per_device.setdefault(row[0], []).append(row)
    return {device_id: _store_portable(session, mine) for device_id, mine in per_device.items()}


def _store_postgres(connection, rows) -> int:
    horizon = _horizon(connection, rows)
    if len(rows) <= INLINE_ROWS:
        return connection.execute(_statement(INLINE, COUNT), _inline(rows, horizon)).scalar_one()
    _stage_postgres(connection, rows)
    return connection.execute(_statement(STAGED, COUNT), {"horizon": horizon}).scalar_one()


@cache
def _statement_alone(sql: str) -> TextClause:
    return text(sql)


def _horizon(connection, rows) -> datetime:
    """The store's horizon; a batch with readings before it first takes the shared pack lock, so a
    compaction running now finishes first and the insert's snapshot sees the days it packed."""
    horizon = store_horizon(utcnow(), current_app.config["READING_PACK_AFTER_DAYS"])
    if min(row[2] for row in rows) < horizon:
        connection.execute(SHARE_PACK_LOCK)
    return horizon


def _inline(rows, horizon: datetime) -> dict:
    stamps = iso_stamps(row[2] for row in rows)
    readings = [
        {"device_id": device_id, "sensor": sensor, "ts": stamps[ts], "value": value}
        for device_id, sensor, ts, value in rows
    ]
    return {"readings": as_json(readings), "horizon": horizon}


def iso_stamps(stamps) -> dict[datetime, str]:
    """Each distinct time in ISO 8601, formatted once (a record's readings share its time)."""
    return {ts: ts.isoformat() for ts in set(stamps)}


def as_json(rows: list[dict]) -> str:
    """Rows as a JSON parameter for json_to_recordset; a non-finite number is a bug upstream (the
    record checks refuse them), never a silent NULL."""
    return json.dumps(rows, allow_nan=False, separators=(",", ":"))


def _stage_postgres(connection, rows) -> None:
    connection.execute(
        text(
            f"CREATE TEMP TABLE IF NOT EXISTS {STAGE} "
            "(device_id integer, sensor smallint, ts timestamptz, value double precision) ON COMMIT DELETE ROWS"
        )
    )
    connection.execute(text(f"TRUNCATE {STAGE}"))
    # One text block instead of a write per row; each record's timestamp is formatted once.
    stamps: dict[datetime, str] = {}
    lines = []
    for device_id, sensor, ts, value in rows:
        stamp = stamps.get(ts)
        if stamp is None:
            stamp = stamps[ts] = ts.isoformat()
        lines.append(f"{device_id}\t{sensor}\t{stamp}\t{value!r}\n")
    cursor = connection.connection.driver_connection.cursor()
    with cursor.copy(f"COPY {STAGE} (device_id, sensor, ts, value) FROM STDIN") as copy:
        copy.write("".join(lines))


def _store_portable(session: Session, rows) -> int:
    table = Reading.__table__
    received = utcnow()
    inserted = (
        session.connection()
        .execute(
            sqlite.insert(table).on_conflict_do_nothing().returning(table.c.sensor, table.c.ts, table.c.value),
            [{"device_id": d, "sensor": s, "ts": t, "value": v, "received_at": received} for d, s, t, v in rows],
        )
        .all()
    )
    device_id = rows[0][0]
    buckets: dict[tuple[int, datetime], dict] = {}
    for sensor, ts, value in inserted:
        key = (sensor, ts.replace(minute=0, second=0, microsecond=0))
        bucket = buckets.setdefault(
            key,
            {
                "device_id": device_id,
                "sensor": sensor,
                "bucket": key[1],
                "min_value": value,
                "max_value": value,
                "sum_value": 0.0,
                "count": 0,
                "first_ts": ts,
                "last_ts": ts,
            },
        )
        bucket["min_value"] = min(bucket["min_value"], value)
        bucket["max_value"] = max(bucket["max_value"], value)
        bucket["sum_value"] += value
        bucket["count"] += 1
        bucket["first_ts"] = min(bucket["first_ts"], ts)
        bucket["last_ts"] = max(bucket["last_ts"], ts)
    if buckets:
        hourly = ReadingHourly.__table__
        stmt = sqlite.insert(hourly)
        stmt = stmt.on_conflict_do_update(
            index_elements=["device_id", "sensor", "bucket"],
            set_={
                "min_value": func.min(hourly.c.min_value, stmt.excluded.min_value),
                "max_value": func.max(hourly.c.max_value, stmt.excluded.max_value),
                "sum_value": hourly.c.sum_value + stmt.excluded.sum_value,
                "count": hourly.c.count + stmt.excluded.count,
                "first_ts": func.min(hourly.c.first_ts, stmt.excluded.first_ts),
                "last_ts": func.max(hourly.c.last_ts, stmt.excluded.last_ts),
            },
        )
        session.connection().execute(stmt, list(buckets.values()))
    return len(inserted)
