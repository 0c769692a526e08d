"""Storage reports through the existing export machinery (api/report): a report kind resolving a cold
storage, freezer or virtual storage into one subject per device with the probes placed in it (their
alarm limits, statistics and MKT per probe), plus the storage's own sections in the PDF (the storage,
its probes and zones, the MKT of all its temperature probes together, its MKT alarms). CSV / XLSX
carry the window's readings of those probes; everything lands in the download centre."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from flask_babel import gettext
from sqlalchemy import select

from api.device.catalogue import catalogue_text
from api.device.models import Device
from api.extensions.db import db
from api.extensions.i18n import N_, local_text, requested_zone
from api.extensions.smorest import ApiError
from api.identity.auth import require_account
from api.report import services as reports
from api.report.kinds import ReportKind, ScheduleTarget, Subject, device_sensors
from api.report.models import ExportFile, FileType
from api.report.stats import celsius_to_fahrenheit
from api.storage import services, tabs
from api.storage.models import ColdStorage, StorageAlarm, StorageKind

KIND_LABELS = {
    StorageKind.STORAGE: N_("Cold storage"),
    StorageKind.FREEZER: N_("Freezer"),
    StorageKind.VIRTUAL: N_("Virtual storage"),
}
ZONE_LABELS = {
    "door": N_("Door"),
    "middle": N_("Middle"),
    "evaporator": N_("Evaporator"),
    "return_air": N_("Return air"),
    "other": N_("Other"),
}


def subject_params(storage: ColdStorage, devices: dict[int, Device], shown: Callable[[Device, int], bool]) -> dict:
    """The subject part of a storage report's params, for a request and for a scheduled run alike: the
    storage, the devices of its probes that are `shown`, their owners (fixed now) and those probes."""
    probes: dict[str, list[int]] = {}
    for probe in storage.probes:
        device = devices.get(probe.device_id)
        if device is not None and shown(device, probe.sensor):
            probes.setdefault(str(device.id), []).append(probe.sensor)
    chosen = [devices[int(device_id)] for device_id in probes]
    return {
        "storageId": storage.id,
        "deviceIds": [device.id for device in chosen],
        "owners": {str(device.id): device.owner_account_id for device in chosen},
        "probes": probes,
    }


def _for_caller(storage_id: int, kind: StorageKind | None = None) -> tuple[ColdStorage, dict]:
    """The subject params of a storage the signed-in account reports on: the probes it may see on the
    chart tab; refused without one, or when a device's data may no longer be downloaded."""
    if kind is None:
        storage = services.admitted_or_visible(storage_id)
        if storage is None:
            raise services.storage_not_found("storageId")
        kind = storage.kind
    storage, devices = services.loaded(storage_id, kind, "chart")
    subject = subject_params(storage, devices, lambda device, sensor: services.probe_visible(device, sensor, "chart"))
    if not subject["probes"]:
        raise ApiError(gettext("This storage has no probe to report on."), code=3006)
    for device_id in subject["deviceIds"]:
        reports.ensure_downloadable(devices[device_id])
    return storage, subject


def request_report(args: dict, kind: StorageKind) -> ExportFile:
    """Queue a storage's report (pdf) or its probes' readings (csv, xlsx) over a window, with the
    probes the caller may see on the chart tab (fixed now, while the requester is known)."""
    storage, subject = _for_caller(args["storageId"], kind)
    account = require_account()
    file_type = FileType(args["fileType"])
    zone = requested_zone() or ZoneInfo(storage.time_zone)
    start, end = args["startTime"], args["endTime"]
    span = f"{start.astimezone(zone):%Y%m%d}-{end.astimezone(zone):%Y%m%d}"
    name = f"{storage.name}_{span}.{reports.EXTENSIONS[file_type]}"
    export = ExportFile(
        platform_id=storage.platform_id,
        owner_account_id=account.id,
        name="".join("_" if ch in '/\\:*?"<>|' else ch for ch in name)[:120],
        file_type=file_type,
        kind="storage",
        params={
            **subject,
            "start": start.isoformat(),
            "end": end.isoformat(),
            "timeZone": zone.key,
            "unit": args.get("unit") or account.temperature_unit or "C",
            "locale": reports.request_locale(),
        },
    )
    export.version = reports.next_version(export)
    db.session.add(export)
    db.session.commit()
    return export


def check_scheduled(storage_id: int) -> list[Device]:
    """A scheduled storage report's storage, as its on-demand report checks it (seen, with a probe
    on the chart tab): the devices it covers."""
    _storage, subject = _for_caller(storage_id)
    return list(db.session.scalars(select(Device).where(Device.id.in_(subject["deviceIds"]))))


def scheduled_run(storage_id: int, owner_account_id: int) -> tuple[dict[str, Any], str]:
    """A scheduled run's subject params (nobody is signed in): the storage's probes on the schedule
    owner's own devices, as a scheduled device report covers the owner's own devices. A storage
    deleted since leaves none (the run's file fails with the reason)."""
    storage = db.session.get(ColdStorage, storage_id)
    if storage is None:
        return {"storageId": storage_id, "deviceIds": [], "owners": {}, "probes": {}}, ""
    ids = {probe.device_id for probe in storage.probes}
    owned = select(Device).where(
        Device.id.in_(ids), Device.owner_account_id == owner_account_id, Device.deleted.is_(False)
    )
    devices = {device.id: device for device in db.session.scalars(owned)}
    return subject_params(storage, devices, lambda device, sensor: True), storage.name


def storage_subjects(params: dict[str, Any], owner_account_id: int) -> list[Subject]:
    storage = db.session.get(ColdStorage, params["storageId"])
    if storage is None:
        return []
    start, end = datetime.fromisoformat(params["start"]), datetime.fromisoformat(params["end"])
    by_id = {d.id: d for d in db.session.scalars(select(Device).where(Device.id.in_(params["deviceIds"])))}
    subjects = []
    for device_id in params["deviceIds"]:
        device = by_id.get(device_id)
        if device is None or device.deleted or params["owners"].get(str(device_id)) != device.owner_account_id:
            continue  # released or transferred since the request
        sensors = device_sensors(device, params["probes"].get(str(device_id)))
        if sensors:
            subjects.append(Subject(device, sensors, start, end, title=_title(storage, device)))
    if subjects:
        subjects[0].extra["sections"] = sections(storage, subjects, params)
    return subjects


def _title(storage: ColdStorage, device: Device) -> str:
    return gettext("Storage report %(name)s: %(device)s", name=storage.name, device=device.name or device.guid)


def _degrees(value: float | None, unit: str) -> str:
    if value is None:
        return "-"
    shown = celsius_to_fahrenheit(value) if unit == "F" else value
    return f"{shown:.2f} °{unit}"


# Sections other areas add to the storage report (the budget area's lots): each is called with
# (storage, start, end, zone) and returns sections.
STORAGE_SECTIONS: list[Callable[..., list[tuple[str, list[list[str]], bool]]]] = []


def sections(storage: ColdStorage, subjects: list[Subject], params: dict) -> list[tuple[str, list[list[str]], bool]]:
    zone = ZoneInfo(params["timeZone"])
    unit = params.get("unit", "C")
    start, end = subjects[0].start, subjects[0].end
    temperature = [(s.device.id, sensor.probe) for s in subjects for sensor in s.sensors if sensor.temperature]
    mkt = tabs.window_mkt(temperature, start, end)
    info = [
        [gettext("Storage"), storage.name, gettext("Type"), gettext(KIND_LABELS[storage.kind])],
        [gettext("From"), local_text(start, zone, seconds=False), gettext("To"), local_text(end, zone, seconds=False)],
        [gettext("MKT of the storage"), _degrees(mkt, unit), gettext("Temperature probes"), str(len(temperature))],
    ]
    if storage.mkt_enabled:
        info.append(
            [
                gettext("MKT alarm window"),
                f"{storage.mkt_window_hours} h",
                gettext("MKT alarm limit"),
                _degrees(storage.mkt_limit, unit),
            ]
        )
    shown = {(s.device.id, sensor.probe) for s in subjects for sensor in s.sensors}
    names = {s.device.id: s.device.name or s.device.guid for s in subjects}
    placed = [[gettext("Device"), gettext("Sensor"), gettext("Zone"), gettext("Probe name")]]
    for probe in storage.probes:
        if (probe.device_id, probe.sensor) in shown:
            zone_label = gettext(ZONE_LABELS.get(probe.zone.value, ZONE_LABELS["other"]))
            placed.append([names[probe.device_id], str(probe.sensor), zone_label, catalogue_text(probe.name) or "-"])
    alarms = [[gettext("Opened"), gettext("Closed"), gettext("Limit"), gettext("Peak MKT")]]
    for alarm in db.session.scalars(
        select(StorageAlarm)
        .where(
            StorageAlarm.storage_id == storage.id,
            StorageAlarm.opened_at < end,
            (StorageAlarm.closed_at.is_(None)) | (StorageAlarm.closed_at >= start),
        )
        .order_by(StorageAlarm.opened_at)
    ):
        closed = local_text(alarm.closed_at, zone, seconds=False) if alarm.closed_at else gettext("Open")
        opened = local_text(alarm.opened_at, zone, seconds=False)
        alarms.append([opened, closed, _degrees(alarm.limit_value, unit), _degrees(alarm.peak_value, unit)])
    result = [(gettext("Storage"), info, False), (gettext("Probes"), placed, True)]
    if len(alarms) > 1:
        result.append((gettext("MKT alarms"), alarms, True))
    return result + [section for contributor in STORAGE_SECTIONS for section in contributor(storage, start, end, zone)]


STORAGE_KIND = ReportKind(
    "storage",
    N_("Storage report"),
    storage_subjects,
    # Scheduled too (issue 47): a schedule names its storage as the on-demand report does.
    schedule=ScheduleTarget("storageId", N_("Choose a storage."), check_scheduled, scheduled_run),
)
