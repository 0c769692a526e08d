"""The registry of report kinds: what a file covers (which devices, sensors, range, limits).

Every export and report goes through the same machinery (job, storage, download centre, schedules,
email); a kind only says what its subjects are. `device` is the device-data export / report. Other
areas register theirs from their manifests: a waybill kind resolves the waybill's device, its start
and stop times and its upper / lower limits into one `Subject`; the storage kind resolves a storage's
probes, and is scheduled by its storage (a `ScheduleTarget`) where device reports name devices.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from flask_babel import gettext
from sqlalchemy import func, select
from sqlalchemy.orm import aliased

from api.alarm.models import Alarm, AlarmDisposition, AlarmStatus, SensorLimit
from api.device.models import Device, DeviceParam
from api.extensions.db import db
from api.extensions.i18n import N_
from api.identity.models import Account

# The catalogue's parameter names, so a file shows them in its own language (one language per file).
PARAM_NAMES = (
    N_("Temperature"),
    N_("Humidity"),
    N_("Cabinet temperature"),
    N_("Probe 1"),
    N_("Probe 2"),
    N_("Probe 3"),
    N_("Probe 4"),
    N_("Energy"),
)


@dataclass
class Sensor:
    probe: int
    name: str
    unit: str  # the basic unit's label: °C, %RH ...
    temperature: bool
    precision: int
    lower: float | None = None  # the alarm limits (api.alarm SensorLimit), in the basic unit
    upper: float | None = None
    delay_minutes: int = 0
    # The kind set its own limits (a waybill's): they apply over the whole range, not the history.
    fixed_limits: bool = False
    # A measurement channel (a probe). A controller's state channels (on / off, setpoint) and its
    # energy meter are shown but are not readings a report counts (api/report/completeness).
    measurement: bool = True


@dataclass
class Subject:
    """One section of a file: a device, the sensors shown and the range."""

    device: Device
    sensors: list[Sensor]
    start: datetime
    end: datetime
    title: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ScheduleTarget:
    """How a scheduled report names a kind's subject when it is not a list of devices (a storage):
    the request field holding its id, the message when it is missing (N_), `check(id)` -> the
    devices it covers for the signed-in account (the kind's own access rule; raises its refusals),
    and `run(id, owner account id)` -> (the subject part of a run's file params, exactly what the
    kind's on-demand request writes, and a label for the file name)."""

    field: str
    missing: str
    check: Callable[[int], list[Device]]
    run: Callable[[int, int], tuple[dict[str, Any], str]]


@dataclass(frozen=True)
class ReportKind:
    key: str
    label: str  # translatable (N_)
    subjects: Callable[[dict[str, Any], int], list[Subject]]  # (params, owner account id) -> subjects
    # Applied to the written file before it is hashed (the FDA area's PAdES seal): (path, params).
    seal: Callable[[str, dict[str, Any]], None] | None = None
    # A file whose bytes were fixed elsewhere (a signed record, frozen at signing): (params) -> bytes,
    # written as they are, never rendered again.
    stored: Callable[[dict[str, Any]], bytes] | None = None
    listed: bool = True  # offered as a scheduled report's type
    # A scheduled report of this kind names one subject of its own (a storage), not devices.
    schedule: ScheduleTarget | None = None
    # An archive (a scheduled backup): may cover no device, never expires by age (its schedule keeps
    # the newest N), and `finished(file_id)` runs once it is generated.
    archive: bool = False
    finished: Callable[[int], None] | None = None
    # A file that is not about devices (the audit trail): written by the kind itself, (path, the
    # file's row, progress), instead of from subjects by the file type's writer.
    write: Callable[[str, Any, Any], None] | None = None


def alarm_limits(device_id: int) -> dict[int, SensorLimit]:
    """The one home of limits: the alarm area's enabled per-sensor limits (what the alarms used)."""
    rows = db.session.scalars(
        select(SensorLimit).where(SensorLimit.device_id == device_id, SensorLimit.enabled.is_(True))
    )
    return {row.sensor: row for row in rows}


def device_sensors(device: Device, probes: list[int] | None = None) -> list[Sensor]:
    """The device's sensors with the owner's names (else the catalogue's, in the file's language) and
    the alarm limits."""
    params: list[DeviceParam] = [p for p in device.device_type.params if p.probe_id is not None]
    settings = device.sensor_settings or {}
    limits = alarm_limits(device.id)
    sensors = []
    for param in params:
        if probes and param.probe_id not in probes:
            continue
        own = settings.get(str(param.probe_id)) or {}
        limit = limits.get(param.probe_id)
        unit = param.unit
        sensors.append(
            Sensor(
                probe=param.probe_id,
                name=own.get("name") or gettext(param.param_name),
                unit=unit.unit_name if unit else "",
                temperature=bool(unit and unit.unit_classify == "temperature"),
                precision=param.precision,
                lower=limit.lower if limit else None,
                upper=limit.upper if limit else None,
                delay_minutes=limit.delay_minutes if limit else 0,
                measurement=param.param_type == "sensor",
            )
        )
    return sensors


def device_subjects(params: dict[str, Any], owner_account_id: int) -> list[Subject]:
    """An export fixed its devices, their owners and their visible sensors when it was requested
    (`probes`, `owners`); a scheduled report, run with nobody signed in, covers the owner's own devices."""
    start, end = datetime.fromisoformat(params["start"]), datetime.fromisoformat(params["end"])
    probes = params.get("probes")
    stmt = select(Device).where(Device.id.in_(params["deviceIds"]))
    if probes is None:
        stmt = stmt.where(Device.owner_account_id == owner_account_id)
    by_id = {d.id: d for d in db.session.scalars(stmt)}
    if probes is not None:  # a device released or transferred since the request is left out
        owners = params.get("owners", {})
        by_id = {i: d for i, d in by_id.items() if owners.get(str(i), d.owner_account_id) == d.owner_account_id}
    subjects = []
    for device_id in params["deviceIds"]:
        if device_id not in by_id:
            continue
        sensors = device_sensors(by_id[device_id], params.get("sensors"))
        if probes is not None:
            shown = set(probes.get(str(device_id), []))
            sensors = [s for s in sensors if s.probe in shown]
        subjects.append(Subject(by_id[device_id], sensors, start, end))
    return subjects


REPORT_KINDS: dict[str, ReportKind] = {}


def register_kind(kind: ReportKind) -> None:
    REPORT_KINDS[kind.key] = kind


def schedule_target(report_type: str) -> ScheduleTarget | None:
    """How a scheduled report of this type names its subject (None: by its devices)."""
    kind = REPORT_KINDS.get(report_type)
    return kind.schedule if kind is not None else None


DEVICE_KIND = ReportKind("device", N_("Device data"), device_subjects)


def alarm_records(device_id: int, start: datetime, end: datetime) -> list[Any]:
    """The alarms of a device that were open at any moment of the range (opened before its end, not
    closed before its start), oldest first, with who processed each: the report's alarm list."""
    handler = aliased(Account)
    stmt = (
        select(Alarm, handler.user_name)
        .outerjoin(handler, handler.id == Alarm.processed_by)
        .where(
            Alarm.device_id == device_id,
            Alarm.status != AlarmStatus.DELAYING,
            Alarm.opened_at < end,
            (Alarm.closed_at.is_(None)) | (Alarm.closed_at >= start),
        )
        .order_by(Alarm.opened_at, Alarm.id)
    )
    return list(db.session.execute(stmt).all())


def disposition_history(alarm_ids: list[int]) -> dict[int, list[tuple[AlarmDisposition, str | None]]]:
    """Every processing decision of these alarms, oldest first, with the name of who took it."""
    if not alarm_ids:
        return {}
    who = aliased(Account)
    rows = db.session.execute(
        select(AlarmDisposition, func.coalesce(who.real_name, who.user_name))
        .outerjoin(who, who.id == AlarmDisposition.account_id)
        .where(AlarmDisposition.alarm_id.in_(alarm_ids))
        .order_by(AlarmDisposition.alarm_id, AlarmDisposition.id)
    ).all()
    history: dict[int, list] = {}
    for disposition, name in rows:
        history.setdefault(disposition.alarm_id, []).append((disposition, name))
    return history
