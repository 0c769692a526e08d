"""Compaction: raw readings older than READING_PACK_AFTER_DAYS become packed days (PostgreSQL).

Whole UTC days move from `reading` into `reading_packed` in bounded chunks (a range of days by a
range of devices, about CHUNK_ROWS readings), one transaction each: the chunk's raw rows are deleted
(RETURNING them), merged with the packed rows those devices and days already have (a late reading
that arrived after its day was packed; on an equal ts the packed one wins) and upserted. The hourly
rollup is not touched: it already counts every moved reading once. A monthly partition wholly
before the cutoff is then TRUNCATEd once empty (a DELETE leaves the file at its size).

Safe to rerun (nothing raw older than the cutoff: nothing to do) and while ingestion runs: each
chunk holds the pack lock exclusively, and a write of readings older than the store's horizon holds
it shared (api/telemetry/store.py), so such a reading is either moved by this chunk or written after
it and skipped as a duplicate when already packed. Live readings are newer than any packed day.
"""

from __future__ import annotations

import logging
import time as clock
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from itertools import groupby

from sqlalchemy import text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import OperationalError

from api.telemetry.partitions import monthly_partitions
from api.telemetry.readings import PACK_LOCK, RECEIVED_AT, UNPACK, day_start, pack_cutoff

log = logging.getLogger(__name__)

CHUNK_ROWS = 100_000
# A TRUNCATE waits at most this long for readers of the partition; else it is left for the next run.
TRUNCATE_LOCK_TIMEOUT = "5s"

LOCK = text(f"SELECT pg_advisory_xact_lock({PACK_LOCK})")
EMPTY = "SELECT EXISTS (SELECT 1 FROM {name})"
# Raw readings per UTC day and device before the cutoff: what the chunks are planned from.
BACKLOG = text("""
SELECT (ts AT TIME ZONE 'UTC')::date AS day, device_id, count(*)
FROM reading WHERE ts < :cutoff GROUP BY 1, 2 ORDER BY 1, 2
""")
# Deltas and delays in whole microseconds (extract(epoch ...) is numeric, so exact); each delay is
# stored as its step from the previous known one (partitioning by "delay IS NULL" makes lag() skip the
# unknown ones), so a batch received at once or a steady delay compresses like regular times do.
_MOVE = """
WITH moved AS (
    DELETE FROM reading
    WHERE ts >= :start AND ts < :end AND device_id BETWEEN :low AND :high
    RETURNING device_id, sensor, ts, value, received_at
), keys AS (
    SELECT DISTINCT device_id, sensor, (ts AT TIME ZONE 'UTC')::date AS day FROM moved
), kept AS (
    SELECT p.device_id, p.sensor, u.ts, u.value, {received_at} AS received_at
    FROM reading_packed p JOIN keys k ON k.device_id = p.device_id AND k.sensor = p.sensor AND k.day = p.day
    {unpack}
), merged AS (
    SELECT DISTINCT ON (device_id, sensor, ts) device_id, sensor, ts, value, received_at
    FROM (SELECT *, 0 AS rank FROM kept UNION ALL SELECT *, 1 AS rank FROM moved) AS both_sides
    ORDER BY device_id, sensor, ts, rank
), coded AS (
    SELECT device_id, sensor, day, ts, value, received_at,
           (extract(epoch FROM ts - coalesce(lag(ts) OVER w, day::timestamp AT TIME ZONE 'UTC'))
            * 1000000)::bigint AS delta,
           delay - lag(delay, 1, 0::bigint) OVER (PARTITION BY device_id, sensor, day, delay IS NULL ORDER BY ts)
               AS delay
    FROM (
        SELECT *, (ts AT TIME ZONE 'UTC')::date AS day,
               (extract(epoch FROM received_at - ts) * 1000000)::bigint AS delay
        FROM merged
    ) AS dated
    WINDOW w AS (PARTITION BY device_id, sensor, day ORDER BY ts)
), packed AS (
    INSERT INTO reading_packed (device_id, sensor, day, count, first_ts, last_ts, deltas, vals, delays)
    SELECT device_id, sensor, day, count(*), min(ts), max(ts),
           array_agg(delta ORDER BY ts), array_agg(value ORDER BY ts),
           CASE WHEN count(received_at) > 0 THEN array_agg(delay ORDER BY ts) END
    FROM coded GROUP BY device_id, sensor, day
    ON CONFLICT (device_id, sensor, day) DO UPDATE SET
        count = excluded.count, first_ts = excluded.first_ts, last_ts = excluded.last_ts,
        deltas = excluded.deltas, vals = excluded.vals, delays = excluded.delays
    RETURNING 1
)
SELECT (SELECT count(*) FROM moved), (SELECT count(*) FROM packed)
"""
MOVE = text(_MOVE.format(received_at=RECEIVED_AT, unpack=UNPACK))  # constants: no input reaches this text


@dataclass(frozen=True)
class Chunk:
    first_day: date
    last_day: date  # inclusive
    low: int  # device ids, inclusive
    high: int
    rows: int


@dataclass
class Result:
    readings: int = 0  # raw readings moved into packed days
    packed_rows: int = 0  # packed rows written (new days or merged ones)
    chunks: int = 0
    truncated: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def as_dict(self) -> dict:
        return {
            "readings": self.readings,
            "packedRows": self.packed_rows,
            "chunks": self.chunks,
            "truncated": self.truncated,
            "seconds": round(self.seconds, 3),
        }


def plan(backlog: list[tuple[date, int, int]], limit: int = CHUNK_ROWS) -> list[Chunk]:
    """Chunks of at most `limit` readings (unless one device's day alone has more) from (day, device,
    count) rows ordered by day and device: a bigger day is split by device ranges; consecutive
    smaller days share a chunk."""
    chunks: list[Chunk] = []
    pending: Chunk | None = None
    for day, group in groupby(backlog, key=lambda row: row[0]):
        devices = [(device_id, count) for _, device_id, count in group]
        total = sum(count for _, count in devices)
        if total > limit:
            if pending:
                chunks.append(pending)
                pending = None
            low = high = devices[0][0]
            rows = 0
            for device_id, count in devices:
                if rows and rows + count > limit:
                    chunks.append(Chunk(day, day, low, high, rows))
                    low, rows = device_id, 0
                high, rows = device_id, rows + count
            chunks.append(Chunk(day, day, low, high, rows))
            continue
        low, high = devices[0][0], devices[-1][0]
        if pending and pending.rows + total <= limit:
            pending = Chunk(
                pending.first_day, day, min(pending.low, low), max(pending.high, high), pending.rows + total
            )
            continue
        if pending:
            chunks.append(pending)
        pending = Chunk(day, day, low, high, total)
    if pending:
        chunks.append(pending)
    return chunks


def compact(engine: Engine, now: datetime, days: int, limit: int = CHUNK_ROWS) -> Result:
    """Pack every raw reading before pack_cutoff(now, days); see the module's notes."""
    result = Result()
    if engine.dialect.name != "postgresql":
        return result  # SQLite (the embedded default) keeps every reading raw
    started = clock.perf_counter()
    cutoff = pack_cutoff(now, days)
    with engine.connect() as connection:
        backlog = [tuple(row) for row in connection.execute(BACKLOG, {"cutoff": cutoff})]
    for chunk in plan(backlog, limit):
        params = {
            "start": day_start(chunk.first_day),
            "end": day_start(chunk.last_day + timedelta(days=1)),
            "low": chunk.low,
            "high": chunk.high,
        }
        with engine.begin() as connection:
            connection.execute(LOCK)
            moved, packed = connection.execute(MOVE, params).one()
        result.readings += moved
        result.packed_rows += packed
        result.chunks += 1
    result.truncated = truncate_emptied(engine, cutoff)
    result.seconds = clock.perf_counter() - started
    log.info("reading compaction: %s", result.as_dict())
    return result


def truncate_emptied(engine: Engine, cutoff: datetime) -> list[str]:
    """TRUNCATE the monthly partitions wholly before the cutoff that hold no live row but still take
    disk space. Under the pack lock no old reading can be written meanwhile; a late one that made it
    in before is found by the emptiness check and left for the next run to move."""
    truncated = []
    with engine.connect() as connection:
        candidates = [
            name
            for name, end in monthly_partitions(connection)
            if end <= cutoff
            and connection.execute(text("SELECT pg_relation_size(CAST(:n AS regclass))"), {"n": name}).scalar()
        ]
    for name in candidates:
        try:
            with engine.begin() as connection:
                connection.execute(text(f"SET LOCAL lock_timeout = '{TRUNCATE_LOCK_TIMEOUT}'"))
                connection.execute(LOCK)
                # The partition's name comes from the catalogue (monthly_partitions), not from input.
                connection.execute(text(f"LOCK TABLE {name} IN ACCESS EXCLUSIVE MODE"))
                if connection.execute(text(EMPTY.format(name=name))).scalar():
                    continue
                connection.execute(text(f"TRUNCATE {name}"))
                truncated.append(name)
        except OperationalError as exc:  # a long reader held the partition: the next run retries
            log.warning("reading compaction: %s not truncated (%s)", name, exc.orig)
    return truncated
