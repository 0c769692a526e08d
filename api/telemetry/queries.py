"""Chart, track and energy queries: at most ~2,000 points per sensor whatever the range.

Readings come from `reading_source` (raw and packed days as one source, api/telemetry/readings.py).

Short ranges return raw readings; longer ones return buckets (min, max, avg) from the raw table
(up to a week) or from the hourly rollup (beyond), so a one-minute year is 8,760 rollup rows, not
525,600 readings, and each bucket keeps its true min and max.
"""

from __future__ import annotations

import math
from collections import defaultdict
from datetime import datetime, timedelta

from sqlalchemy import BigInteger, Integer, cast, func, select

from api.extensions.db import db
from api.telemetry.calibration import Corrections, OverdueMarks, corrections, overdue_ms
from api.telemetry.models import DeviceSample, ReadingHourly
from api.telemetry.readings import SOURCE_PYFORMAT, packed_days, reading_source

MAX_POINTS = 2000
RAW_BUCKETS_UP_TO = timedelta(days=7)
# No reading for more than this many logging intervals is a gap: charts break the line there (a null
# point) and list it; nothing is drawn across time nobody measured.
GAP_INTERVALS = 3
# A reading stored more than this long after its own timestamp (and more than three logging
# intervals) was back-filled: uploaded from the logger's memory, not received live.
BACKFILL_AFTER_S = 1800


def backfill_after_s(interval_s: int) -> int:
    return max(BACKFILL_AFTER_S, 3 * max(interval_s, 1))


def gap_after_s(interval_s: int) -> int:
    return GAP_INTERVALS * max(interval_s, 1)


def _late(readings, threshold_s: int):
    """SQL: was this reading (of `reading_source`) received more than `threshold_s` seconds after its timestamp?"""
    if db.engine.dialect.name == "postgresql":
        delay = func.extract("epoch", readings.c.received_at - readings.c.ts)
    else:
        delay = (func.julianday(readings.c.received_at) - func.julianday(readings.c.ts)) * 86400
    return func.coalesce(delay > threshold_s, False)


def with_gaps(points: list[dict], gap_s: float) -> tuple[list[dict], list[dict]]:
    """The series with a null point inside every gap (so no line is drawn across it) and the gaps:
    [{"start": epoch ms of the last point before, "end": of the first after, "seconds": ...}]."""
    out, gaps = [], []
    previous = None
    for point in points:
        ms = point["t"]  # epoch ms, raw or bucketed
        if previous is not None and ms - previous[0] > gap_s * 1000:
            middle = (previous[0] + ms) // 2
            out.append({"t": middle, "v": None, **({"min": None, "max": None} if "min" in point else {})})
            gaps.append({"start": previous[0], "end": ms, "seconds": (ms - previous[0]) // 1000})
        out.append(point)
        previous = (ms, point)
    return out, gaps


def bucket_seconds(start: datetime, end: datetime, interval_s: int) -> int:
    """0 when raw points fit; else a bucket width giving at most MAX_POINTS buckets."""
    span = (end - start).total_seconds()
    if span / max(interval_s, 1) <= MAX_POINTS:
        return 0
    width = math.ceil(span / MAX_POINTS)
    if span > RAW_BUCKETS_UP_TO.total_seconds():
        width = max(3600, math.ceil(width / 3600) * 3600)  # whole hours: rollup buckets
    return width


def _epoch(column):
    if db.engine.dialect.name == "postgresql":
        return func.extract("epoch", column)
    return cast(func.strftime("%s", column), Integer)


def chart(
    device_id: int, sensors: list[int], start: datetime, end: datetime, interval_s: int, correct: bool = False
) -> dict:
    """Points per sensor; a back-filled raw reading carries "b": true, one taken while its probe's
    calibration was overdue "o": true; gaps are null points in the series and listed per sensor under
    "gaps"; the overdue spans per sensor under "overdue" (epoch ms, clipped to the range).
    `correct` (the device's calibration correction): a value its probe's valid certificate covers is
    corrected ("c": true, the raw value as "r"; a bucket by the certificate in force at its start), and
    the spans per sensor with their certificate are under "corrections"."""
    width = bucket_seconds(start, end, interval_s)
    series: dict[int, list] = defaultdict(list)
    fixes = corrections(device_id, sensors, start, end) if correct else {}
    if width == 0:
        # Core (not ORM) rows and epoch milliseconds computed by the database: this is the hot loop.
        r = reading_source(start, end)
        epoch_ms = cast(_epoch(r.c.ts) * 1000, BigInteger)
        rows = db.session.connection().execute(
            select(r.c.sensor, epoch_ms, r.c.value, _late(r, backfill_after_s(interval_s)))
            .where(r.c.device_id == device_id, r.c.sensor.in_(sensors), r.c.ts >= start, r.c.ts < end)
            .order_by(r.c.sensor, r.c.ts)
        )
        overdue = overdue_ms(device_id, sensors, start, end)
        walkers = {sensor: OverdueMarks(spans) for sensor, spans in overdue.items() if spans}
        for sensor, ms, value, late in rows:
            point = {"t": ms, "v": value, "b": True} if late else {"t": ms, "v": value}
            if sensor in walkers and walkers[sensor](ms):
                point["o"] = True
            series[sensor].append(point)
        if fixes:
            _correct_points(series, fixes)
        return _finish_chart(0, series, sensors, gap_after_s(interval_s), overdue, fixes if correct else None)
    hourly = width >= 3600 and (end - start) > RAW_BUCKETS_UP_TO
    table = ReadingHourly if hourly else reading_source(start, end).c
    time_column = ReadingHourly.bucket if hourly else table.ts
    origin = start.timestamp()
    bucket = func.floor((_epoch(time_column) - origin) / width)
    if hourly:
        aggregates = (
            func.min(ReadingHourly.min_value),
            func.max(ReadingHourly.max_value),
            func.sum(ReadingHourly.sum_value) / func.sum(ReadingHourly.count),
        )
    else:
        aggregates = (func.min(table.value), func.max(table.value), func.avg(table.value))
    rows = db.session.execute(
        select(table.sensor, bucket.label("b"), *aggregates)
        .where(table.device_id == device_id, table.sensor.in_(sensors), time_column >= start, time_column < end)
        .group_by(table.sensor, "b")
        .order_by(table.sensor, "b")
    )
    for sensor, index, low, high, avg in rows:
        # Epoch ms, as raw points: one form of "t" whatever the range (the web maps it unparsed).
        series[sensor].append({"t": round((origin + int(index) * width) * 1000), "min": low, "max": high, "v": avg})
    if fixes:
        _correct_points(series, fixes)
    overdue = overdue_ms(device_id, sensors, start, end)
    gap_s = max(gap_after_s(interval_s), 2 * width)
    return _finish_chart(width, series, sensors, gap_s, overdue, fixes if correct else None)


def _correct_points(series: dict[int, list], fixes: dict[int, Corrections]) -> None:
    """Each point (in time order per sensor) its certificate covers: corrected values, "c": true, the raw
    value as "r" (a bucket's min, max and average each corrected)."""
    for sensor, walker in fixes.items():
        for point in series.get(sensor, ()):
            fix = walker(point["t"])
            if fix is None or point["v"] is None:
                continue
            point["r"] = point["v"]
            for key in ("v", "min", "max"):
                if point.get(key) is not None:
                    point[key] = fix(point[key])
            point["c"] = True


def _finish_chart(
    width: int, series: dict, sensors: list[int], gap_s: float, overdue: dict, fixes: dict | None = None
) -> dict:
    out, gaps = {}, {}
    for sensor in sensors:
        out[sensor], gaps[sensor] = with_gaps(series.get(sensor, []), gap_s)
    spans = {sensor: [{"start": lo, "end": hi} for lo, hi in overdue.get(sensor, [])] for sensor in sensors}
    answer = {"bucketSeconds": width, "series": out, "gaps": gaps, "gapSeconds": gap_s, "overdue": spans}
    if fixes is not None:
        answer["corrected"] = True
        answer["corrections"] = {
            sensor: [{"start": lo, "end": hi, "certificate": cert.number} for lo, hi, cert in fixes[sensor].spans]
            if sensor in fixes
            else []
            for sensor in sensors
        }
    return answer


def track(device_id: int, start: datetime, end: datetime, limit: int = MAX_POINTS) -> list:
    """Positions (rows with ts, lat, lng, battery) in time order, at most `limit` of them spread
    evenly over the range, first and last kept: a year of one-minute positions stays a drawable line."""
    positions = list(
        db.session.execute(
            select(DeviceSample.ts, DeviceSample.lat, DeviceSample.lng, DeviceSample.battery)
            .where(
                DeviceSample.device_id == device_id,
                DeviceSample.ts >= start,
                DeviceSample.ts < end,
                DeviceSample.lat.is_not(None),
                DeviceSample.lng.is_not(None),
            )
            .order_by(DeviceSample.ts)
        )
    )
    return thin(positions, limit)


def thin(items: list, limit: int) -> list:
    """At most `limit` items picked at even steps, always keeping the first and the last."""
    if len(items) <= limit or limit < 2:
        return items[:limit] if limit < 2 else items
    step = (len(items) - 1) / (limit - 1)
    return [items[round(i * step)] for i in range(limit)]


def energy_by_month(device_id: int, sensor: int, months: list[tuple[datetime, datetime]]) -> list[dict]:
    """Consumption per month of a cumulative meter: the month's last reading minus its first."""
    result = []
    for start, end in months:
        low, high = db.session.execute(
            select(func.min(ReadingHourly.min_value), func.max(ReadingHourly.max_value)).where(
                ReadingHourly.device_id == device_id,
                ReadingHourly.sensor == sensor,
                ReadingHourly.bucket >= start,
                ReadingHourly.bucket < end,
            )
        ).one()
        result.append({"month": start, "kwh": round(high - low, 3) if low is not None else 0.0})
    return result


STREAM_BATCH = 20_000
# The PostgreSQL statement of stream_chunks, run on a named (server-side) psycopg cursor: rows come
# back as plain tuples in batches, without ORM or Core row processing (ten times less CPU per row).
_STREAM = (
    "SELECT (extract(epoch FROM ts) * 1000)::bigint, sensor, value, "
    "coalesce(extract(epoch FROM received_at - ts) > %(late)s, false) FROM ({source}) AS readings "
    "WHERE device_id = %(device)s AND {sensor} AND ts >= %(start)s AND ts < %(end)s "
    "ORDER BY ts, sensor"
)
# Constants: no input reaches these texts. One sensor is asked by equality: the planner then knows
# `sensor` is fixed, reads the (device_id, sensor, ts) index in time order and merges the packed
# days into it (Merge Append), where `sensor = ANY(...)` sorted the whole range first (a year of one
# probe: an external sort of 26 MB on disk before the first row came back).
POSTGRES_STREAM = _STREAM.format(source=SOURCE_PYFORMAT, sensor="sensor = ANY(%(sensors)s)")
POSTGRES_STREAM_ONE_SENSOR = _STREAM.format(source=SOURCE_PYFORMAT, sensor="sensor = %(sensor)s")


def stream_chunks(
    device_id: int,
    sensors: list[int],
    start: datetime,
    end: datetime,
    batch: int = STREAM_BATCH,
    backfill_s: int = BACKFILL_AFTER_S,
):
    """Every reading of a device in [start, end) as lists of (epoch ms, sensor, value, back-filled),
    in time order, from a server-side cursor: only `batch` rows are in memory at a time, so a year of
    one-minute data never is. Runs in the session's transaction; keep it open while iterating."""
    connection = db.session.connection()
    if connection.dialect.name == "postgresql":
        raw = connection.connection.driver_connection
        with raw.cursor(name=f"stream_{device_id}") as cursor:
            cursor.itersize = batch
            params = {"late": backfill_s, "device": device_id, "start": start, "end": end} | packed_days(start, end)
            sensors = list(sensors)
            if len(sensors) == 1:
                cursor.execute(POSTGRES_STREAM_ONE_SENSOR, params | {"sensor": sensors[0]})
            else:
                cursor.execute(POSTGRES_STREAM, params | {"sensors": sensors})
            while chunk := cursor.fetchmany(batch):
                yield chunk
        return
    # SQLite (embedded default): its cursor is lazy; Core rows, the epoch computed by the database.
    r = reading_source(start, end)
    epoch_ms = cast(_epoch(r.c.ts) * 1000, BigInteger)
    stmt = (
        select(epoch_ms, r.c.sensor, r.c.value, _late(r, backfill_s))
        .where(r.c.device_id == device_id, r.c.sensor.in_(sensors), r.c.ts >= start, r.c.ts < end)
        .order_by(r.c.ts, r.c.sensor)
    )
    result = connection.execution_options(stream_results=True, yield_per=batch).execute(stmt)
    try:
        for partition in result.partitions(batch):
            yield [tuple(row) for row in partition]
    finally:
        result.close()


def stream_readings(device_id: int, sensors: list[int], start: datetime, end: datetime, **options):
    """`stream_chunks` one reading at a time."""
    for chunk in stream_chunks(device_id, sensors, start, end, **options):
        yield from chunk


def stream_rows(device_id: int, sensors: list[int], start: datetime, end: datetime, **options):
    """`stream_chunks` folded into one row per timestamp: (epoch ms, {sensor: value}, back-filled)."""
    current_ms, values, late = None, {}, False
    for ms, sensor, value, backfilled in stream_readings(device_id, sensors, start, end, **options):
        if ms != current_ms:
            if current_ms is not None:
                yield current_ms, values, late
            current_ms, values, late = ms, {}, False
        values[sensor] = value
        late = late or bool(backfilled)
    if current_ms is not None:
        yield current_ms, values, late


def count_readings(device_id: int, sensors: list[int], start: datetime, end: datetime) -> int:
    """About how many readings a range holds, from the hourly rollup (for progress, not for display)."""
    return int(
        db.session.scalar(
            select(func.coalesce(func.sum(ReadingHourly.count), 0)).where(
                ReadingHourly.device_id == device_id,
                ReadingHourly.sensor.in_(sensors),
                ReadingHourly.bucket >= start - timedelta(hours=1),
                ReadingHourly.bucket < end,
            )
        )
        or 0
    )
