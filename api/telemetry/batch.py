"""What an ingestion batch writes besides its readings: the devices' samples (battery, signal,
position) and their latest states, locked first.

On PostgreSQL the readings, samples and states go in ONE statement: the samples and states are
data-modifying CTEs of the readings' statement (api/telemetry/store.py), so an HTTP upload of one
record writes everything in one round trip instead of three, and a subscriber's batch likewise.
Elsewhere (SQLite) each is its own portable statement.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from types import SimpleNamespace

from sqlalchemy import Select, bindparam, select, update
from sqlalchemy.dialects import sqlite

from api.device.models import DeviceState
from api.extensions.db import db, one_of_param, per_dialect
from api.extensions.pipeline import Query, fetch_together
from api.telemetry.models import DeviceSample
from api.telemetry.records import Record
from api.telemetry.store import Companion, as_json, iso_stamps, store_readings_by_device, stream_device_rows

# The batch's samples as one JSON parameter, like the readings (an executemany of hundreds of rows
# costs the subscriber several times more CPU). Parameter names differ from the readings' (they
# share one statement).
SAMPLES_SQL = (
    "INSERT INTO device_sample (device_id, ts, battery, signal, lat, lng) "
    "SELECT * FROM json_to_recordset(CAST(:samples AS json)) AS r (device_id integer, ts timestamptz, "
    "battery double precision, signal double precision, lat double precision, lng double precision) "
    "ON CONFLICT DO NOTHING"
)

# What ingestion writes of a device's state (alarm_active is the alarm area's).
STATE_COLUMNS = ("last_data_at", "offline_at", "values", "battery", "signal", "lat", "lng", "fault")
# The batch's states written back, one JSON parameter.
STATES_SQL = """
UPDATE device_state AS s
SET last_data_at = u.last_data_at, offline_at = u.offline_at, values = u.values,
    battery = u.battery, signal = u.signal, lat = u.lat, lng = u.lng, fault = u.fault
FROM json_to_recordset(CAST(:states AS json))
     AS u (device_id integer, last_data_at timestamptz, offline_at timestamptz, values json,
           battery double precision, signal double precision, lat double precision, lng double precision,
           fault boolean)
WHERE s.device_id = u.device_id"""


def sample_rows(device_id: int, records: list[Record]) -> list[dict]:
    return [
        {"device_id": device_id, "ts": r.ts, "battery": r.battery, "signal": r.signal, "lat": r.lat, "lng": r.lng}
        for r in records
        if r.battery is not None or r.signal is not None or r.lat is not None
    ]


@per_dialect
def _locked_states() -> Select:
    table = DeviceState.__table__
    return (
        select(table.c.device_id, *(table.c[c] for c in STATE_COLUMNS))
        .where(one_of_param(table.c.device_id, "ids"))
        .order_by(table.c.device_id)
        .with_for_update()
    )


def locked_states(ids: list[int], then: Query | None = None) -> dict[int, SimpleNamespace]:
    """The devices' states as plain copies (not ORM rows: a batch of hundreds costs a fraction),
    their rows locked in device order so two batches never deadlock on them; `then` is sent in the
    same round trip, after the lock."""
    [rows, *_then] = fetch_together(db.session.connection(), [(_locked_states(), {"ids": ids}), *filter(None, [then])])
    if not rows:
        return {}
    names = rows[0]._fields  # zipped with each row: a third of the CPU of a RowMapping per row
    return {row[0]: SimpleNamespace(**dict(zip(names, row, strict=True))) for row in rows}


def write_batch(
    rows: list[tuple[int, int, datetime, float]],
    samples: list[dict],
    states: list[SimpleNamespace],
    *,
    maybe_stored: bool = False,
) -> dict[int, int]:
    """The batch's readings (device_id, sensor, ts, value), samples and moved states (from
    `locked_states`); returns how many readings were new, per device. `maybe_stored`: as
    store_readings_by_device's."""
    connection = db.session.connection()
    if connection.dialect.name != "postgresql":
        accepted = store_readings_by_device(db.session, rows)
        _write_portable(connection, samples, states)
        return accepted
    return store_readings_by_device(db.session, rows, _companions(samples, states), maybe_stored=maybe_stored)


def stream_batch(
    rows: Iterable[tuple[int, int, datetime, float]],
    finish: Callable[[], tuple[list[dict], list[SimpleNamespace]]],
    lookups: Sequence[Query] = (),
) -> tuple[int, list[list]] | None:
    """PostgreSQL: one device's live readings stored as `rows` yields them, then its samples and
    moved states, which `finish()` gives once every row is written, with `lookups` sent in the same
    round trip (store.stream_device_rows); the caller sent SET_SAVEPOINT with its state lock. How
    many readings were stored and the lookups' rows, or None when no reading was stored: the caller
    then uses `write_batch`."""
    return stream_device_rows(db.session, rows, lambda: _companions(*finish()), lookups)


def _companions(samples: list[dict], states: list[SimpleNamespace]) -> list[Companion]:
    """The samples and states, written in the readings' round trip (PostgreSQL)."""
    companions = []
    if samples:
        stamps = iso_stamps(row["ts"] for row in samples)
        rows_json = as_json([row | {"ts": stamps[row["ts"]]} for row in samples])
        companions.append(Companion("sampled", SAMPLES_SQL, {"samples": rows_json}))
    if states:
        changed = [{"device_id": state.device_id} | _state_json(state) for state in states]
        companions.append(Companion("moved", STATES_SQL, {"states": as_json(changed)}))
    return companions


def _state_json(state: SimpleNamespace) -> dict:
    row = {column: getattr(state, column) for column in STATE_COLUMNS}
    for column in ("last_data_at", "offline_at"):
        if row[column] is not None:
            row[column] = row[column].isoformat()
    return row


def _write_portable(connection, samples: list[dict], states: list[SimpleNamespace]) -> None:
    if samples:
        connection.execute(sqlite.insert(DeviceSample.__table__).on_conflict_do_nothing(), samples)
    if states:
        table = DeviceState.__table__
        connection.execute(
            update(table)
            .where(table.c.device_id == bindparam("state_device_id"))
            .values({c: bindparam(f"state_{c}") for c in STATE_COLUMNS}),
            [{f"state_{k}": v for k, v in vars(state).items()} for state in states],
        )
