"""What an ingestion batch writes besides its readings: the devices' samples (battery, signal,
position) and their latest states, locked first.

On PostgreSQL the readings, samples and states go in ONE statement: the samples and states are
data-modifying CTEs of the readings' statement (api/telemetry/store.py), so an HTTP upload of one
record writes everything in one round trip instead of three, and a subscriber's batch likewise.
Elsewhere (SQLite) each is its own portable statement.
"""

from __future__ import annotations

import json
from datetime import datetime
from types import SimpleNamespace

from sqlalchemy import Select, bindparam, select, update
from sqlalchemy.dialects import sqlite

from api.device.models import DeviceState
from api.extensions.db import db, one_of_param, per_dialect
from api.telemetry.models import DeviceSample
from api.telemetry.records import Record
from api.telemetry.store import Companion, store_readings_by_device

# The batch's samples as arrays (an executemany of hundreds of rows costs the subscriber several
# times more CPU). Parameter names differ from the readings' (they share one statement).
SAMPLES_SQL = (
    "INSERT INTO device_sample (device_id, ts, battery, signal, lat, lng) "
    "SELECT * FROM unnest(CAST(:sample_device_ids AS integer[]), CAST(:sample_stamps AS timestamptz[]), "
    "CAST(:batteries AS double precision[]), CAST(:signals AS double precision[]), "
    "CAST(:lats AS double precision[]), CAST(:lngs AS double precision[])) ON CONFLICT DO NOTHING"
)
SAMPLE_COLUMNS = {
    "sample_device_ids": "device_id",
    "sample_stamps": "ts",
    "batteries": "battery",
    "signals": "signal",
    "lats": "lat",
    "lngs": "lng",
}

# What ingestion writes of a device's state (alarm_active is the alarm area's).
STATE_COLUMNS = ("last_data_at", "offline_at", "values", "battery", "signal", "lat", "lng", "fault")
# The batch's states written back as arrays.
STATES_SQL = """
UPDATE device_state AS s
SET last_data_at = u.last_data_at, offline_at = u.offline_at, values = CAST(u.values AS json),
    battery = u.battery, signal = u.signal, lat = u.lat, lng = u.lng, fault = u.fault
FROM unnest(CAST(:state_device_ids AS integer[]), CAST(:last_data_at AS timestamptz[]),
            CAST(:offline_at AS timestamptz[]), CAST(:state_values AS text[]), CAST(:battery AS double precision[]),
            CAST(:signal AS double precision[]), CAST(:lat AS double precision[]), CAST(:lng AS double precision[]),
            CAST(:fault AS boolean[]))
     AS u (device_id, last_data_at, offline_at, values, battery, signal, lat, lng, fault)
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


def locked_states(ids: list[int]) -> dict[int, SimpleNamespace]:
    """The devices' states as plain copies (not ORM rows: a batch of hundreds costs a fraction),
    their rows locked in device order so two batches never deadlock on them."""
    rows = db.session.connection().execute(_locked_states(), {"ids": ids})
    return {row.device_id: SimpleNamespace(**row._mapping) for row in rows}


def write_batch(
    rows: list[tuple[int, int, datetime, float]], samples: list[dict], states: list[SimpleNamespace]
) -> dict[int, int]:
    """The batch's readings (device_id, sensor, ts, value), samples and moved states (from
    `locked_states`); returns how many readings were new, per device."""
    connection = db.session.connection()
    if connection.dialect.name != "postgresql":
        accepted = store_readings_by_device(db.session, rows)
        _write_portable(connection, samples, states)
        return accepted
    companions = []
    if samples:
        arrays = {name: [row[column] for row in samples] for name, column in SAMPLE_COLUMNS.items()}
        companions.append(Companion("sampled", SAMPLES_SQL, arrays))
    if states:
        arrays = {column: [getattr(state, column) for state in states] for column in STATE_COLUMNS}
        arrays["state_device_ids"] = [state.device_id for state in states]
        arrays["state_values"] = [json.dumps(values) for values in arrays.pop("values")]
        companions.append(Companion("moved", STATES_SQL, arrays))
    return store_readings_by_device(db.session, rows, companions)


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
