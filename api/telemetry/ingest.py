"""The ingestion service: HTTP and MQTT both end here. One transaction per batch: readings,
rollups, samples and the latest state are written together, readings are handed to the alarm
seam, and only then does the caller acknowledge.

`ingest_many` takes many devices' uploads in one transaction (the MQTT subscriber's batches: the
states locked and moved forward as plain rows, then the readings, samples and states written by one
statement (api/telemetry/batch.py), the areas' lookups sent together once), with the result of each
upload (one device's large batch is stored while its records are checked: `_ingest_streamed`);
`ingest` is the same with one upload; `ingest_uploads` authenticates and ingests the HTTP uploads
that arrived together (a group commit: api/extensions/group_commit.py).

The reasons of a refusal or of a refused record are lazy strings: the uploads of a group are done in
one request, and each reason is rendered in the language of the request that answers it."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import partial
from operator import attrgetter
from typing import NamedTuple

from flask import g
from flask_babel import lazy_gettext
from sqlalchemy import select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.sql.expression import Executable

from api.device.models import DeviceParam, DeviceState, DeviceType
from api.extensions.db import db, utcnow
from api.extensions.pipeline import Query, fetch_together
from api.extensions.snapshots import Snapshots
from api.telemetry.batch import locked_states, sample_rows, stream_batch, write_batch
from api.telemetry.conflicts import keep_conflicts
from api.telemetry.device_auth import IngestedDevice, authenticate_many
from api.telemetry.records import MAX_RECORDS, Parsed, Record, checked_records, parse_records
from api.telemetry.store import SET_SAVEPOINT

# After the service expires a device may upload for three more months (business-domain section 4).
UPLOAD_GRACE = timedelta(days=91)

# Handlers called with (device, records) inside the ingestion transaction; the alarm area
# registers its evaluator here. The device is an `IngestedDevice` (a plain row; an ORM Device has
# the same attributes): a handler that changes the device loads it.
READING_HANDLERS: list[Callable[[IngestedDevice, list[Record]], None]] = []


class BatchLookup(NamedTuple):
    """What an area reads once for a batch's devices, before its handler runs: `statement()` (built
    once per dialect) reads the devices whose ids are its parameter `ids`; the batch's lookups are
    sent together in one round trip, with the batch's last write where they can be
    (api/extensions/pipeline.py). `take(rows, devices)` files the rows in `batch_context()`, where the
    area's handler finds them."""

    statement: Callable[[], Executable]
    take: Callable[[list, list[IngestedDevice]], None]


BATCH_LOOKUPS: list[BatchLookup] = []


# Set (by `replaying`) while readings that were received live in a simulation are stored after the fact
# (the demo's history): the areas judge each reading as of its own time, as they would have live.
REPLAY = "ingest.replay"


@contextmanager
def replaying() -> Iterator[None]:
    g.setdefault(REPLAY, True)
    try:
        yield
    finally:
        g.pop(REPLAY, None)


def batch_context() -> dict | None:
    """What the lookups found for the batch being ingested (None outside `ingest_many`). Keys are
    namespaced by area ("alarm.limits" ...); an entry is for the devices of this batch only."""
    return g.get("ingest_batch")


def forget_prepared(device_id: int) -> None:
    """A handler changed what the lookups found for this device (a waybill applied its limits):
    later handlers look it up afresh."""
    for value in (batch_context() or {}).values():
        if isinstance(value, dict):
            value.pop(device_id, None)


@dataclass
class IngestResult:
    accepted: int = 0
    duplicates: int = 0
    rejected: list[dict] = field(default_factory=list)
    kept: int = 0  # records that passed validation (their readings stored or already stored)
    conflicts: int = 0  # of the duplicates, values differing from the stored reading (kept beside it)


class DeviceRefusedError(Exception):
    """The whole batch is refused (device disabled, scrapped, or past its upload grace)."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class UnknownDeviceError(Exception):
    """An HTTP upload's device is unknown or its credential wrong."""


class ForeignUploadError(Exception):
    """An HTTP upload carries another device's GUID than its credential's."""


@dataclass(frozen=True)
class DeviceUpload:
    """One HTTP upload as it came: the credential headers and the body's GUID and records."""

    device_guid: str | None  # X-Device-Id
    device_key: str | None  # X-Device-Key
    guid: str
    records: list


# An upload of more records than this is stored in a transaction of its own, not in a group commit:
# its own work dwarfs what a shared transaction saves, the group's small uploads would wait for it,
# and one device's readings of a large batch take the store's COPY path (api/telemetry/store.py),
# which a group of several devices does not.
ALONE_RECORDS = 100


def travels_alone(upload: DeviceUpload) -> bool:
    return isinstance(upload.records, list) and len(upload.records) > ALONE_RECORDS


def refusal(device: IngestedDevice, now: datetime) -> str | None:
    if device.voided_at is not None:
        return lazy_gettext("This GUID has been voided; it no longer accepts data.")
    if device.deleted or device.scrapped_at is not None:
        return lazy_gettext("This device has been scrapped or deleted; it no longer accepts data.")
    if not device.enabled:
        return lazy_gettext("This device is disabled; it no longer accepts data.")
    if device.service_expires_at is not None and now > device.service_expires_at + UPLOAD_GRACE:
        return lazy_gettext("The service of this device expired more than three months ago.")
    return None


def ingest(device: IngestedDevice, raw_records) -> IngestResult:
    """One device's upload (HTTP, the demo): the batch path with a batch of one, so both ways in store,
    evaluate and answer alike. Raises DeviceRefusedError for a refused device."""
    [outcome] = ingest_many([(device, raw_records)])
    if isinstance(outcome, DeviceRefusedError):
        raise outcome
    return outcome


def ingest_uploads(uploads: list[DeviceUpload]) -> list[IngestResult | Exception]:
    """HTTP uploads that arrived together (at most one per device): authenticated with one query and
    ingested in one transaction. The outcome of each, in order: its result, or the error that refused
    it (UnknownDeviceError, ForeignUploadError, DeviceRefusedError)."""
    devices = authenticate_many([(upload.device_guid, upload.device_key) for upload in uploads])
    outcomes: list[IngestResult | Exception | None] = []
    accepted: list[tuple[int, IngestedDevice, list]] = []
    for index, (upload, device) in enumerate(zip(uploads, devices, strict=True)):
        if device is None:
            outcomes.append(UnknownDeviceError())
        elif upload.guid != device.guid:
            outcomes.append(ForeignUploadError())
        else:
            outcomes.append(None)
            accepted.append((index, device, upload.records))
    if accepted:
        results = ingest_many([(device, records) for _index, device, records in accepted])
        for (index, _device, _records), result in zip(accepted, results, strict=True):
            outcomes[index] = result
    return outcomes


def ingest_many(uploads: list[tuple[IngestedDevice, object]]) -> list[IngestResult | DeviceRefusedError]:
    """Many devices' uploads in one transaction (at most one upload per device), committed once;
    the result of each upload (or its refusal) in order. The device states are locked first, in
    device order, so two subscribers' batches never deadlock on them."""
    if len({device.id for device, _raw in uploads}) != len(uploads):
        raise ValueError("one upload per device in a batch")
    now = utcnow()
    profiles = _type_profiles({device.device_type_id for device, _raw in uploads})
    if _streams(uploads):
        [(device, raw_records)] = uploads
        return [_ingest_streamed(device, raw_records, profiles[device.device_type_id], now)]
    results: list[IngestResult | DeviceRefusedError] = []
    work: list[tuple[IngestedDevice, list[Record], IngestResult]] = []
    for device, raw_records in uploads:
        reason = refusal(device, now)
        if reason:
            results.append(DeviceRefusedError(reason))
            continue
        parsed = parse_records(raw_records, profiles[device.device_type_id].ranges, now, device.created_at)
        result = IngestResult(rejected=parsed.rejected, kept=len(parsed.records))
        results.append(result)
        if parsed.records:
            work.append((device, parsed.records, result))
    if not work:
        return results
    work.sort(key=lambda item: item[0].id)
    states = _lock_states([device.id for device, _records, _result in work])
    rows = []
    for device, records, result in work:
        mine = list(_reading_rows(device.id, records))
        result.duplicates = len(mine)  # minus the new ones below
        rows.extend(mine)
    samples = [sample for device, records, _result in work for sample in sample_rows(device.id, records)]
    moved = [
        states[device.id]
        for device, records, _result in work
        if _advance_state(states[device.id], records, _offline_after(device, profiles[device.device_type_id]))
    ]
    accepted = write_batch(rows, samples, moved)
    doubled = set()
    for device, _records, result in work:
        result.accepted = accepted.get(device.id, 0)
        result.duplicates -= result.accepted
        if result.duplicates:
            doubled.add(device.id)
    if doubled:
        _keep_conflicts([row for row in rows if row[0] in doubled], work)
    _handle_readings(work)
    db.session.commit()
    return results


def _streams(uploads: list[tuple[IngestedDevice, object]]) -> bool:
    """One device's large batch on PostgreSQL is stored while its records are checked."""
    if len(uploads) != 1 or db.engine.dialect.name != "postgresql":
        return False
    raw_records = uploads[0][1]
    return isinstance(raw_records, list) and ALONE_RECORDS < len(raw_records) <= MAX_RECORDS


def _ingest_streamed(
    device: IngestedDevice, raw_records: list, profile: TypeProfile, now: datetime
) -> IngestResult | DeviceRefusedError:
    """`ingest_many` of one device's large batch: its state locked first, then each record checked
    as its readings stream into the store, so the database writes the first readings while this
    process checks the rest (store.stream_device_rows). Readings that need the checked insert (one
    stored already, or older than the store's horizon) are stored the usual way once every record
    is checked."""
    reason = refusal(device, now)
    if reason:
        return DeviceRefusedError(reason)
    # The store's savepoint is set in the state lock's round trip: a failed COPY keeps the lock.
    state = _lock_states([device.id], then=SET_SAVEPOINT)[device.id]
    parsed = Parsed()
    records = checked_records(raw_records, profile.ranges, now, device.created_at, parsed)
    rows = _reading_rows(device.id, records)
    finished: list[tuple[list[dict], list]] = []

    def finish() -> tuple[list[dict], list]:
        """The batch's samples and moved state, made once every record is checked."""
        if not finished:
            moved = [state] if _advance_state(state, parsed.records, _offline_after(device, profile)) else []
            finished.append((sample_rows(device.id, parsed.records), moved))
        return finished[0]

    result = IngestResult(rejected=parsed.rejected)
    streamed = stream_batch(rows, finish, _lookups([device]))
    if streamed is None:
        for _row in rows:  # the records the store did not take are checked as well
            pass
        mine = list(_reading_rows(device.id, parsed.records))
        stored, found = write_batch(mine, *finish(), maybe_stored=True).get(device.id, 0), None
        result.duplicates = len(mine) - stored
        if result.duplicates:
            _keep_conflicts(mine, [(device, parsed.records, result)])
    else:
        stored, found = streamed
    result.accepted, result.kept = stored, len(parsed.records)
    if parsed.records:
        _handle_readings([(device, parsed.records, result)], found)
    db.session.commit()
    return result


def _keep_conflicts(rows: list, work: list[tuple[IngestedDevice, list[Record], IngestResult]]) -> None:
    """Duplicates whose value differs from the stored reading are kept beside it, never dropped."""
    kept = keep_conflicts(rows)
    by_device = {device.id: result for device, _records, result in work}
    for device_id, count in kept.items():
        by_device[device_id].conflicts = count


def _lock_states(ids: list[int], then: Query | None = None) -> dict:
    """The devices' states (`locked_states`), locked in device order; a device's first upload
    creates its state row: all missing rows at once, in device order (a row another batch is
    creating right now is waited for, not inserted twice). `then` is sent in the lock's round trip,
    and again after the rows created (so a savepoint comes after them)."""
    states = locked_states(ids, then)
    missing = [device_id for device_id in ids if device_id not in states]
    if missing:
        dialect = postgresql if db.engine.dialect.name == "postgresql" else sqlite
        db.session.connection().execute(
            dialect.insert(DeviceState.__table__).on_conflict_do_nothing(),
            [{"device_id": device_id, "values": {}, "alarm_active": False, "fault": False} for device_id in missing],
        )
        states.update(locked_states(missing, then))
    return states


def _reading_rows(device_id: int, records: Iterable[Record]) -> Iterator[tuple[int, int, datetime, float]]:
    """The records' readings as the store's rows (a fault, None, is not a reading)."""
    return (
        (device_id, sensor, record.ts, value)
        for record in records
        for sensor, value in record.readings.items()
        if value is not None
    )


def _offline_after(device: IngestedDevice, profile: TypeProfile) -> timedelta:
    return timedelta(seconds=device.interval_s * profile.offline_after_intervals)


def _lookups(devices: list[IngestedDevice]) -> list[Query]:
    ids = [device.id for device in devices]
    return [(lookup.statement(), {"ids": ids}) for lookup in BATCH_LOOKUPS]


def _handle_readings(
    work: list[tuple[IngestedDevice, list[Record], IngestResult]], found: list[list] | None = None
) -> None:
    """The areas' lookups (`found`: their rows, when they were sent with the batch's write), then
    their handlers, for the devices whose readings were stored."""
    devices = [device for device, _records, _result in work]
    g.ingest_batch = {REPLAY: bool(g.get(REPLAY))}
    try:
        if found is None:
            found = fetch_together(db.session.connection(), _lookups(devices))
        for lookup, rows in zip(BATCH_LOOKUPS, found, strict=True):
            lookup.take(rows, devices)
        for device, records, _result in work:
            for handler in READING_HANDLERS:
                handler(device, records)
    finally:
        g.pop("ingest_batch", None)


class TypeProfile(NamedTuple):
    """What ingestion reads of a device's type on every upload."""

    ranges: dict[int, tuple[float | None, float | None]]  # probe -> (min, max)
    offline_after_intervals: int


# Catalogue rows (sync-catalogue, the back office), read by every upload: a per-process snapshot, so
# neither a query nor a per-device ORM load of the type (a subscriber's batch holds hundreds).
_profiles: Snapshots[TypeProfile] = Snapshots(DeviceType, DeviceParam)


def _type_profiles(type_ids: set[int]) -> dict[int, TypeProfile]:
    def load(type_id: int) -> TypeProfile:
        rows = db.session.execute(
            select(DeviceParam.probe_id, DeviceParam.param_min, DeviceParam.param_max).where(
                DeviceParam.device_type_id == type_id, DeviceParam.probe_id.is_not(None)
            )
        )
        intervals = db.session.scalar(select(DeviceType.offline_after_intervals).where(DeviceType.id == type_id))
        return TypeProfile({probe: (low, high) for probe, low, high in rows}, intervals)

    return {type_id: _profiles.get(type_id, partial(load, type_id)) for type_id in type_ids}


_BY_TIME = attrgetter("ts")
# A record's optional data, kept in the state: the latest reported value of each.
_REPORTED = tuple((name, attrgetter(name)) for name in ("battery", "signal", "lat", "lng"))


def _advance_state(state, records: list[Record], offline_after: timedelta) -> bool:
    """The latest state moves forward only: late (buffered) records never overwrite newer values.
    `state`: anything with the state's attributes (an ORM row or the batch's plain copy); the device
    counts as offline `offline_after` its latest record unless it reports again. True if it moved."""
    last = state.last_data_at
    newer = records if last is None else [r for r in records if r.ts >= last]
    if not newer:
        return False
    newer = sorted(newer, key=_BY_TIME)  # stable: of two records at one time, the later one counts
    latest: dict[int, float | None] = {}
    for record in newer:
        latest.update(record.readings)
    values = dict(state.values or {})
    values.update({str(sensor): value for sensor, value in latest.items()})
    with_readings = next((r for r in reversed(newer) if r.readings), None)
    if with_readings is not None:
        state.fault = any(value is None for value in with_readings.readings.values())
    for name, reported_by in _REPORTED:
        reported = next((v for v in map(reported_by, reversed(newer)) if v is not None), None)
        if reported is not None:
            setattr(state, name, reported)
    state.values = values
    state.last_data_at = newer[-1].ts
    state.offline_at = newer[-1].ts + offline_after
    return True
