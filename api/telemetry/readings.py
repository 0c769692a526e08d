"""The one read path of readings: raw `reading` rows and packed `reading_packed` days as one source.

Every reader of readings (charts, exports, reports, FDA, MKT, data interface, data api) selects from
`reading_source(start, end)`: columns device_id, sensor, ts, value, received_at, exactly as they were
stored. On PostgreSQL it is `reading` UNION ALL the packed days unnested (times decoded by a running
sum of the deltas); only the packed days that can overlap [start, end] are opened, so a recent chart
never decompresses old days. Callers still filter ts, device and sensor themselves (the database
pushes those filters into both branches). SQLite keeps everything in `reading`.

The SQL fragments here are shared by the store (is a re-sent reading already packed?) and the
compaction (unpack a day to merge a late reading into it).
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

from sqlalchemy import Float, Integer, SmallInteger, bindparam, select, text
from sqlalchemy.sql import Subquery

from api.extensions.db import UTCDateTime, db
from api.telemetry.models import Reading

# Advisory lock between the compaction (exclusive, per chunk) and a write of readings older than the
# store's horizon (shared): such a write either sees the packed day or is moved by the compaction,
# never both (an INSERT's snapshot predates a lock taken inside the same statement, so the store
# takes it in a statement of its own, only for batches that hold old readings).
PACK_LOCK = 0x7061636B  # "pack"

# A packed row `p` unnested into `u` (ts, value, delay): times are the day's start plus the running
# sum of the deltas, delays (µs from ts to received_at) the running sum of the delay steps (a NULL
# step is an unknown received_at; sum() skips it). float8 sums of whole microseconds are exact
# (far below 2**53) and interval * float8 rounds to whole microseconds, so every ts and received_at
# comes back exactly as stored.
UNPACK = """CROSS JOIN LATERAL (
    SELECT (p.day::timestamp AT TIME ZONE 'UTC') + sum(x.delta::float8) OVER w * interval '1 microsecond' AS ts,
           x.value, CASE WHEN x.delay IS NOT NULL THEN sum(x.delay::float8) OVER w END AS delay
    FROM unnest(p.deltas, p.vals, p.delays) WITH ORDINALITY AS x (delta, value, delay, n)
    WINDOW w AS (ORDER BY x.n ROWS UNBOUNDED PRECEDING)
) u"""
RECEIVED_AT = "u.ts + u.delay * interval '1 microsecond'"
# Is the reading `r` (device_id, sensor, ts) already in a packed day? Opens only that day's row.
_PACKED_HAS = """SELECT 1 FROM reading_packed p {unpack}
    WHERE p.device_id = r.device_id AND p.sensor = r.sensor AND p.day = (r.ts AT TIME ZONE 'UTC')::date
      AND r.ts BETWEEN p.first_ts AND p.last_ts AND u.ts = r.ts"""
PACKED_HAS = _PACKED_HAS.format(unpack=UNPACK)
_SOURCE = """SELECT device_id, sensor, ts, value, received_at FROM reading
UNION ALL
SELECT p.device_id, p.sensor, u.ts, u.value, {received_at} AS received_at
FROM reading_packed p {unpack}
WHERE p.day BETWEEN {first_day} AND {last_day}"""
# Constants fill the templates (no input reaches this text). The pyformat one is for psycopg
# statements run outside SQLAlchemy (the export stream's named cursor).
SOURCE_PYFORMAT = _SOURCE.format(
    received_at=RECEIVED_AT, unpack=UNPACK, first_day="%(first_day)s", last_day="%(last_day)s"
)
_SOURCE_TEXT = text(
    _SOURCE.format(received_at=RECEIVED_AT, unpack=UNPACK, first_day=":first_day", last_day=":last_day")
)


def utc_day(moment: datetime) -> date:
    return moment.astimezone(UTC).date()


def day_start(day: date) -> datetime:
    return datetime.combine(day, time(), UTC)


def packed_days(start: datetime, end: datetime) -> dict[str, date]:
    """The packed days that can hold readings with start <= ts <= end."""
    return {"first_day": utc_day(start), "last_day": utc_day(end)}


def reading_source(start: datetime, end: datetime) -> Subquery:
    """All readings (raw and packed) as a subquery with device_id, sensor, ts, value, received_at.
    Packed days are limited to those overlapping [start, end]; the caller filters ts exactly."""
    if db.engine.dialect.name != "postgresql":
        return select(Reading.device_id, Reading.sensor, Reading.ts, Reading.value, Reading.received_at).subquery(
            "readings"
        )
    days = packed_days(start, end)
    stmt = _SOURCE_TEXT.bindparams(
        bindparam("first_day", days["first_day"]), bindparam("last_day", days["last_day"])
    ).columns(
        device_id=Integer,
        sensor=SmallInteger,
        ts=UTCDateTime(),
        value=Float,
        received_at=UTCDateTime(),
    )
    return stmt.subquery("readings")


def pack_cutoff(now: datetime, days: int) -> datetime:
    """Readings before this instant (a UTC midnight, at least `days` days ago) are packed."""
    return day_start(utc_day(now - timedelta(days=days)))


def store_horizon(now: datetime, days: int) -> datetime:
    """Readings from this instant on are never in a packed day, so the store skips the packed check
    for them. One day later than the compaction's cutoff, for clocks that differ between machines."""
    return now - timedelta(days=max(days - 1, 0))
