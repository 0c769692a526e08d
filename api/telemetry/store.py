"""Writing readings: the one hot path of the platform.

PostgreSQL, small batches (a fleet's one-record messages): one statement inserts the rows, passed as
one JSON parameter, into `reading` and folds exactly the inserted rows into the hourly rollup; it
checks each row for a stored copy (ON CONFLICT DO NOTHING drops re-sent readings).

Larger batches of live readings are first written without that per-row check (a third of the
statement), under a savepoint; only when one of their readings is stored already (a re-sent batch:
the unique key stops the write, the savepoint is rolled back) do they go again with the check:
- one device's batch (an HTTP batch upload) is COPied (binary) straight into `reading`, as the
  COPY floor writes, while the caller checks its records (`stream_device_rows`: the server writes
  the first readings as the rest are checked); its readings span a few hours, so its rollup is a
  few rows computed here and folded in by one statement;
- a batch of many devices (a subscriber's: one record each, as many hours as devices) is COPied
  into a session temp table and inserted from there, PostgreSQL folding the rollup as it inserts
  (computing thousands of hours here cost the subscriber more than the stage saves).
SQLite (embedded default): the same semantics with portable statements.

A reading older than the store's horizon may belong to a day already moved into `reading_packed`:
the insert skips it when that day holds it (a duplicate: not stored, not folded into the rollup
again). Live readings skip that check, and only batches holding old readings take the compaction's
advisory lock (one statement more), and always the checked insert.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime, timedelta
from functools import cache
from typing import NamedTuple, TypeVar

from flask import current_app
from psycopg.errors import UniqueViolation
from sqlalchemy import TextClause, func, text
from sqlalchemy.dialects import sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from api.extensions.db import driver_errors, utcnow
from api.extensions.pipeline import Query, fetch_together
from api.telemetry.binary_copy import write_readings
from api.telemetry.models import Reading, ReadingHourly
from api.telemetry.readings import PACK_LOCK, PACKED_HAS, store_horizon

STAGE = "reading_stage"
T = TypeVar("T")
# Up to this many rows go in the statement itself, as one JSON parameter (one round trip; psycopg
# dumps one string for about half the CPU of four arrays, PostgreSQL parses it for a little more);
# larger batches are COPied (binary: psycopg's C dumpers, nothing for the server to parse).
INLINE_ROWS = 400
INLINE = (
    "json_to_recordset(CAST(:readings AS json)) AS r (device_id integer, sensor smallint, ts timestamptz,"
    " value double precision)"
)
STAGED = f"{STAGE} AS r"
_HOUR = timedelta(hours=1)
HOURLY_COLUMNS = tuple(column.name for column in ReadingHourly.__table__.columns)
# New readings' hourly buckets (`{buckets}`: a SELECT of the rollup's columns) folded into the rollup.
_FOLD_HOURS = """
    INSERT INTO reading_hourly (device_id, sensor, bucket, min_value, max_value, sum_value, count, first_ts, last_ts)
    {buckets}
    ON CONFLICT (device_id, sensor, bucket) DO UPDATE SET
        min_value = least(reading_hourly.min_value, excluded.min_value),
        max_value = greatest(reading_hourly.max_value, excluded.max_value),
        sum_value = reading_hourly.sum_value + excluded.sum_value,
        count = reading_hourly.count + excluded.count,
        first_ts = least(reading_hourly.first_ts, excluded.first_ts),
        last_ts = greatest(reading_hourly.last_ts, excluded.last_ts)
"""
# The inserted rows folded into the hourly rollup (a CTE of the store statement).
_ROLL_UP_INSERTED = _FOLD_HOURS.format(
    buckets="""SELECT device_id, sensor, date_trunc('hour', ts AT TIME ZONE 'UTC') AT TIME ZONE 'UTC',
           min(value), max(value), sum(value), count(*), min(ts), max(ts)
    FROM inserted GROUP BY 1, 2, 3"""
)
# A COPied batch's hours (`hourly`, computed here), one JSON parameter, folded into the rollup.
_ROLL_UP_COPIED = _FOLD_HOURS.format(
    buckets="""SELECT * FROM json_to_recordset(CAST(:hours AS json)) AS h (device_id integer, sensor smallint,
        bucket timestamptz, min_value double precision, max_value double precision, sum_value double precision,
        count bigint, first_ts timestamptz, last_ts timestamptz)"""
)
COPY_STAGE = f"COPY {STAGE} (device_id, sensor, ts, value) FROM STDIN (FORMAT BINARY)"
COPY_READINGS = "COPY reading (device_id, sensor, ts, value, received_at) FROM STDIN (FORMAT BINARY)"
_POSTGRES_STORE = """
WITH inserted AS (
    INSERT INTO reading (device_id, sensor, ts, value, received_at)
    SELECT r.device_id, r.sensor, r.ts, r.value, now() FROM {source}
    WHERE CASE WHEN r.ts >= CAST(:horizon AS timestamptz) THEN true ELSE NOT EXISTS ({packed_has}) END
    {skip_stored}
    RETURNING device_id, sensor, ts, value
), rolled AS ({rolled})
"""  # nosec B608 - constants (STAGED, INLINE, PACKED_HAS, _ROLL_UP_INSERTED) fill it, no input reaches this text
BY_DEVICE = "SELECT device_id, count(*) FROM inserted GROUP BY device_id"
SKIP_STORED = "ON CONFLICT DO NOTHING"
READING_PARAMETERS = frozenset({"readings", "horizon", "hours"})
SHARE_PACK_LOCK = text(f"SELECT pg_advisory_xact_lock_shared({PACK_LOCK})")


class Companion(NamedTuple):
    """Another write of the same batch (PostgreSQL), run as a data-modifying CTE named `name` of the
    statement that stores the readings (or folds the COPied ones into the rollup): the batch's writes
    are one round trip. Its parameter names must differ from the readings' (READING_PARAMETERS)."""

    name: str
    sql: str
    params: dict


@cache
def _statement(
    source: str, tail: str, companions: tuple[tuple[str, str], ...] = (), checked: bool = True
) -> TextClause:
    """The store statement reading `source`, with the companions' CTEs, ending in `tail`; `checked`:
    a reading stored already is skipped (else it fails the statement). A few distinct texts in all,
    each built once (psycopg prepares each after a few runs)."""
    store = _POSTGRES_STORE.format(
        source=source, packed_has=PACKED_HAS, rolled=_ROLL_UP_INSERTED, skip_stored=SKIP_STORED if checked else ""
    )
    return text(store + "".join(f", {name} AS ({sql})\n" for name, sql in companions) + tail)


@cache
def _after_ctes(sql: str, companions: tuple[tuple[str, str], ...] = ()) -> TextClause:
    """`sql` run with the companions' CTEs before it (or alone)."""
    ctes = ", ".join(f"{name} AS ({cte})" for name, cte in companions)
    return text(f"WITH {ctes}\n{sql}" if ctes else sql)


def _companion_parts(companions: Sequence[Companion]) -> tuple[tuple[tuple[str, str], ...], dict]:
    """The companions' CTEs (name, sql) and their parameters, which must not clash with the readings'."""
    params = {key: value for companion in companions for key, value in companion.params.items()}
    if params.keys() & READING_PARAMETERS:
        raise ValueError(f"companion parameters clash with the readings': {params.keys() & READING_PARAMETERS}")
    return tuple((companion.name, companion.sql) for companion in companions), params


def store_readings(session: Session, rows: list[tuple[int, int, datetime, float]]) -> int:
    """Store (device_id, sensor, ts, value) rows; returns how many were new."""
    return sum(store_readings_by_device(session, rows).values())


def store_readings_by_device(
    session: Session,
    rows: list[tuple[int, int, datetime, float]],
    companions: Sequence[Companion] = (),
    *,
    maybe_stored: bool = False,
) -> dict[int, int]:
    """Store rows of several devices at once, with the batch's `companions` (PostgreSQL only);
    returns how many were new, per device. `maybe_stored`: some of the rows are known to be stored
    already (an attempt without the check just failed), so the check is made at once."""
    connection = session.connection()
    if companions and connection.dialect.name != "postgresql":
        raise ValueError("companion writes are PostgreSQL statements")
    if not rows:
        for companion in companions:  # nothing to store: each write on its own
            connection.execute(_after_ctes(companion.sql), companion.params)
        return {}
    if connection.dialect.name != "postgresql":
        per_device: dict[int, list] = {}
        for row in rows:
            per_device.setdefault(row[0], []).append(row)
        return {device_id: _store_portable(session, mine) for device_id, mine in per_device.items()}
    ctes, params = _companion_parts(companions)
    horizon = _horizon()
    live = min(row[2] for row in rows) >= horizon
    if not live:
        # A compaction running now finishes first, so the insert's snapshot sees the days it packed.
        connection.execute(SHARE_PACK_LOCK)
    if len(rows) <= INLINE_ROWS:
        return dict(connection.execute(_statement(INLINE, BY_DEVICE, ctes), _inline(rows, horizon) | params).all())
    staged = {"horizon": horizon} | params
    one_device = all(row[0] == rows[0][0] for row in rows)
    unchecked = live and not maybe_stored
    if not (unchecked and one_device):
        _stage_postgres(connection, rows)
    if unchecked:
        if one_device:
            copied = _under_savepoint(connection, lambda: _copy_readings(connection, rows, horizon, lambda: companions))
            accepted = None if copied is None else {rows[0][0]: copied[0]}
        else:
            accepted = _under_savepoint(
                connection,
                lambda: dict(connection.execute(_statement(STAGED, BY_DEVICE, ctes, checked=False), staged).all()),
            )
        if accepted is not None:
            return accepted
        if one_device:
            _stage_postgres(connection, rows)
    return dict(connection.execute(_statement(STAGED, BY_DEVICE, ctes), staged).all())


def stream_device_rows(
    session: Session,
    rows: Iterable[tuple[int, int, datetime, float]],
    companions: Callable[[], Sequence[Companion]],
    lookups: Sequence[Query] = (),
) -> tuple[int, list[list]] | None:
    """PostgreSQL: one device's rows COPied as `rows` yields them (the caller checks each record
    while the server writes the ones before), their hours folded into the rollup with the writes
    `companions()` gives once every row is written, all under the savepoint the caller set (it sent
    SET_SAVEPOINT with its state lock) and without the check for stored copies;
    `lookups` are sent in the rollup's round trip. Returns how many readings were stored and the
    lookups' rows, or None when no reading was: a row older than the store's horizon, or one stored
    already (the savepoint is rolled back; `rows` may be partly consumed). The caller then stores
    them all with `store_readings_by_device`."""
    connection = session.connection()
    horizon = _horizon()
    return _under_savepoint(
        connection, lambda: _copy_readings(connection, rows, horizon, companions, lookups), savepoint_set=True
    )


def _horizon() -> datetime:
    """Readings from this instant on are live: never in a packed day (api/telemetry/readings.py)."""
    return store_horizon(utcnow(), current_app.config["READING_PACK_AFTER_DAYS"])


class _BeforeHorizonError(Exception):
    """A COPied row is older than the store's horizon: it needs the checked insert."""


# Left to the commit to release: RELEASE is a round trip of its own. Rolling back to it keeps it, and a
# transaction may set it more than once (PostgreSQL then rolls back to the latest).
_SAVEPOINT = "unchecked_readings"
# The savepoint, sent by stream_device_rows' caller in its last round trip before the write.
SET_SAVEPOINT = (text(f"SAVEPOINT {_SAVEPOINT}"), {})


def _under_savepoint(connection, write: Callable[[], T], savepoint_set: bool = False) -> T | None:
    """`write()` of live rows without the check for stored copies, under a savepoint: its result,
    or None when a row needs the checked insert after all (one stored already: a re-sent batch;
    or older than the horizon); the savepoint is then rolled back. Set by hand, not with
    SQLAlchemy's `begin_nested`, which releases it when the block ends."""
    if not savepoint_set:
        connection.execute(*SET_SAVEPOINT)
    try:
        return write()
    except (_BeforeHorizonError, IntegrityError) as exc:
        connection.exec_driver_sql(f"ROLLBACK TO SAVEPOINT {_SAVEPOINT}")
        if isinstance(exc, IntegrityError) and not isinstance(exc.orig, UniqueViolation):
            raise
        return None


def hourly(rows) -> list[dict]:
    """The hourly rollup rows of (device_id, sensor, ts, value) rows, for SQLite and for one device's
    COPied batch (PostgreSQL folds the others' as it inserts them). A record's readings come one
    after another with one time object, and a batch's records mostly in order: a row's hour is
    found by comparing it with the last one's bounds (truncating a time costs some twenty times
    more). Each bucket's values are gathered, then reduced by the builtins."""
    buckets: dict[tuple[int, int, datetime], tuple[list, list]] = {}
    last_ts = hour = after = None
    for device_id, sensor, ts, value in rows:
        if ts is not last_ts:
            last_ts = ts
            if hour is None or not hour <= ts < after:
                utc = ts if ts.tzinfo is UTC or ts.tzinfo is None else ts.astimezone(UTC)
                hour = utc.replace(minute=0, second=0, microsecond=0)
                after = hour + _HOUR
        bucket = buckets.get((device_id, sensor, hour))
        if bucket is None:
            bucket = buckets[(device_id, sensor, hour)] = ([], [])
        bucket[0].append(value)
        bucket[1].append(ts)
    return [
        dict(
            zip(
                HOURLY_COLUMNS,
                (*key, min(values), max(values), sum(values), len(values), min(stamps), max(stamps)),
                strict=True,
            )
        )
        for key, (values, stamps) in buckets.items()
    ]


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


_HOUR_STAMPS = ("bucket", "first_ts", "last_ts")


def _hours_json(rows) -> str:
    """The rows' hourly rollup as one JSON parameter for _ROLL_UP_COPIED."""
    hours = hourly(rows)
    stamps = iso_stamps(hour[key] for hour in hours for key in _HOUR_STAMPS)
    for hour in hours:
        for key in _HOUR_STAMPS:
            hour[key] = stamps[hour[key]]
    return as_json(hours)


def _copy_readings(
    connection,
    rows: Iterable,
    horizon: datetime,
    companions: Callable[[], Sequence[Companion]],
    lookups: Sequence[Query] = (),
) -> tuple[int, list[list]]:
    """One device's rows straight into `reading`, received now (this process's clock, as the record
    checks use), and their hours folded into the rollup with the companions' writes, the lookups
    sent with them; raises _BeforeHorizonError at a row older than `horizon`. Returns how many rows
    were written and the lookups' rows.

    The hours and the companions are made before the COPY ends: the rows go out in blocks of about
    8 KB as they are written (api/telemetry/binary_copy.py), and the server writes them while this
    process works (on two cores, about a third of the wait for the COPY's end)."""
    written = []

    def live_rows():
        for row in rows:
            if row[2] < horizon:
                raise _BeforeHorizonError
            written.append(row)
            yield row

    cursor = connection.connection.driver_connection.cursor()
    with driver_errors(connection, COPY_READINGS), cursor.copy(COPY_READINGS) as copy:
        write_readings(copy.write, live_rows(), utcnow())
        hours = _hours_json(written)
        extra = companions()
    ctes, params = _companion_parts(extra)
    rollup = (_after_ctes(_ROLL_UP_COPIED, ctes), {"hours": hours} | params)
    _rolled, *found = fetch_together(connection, [rollup, *lookups])
    return len(written), found


def _stage_postgres(connection, rows) -> None:
    connection.execute(
        text(
            f"CREATE TEMP TABLE IF NOT EXISTS {STAGE} "
            "(device_id integer, sensor smallint, ts timestamptz, value double precision) ON COMMIT DELETE ROWS"
        )
    )
    connection.execute(text(f"TRUNCATE {STAGE}"))
    # Binary: psycopg's C dumpers write each row and the server parses no text (for 2,000 readings,
    # half the time of one block of COPY text).
    cursor = connection.connection.driver_connection.cursor()
    with driver_errors(connection, COPY_STAGE), cursor.copy(COPY_STAGE) as copy:
        copy.set_types(("int4", "int2", "timestamptz", "float8"))
        for row in rows:
            copy.write_row(row)


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
    buckets = hourly([(device_id, sensor, ts, value) for sensor, ts, value in inserted])
    if buckets:
        rollup = ReadingHourly.__table__
        stmt = sqlite.insert(rollup)
        stmt = stmt.on_conflict_do_update(
            index_elements=["device_id", "sensor", "bucket"],
            set_={
                "min_value": func.min(rollup.c.min_value, stmt.excluded.min_value),
                "max_value": func.max(rollup.c.max_value, stmt.excluded.max_value),
                "sum_value": rollup.c.sum_value + stmt.excluded.sum_value,
                "count": rollup.c.count + stmt.excluded.count,
                "first_ts": func.min(rollup.c.first_ts, stmt.excluded.first_ts),
                "last_ts": func.max(rollup.c.last_ts, stmt.excluded.last_ts),
            },
        )
        session.connection().execute(stmt, buckets)
    return len(inserted)
