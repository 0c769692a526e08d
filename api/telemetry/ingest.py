"""The ingestion service: HTTP and MQTT both end here. One transaction per batch: readings,
rollups, samples and the latest state are written together, readings are handed to the alarm
seam, and only then does the caller acknowledge."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from flask_babel import gettext
from sqlalchemy import select
from sqlalchemy.dialects import postgresql, sqlite

from api.device.models import Device, DeviceParam, DeviceState
from api.extensions.db import db, utcnow
from api.telemetry.models import DeviceSample
from api.telemetry.records import Record, parse_records
from api.telemetry.store import store_readings

# After the service expires a device may upload for three more months (business-domain section 4).
UPLOAD_GRACE = timedelta(days=91)

# Handlers called with (device, records) inside the ingestion transaction; the alarm area
# registers its evaluator here.
READING_HANDLERS: list[Callable[[Device, list[Record]], None]] = []


@dataclass
class IngestResult:
    accepted: int = 0
    duplicates: int = 0
    rejected: list[dict] = field(default_factory=list)


class DeviceRefusedError(Exception):
    """The whole batch is refused (device disabled, scrapped, or past its upload grace)."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def sensor_ranges(device_type_id: int) -> dict[int, tuple[float | None, float | None]]:
    rows = db.session.execute(
        select(DeviceParam.probe_id, DeviceParam.param_min, DeviceParam.param_max).where(
            DeviceParam.device_type_id == device_type_id, DeviceParam.probe_id.is_not(None)
        )
    )
    return {probe: (low, high) for probe, low, high in rows}


def refusal(device: Device, now: datetime) -> str | None:
    if device.deleted or device.scrapped_at is not None:
        return gettext("This device has been scrapped or deleted; it no longer accepts data.")
    if not device.enabled:
        return gettext("This device is disabled; it no longer accepts data.")
    if device.service_expires_at is not None and now > device.service_expires_at + UPLOAD_GRACE:
        return gettext("The service of this device expired more than three months ago.")
    return None


def ingest(device: Device, raw_records) -> IngestResult:
    now = utcnow()
    reason = refusal(device, now)
    if reason:
        raise DeviceRefusedError(reason)
    parsed = parse_records(raw_records, sensor_ranges(device.device_type_id), now)
    result = IngestResult(rejected=parsed.rejected)
    if not parsed.records:
        return result
    rows = [
        (device.id, sensor, record.ts, value)
        for record in parsed.records
        for sensor, value in record.readings.items()
        if value is not None
    ]
    result.accepted = store_readings(db.session, rows)
    result.duplicates = len(rows) - result.accepted
    dialect = postgresql if db.engine.dialect.name == "postgresql" else sqlite
    _samples(dialect, device.id, parsed.records)
    _update_state(device, parsed.records)
    for handler in READING_HANDLERS:
        handler(device, parsed.records)
    db.session.commit()
    return result


def _samples(dialect, device_id: int, records: list[Record]) -> None:
    rows = [
        {"device_id": device_id, "ts": r.ts, "battery": r.battery, "signal": r.signal, "lat": r.lat, "lng": r.lng}
        for r in records
        if r.battery is not None or r.signal is not None or r.lat is not None
    ]
    if rows:
        db.session.connection().execute(dialect.insert(DeviceSample.__table__).on_conflict_do_nothing(), rows)


def _update_state(device: Device, records: list[Record]) -> None:
    """The latest state moves forward only: late (buffered) records never overwrite newer values."""
    state = db.session.get(DeviceState, device.id, with_for_update=True)
    if state is None:
        state = DeviceState(device_id=device.id, values={})
        db.session.add(state)
    newer = [r for r in records if state.last_data_at is None or r.ts >= state.last_data_at]
    if not newer:
        return
    newer.sort(key=lambda r: r.ts)
    values = dict(state.values or {})
    latest: dict[str, float | None] = {}
    for record in newer:
        for sensor, value in record.readings.items():
            latest[str(sensor)] = value
    values.update(latest)
    with_readings = [r for r in newer if r.readings]
    if with_readings:
        state.fault = any(value is None for value in with_readings[-1].readings.values())
    for name in ("battery", "signal", "lat", "lng"):
        reported = next((getattr(r, name) for r in reversed(newer) if getattr(r, name) is not None), None)
        if reported is not None:
            setattr(state, name, reported)
    state.values = values
    state.last_data_at = newer[-1].ts
    state.offline_at = newer[-1].ts + timedelta(seconds=device.interval_s * device.device_type.offline_after_intervals)
