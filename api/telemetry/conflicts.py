"""Conflicting duplicates: a value received for a time a sensor already has a different reading for.
The first value stays the record; the conflicting one is kept in `reading_conflict` and reports list
it, so nothing received is dropped silently. An identical re-sent value stays a plain duplicate (an
upload sent twice changes nothing). Only batches with duplicates are checked: live uploads of new
readings never pay for it."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select, tuple_
from sqlalchemy.dialects import postgresql, sqlite

from api.extensions.db import db, utcnow
from api.telemetry.models import ReadingConflict
from api.telemetry.readings import reading_source

# Rows of (device_id, sensor, ts, value), as the store takes them.
Row = tuple[int, int, datetime, float]


def keep_conflicts(rows: list[Row]) -> dict[int, int]:
    """Of rows some of which were not stored (duplicates), keep those whose value differs from the
    stored reading at their time; returns how many new conflicts were kept, per device."""
    if not rows:
        return {}
    stored = _stored_values(rows)
    received = utcnow()
    conflicts = {
        (device_id, sensor, ts, value): stored[(device_id, sensor, ts)]
        for device_id, sensor, ts, value in rows
        if (device_id, sensor, ts) in stored and stored[(device_id, sensor, ts)] != value
    }
    if not conflicts:
        return {}
    dialect = postgresql if db.engine.dialect.name == "postgresql" else sqlite
    table = ReadingConflict.__table__
    kept_ids = db.session.connection().execute(
        dialect.insert(table).on_conflict_do_nothing().returning(table.c.device_id),
        [
            {"device_id": d, "sensor": s, "ts": t, "value": v, "stored_value": kept, "received_at": received}
            for (d, s, t, v), kept in conflicts.items()
        ],
    )
    counts: dict[int, int] = {}
    for (device_id,) in kept_ids:
        counts[device_id] = counts.get(device_id, 0) + 1
    return counts


def _stored_values(rows: list[Row]) -> dict[tuple[int, int, datetime], float]:
    """The stored reading at each row's (device, sensor, time), raw or packed."""
    stamps = {row[2] for row in rows}
    source = reading_source(min(stamps), max(stamps))
    keys = {(row[0], row[1], row[2]) for row in rows}
    found = db.session.connection().execute(
        select(source.c.device_id, source.c.sensor, source.c.ts, source.c.value).where(
            tuple_(source.c.device_id, source.c.sensor).in_({(d, s) for d, s, _t in keys}),
            source.c.ts.in_(stamps),
        )
    )
    return {(d, s, t): v for d, s, t, v in found if (d, s, t) in keys}


def conflicts_in(
    device_id: int, start: datetime, end: datetime, sensors: list[int] | None = None
) -> list[ReadingConflict]:
    """A device's conflicting values in [start, end), in time order."""
    stmt = select(ReadingConflict).where(
        ReadingConflict.device_id == device_id, ReadingConflict.ts >= start, ReadingConflict.ts < end
    )
    if sensors is not None:
        stmt = stmt.where(ReadingConflict.sensor.in_(sensors))
    return list(db.session.scalars(stmt.order_by(ReadingConflict.ts, ReadingConflict.sensor, ReadingConflict.id)))
