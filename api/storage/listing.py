"""What a storage shows: its probes with their live values, its state, its controller, and the pages,
counts and detail built from them."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import func, select

from api.access.reach import may_view
from api.alarm.models import Alarm, AlarmStatus
from api.alarm.rules import limits_of
from api.device.catalogue import catalogue_text
from api.device.models import Device, DeviceState
from api.device.status import DeviceStatus, status_of
from api.extensions.db import db, utcnow
from api.identity.auth import require_account
from api.storage.models import ColdStorage, StorageAlarm, StorageAlarmStatus, StorageKind
from api.storage.services import (
    LIVE,
    blocks_of,
    device_ids_of,
    find,
    image_url,
    param_of,
    probe_visible,
    viewer_devices,
    visible_storages,
    writable,
)


def open_storage_alarms(storage_ids: list[int]) -> dict[int, int]:
    if not storage_ids:
        return {}
    rows = db.session.execute(
        select(StorageAlarm.storage_id, func.count())
        .where(StorageAlarm.storage_id.in_(storage_ids), StorageAlarm.status == StorageAlarmStatus.OPEN)
        .group_by(StorageAlarm.storage_id)
    )
    return dict(rows.all())


def alarm_scope(storage: ColdStorage, devices: dict[int, Device]) -> tuple[set[tuple[int, int]], set[int]]:
    """Whose alarms are the storage's, for this viewer: the (device, sensor) of its probes the viewer may
    see in the alarm tab, and their devices plus its controller (their offline, battery and fault alarms
    too). The alarm record tab lists them and the storage's alarm count counts the open ones."""
    shown = {
        (p.device_id, p.sensor) for p in storage.probes if probe_visible(devices.get(p.device_id), p.sensor, "alarm")
    }
    device_ids = {device_id for device_id, _ in shown}
    controller = devices.get(storage.controller_device_id) if storage.controller_device_id else None
    if controller is not None and may_view(controller, "alarm"):
        device_ids.add(controller.id)
    return shown, device_ids


def in_scope(alarm_device_id: int, sensor: int | None, scope: tuple[set[tuple[int, int]], set[int]]) -> bool:
    shown, device_ids = scope
    return alarm_device_id in device_ids and (sensor is None or (alarm_device_id, sensor) in shown)


def open_alarm_counts(storages: list[ColdStorage], devices: dict[int, Device]) -> dict[int, int]:
    """Open alarms per storage: its own (rolling MKT) and its devices' of every kind (limits of its
    probes, offline, battery, fault), as its alarm record lists them; one query for the devices'."""
    counts = dict(open_storage_alarms([s.id for s in storages]))
    scopes = {s.id: alarm_scope(s, devices) for s in storages}
    ids = set().union(*(scope[1] for scope in scopes.values())) if scopes else set()
    if ids:
        rows = db.session.execute(
            select(Alarm.device_id, Alarm.sensor).where(Alarm.device_id.in_(ids), Alarm.status == AlarmStatus.OPEN)
        ).all()
        for storage_id, scope in scopes.items():
            mine = sum(1 for device_id, sensor in rows if in_scope(device_id, sensor, scope))
            if mine:
                counts[storage_id] = counts.get(storage_id, 0) + mine
    return counts


def probe_rows(storage: ColdStorage, devices: dict[int, Device], now: datetime, block: str | None = None) -> list:
    rows = []
    limits: dict[int, dict] = {}
    for probe in storage.probes:
        device = devices.get(probe.device_id)
        if not probe_visible(device, probe.sensor, block):
            continue
        if device.id not in limits:
            limits[device.id] = limits_of(device.id)
        limit = limits[device.id].get(probe.sensor)
        state: DeviceState | None = device.state
        param = param_of(device, probe.sensor)
        value = (state.values or {}).get(str(probe.sensor)) if state else None
        upper, lower = (limit.upper, limit.lower) if limit else (None, None)
        online = status_of(device, state, now) in LIVE
        rows.append(
            {
                "id": probe.id,
                "deviceId": device.id,
                "deviceName": device.name,
                "deviceGuid": device.guid,
                "sensor": probe.sensor,
                "zone": probe.zone.value,
                "probeName": catalogue_text(probe.name or param.param_name),
                "unit": param.unit.unit_name if param.unit else None,
                "precision": param.precision,
                "value": value,
                "lastDataTime": state.last_data_at if state else None,
                "online": online,
                # The last value of a device that is not live: shown with its time, marked stale.
                "stale": value is not None and not online,
                "upper": upper,
                "lower": lower,
                "alarm": value is not None
                and ((upper is not None and value > upper) or (lower is not None and value < lower)),
            }
        )
    return rows


def status(storage: ColdStorage, devices: dict[int, Device], open_alarms: int, now: datetime) -> str:
    """Derived from its devices' states and open alarms: offline when its controller (a room with one)
    or every device is not live, whatever its alarms; else alarm when any alarm is open (its devices'
    of every kind, offline included, and its own) or a device is in alarm; else online."""
    mine = [devices[i] for i in device_ids_of(storage) if i in devices]
    if not mine:
        return "empty"
    states = {device.id: status_of(device, device.state, now) for device in mine}
    controller = storage.controller_device_id
    if (controller in states and states[controller] not in LIVE) or not any(s in LIVE for s in states.values()):
        return "offline"
    if open_alarms or DeviceStatus.ALARM in states.values():
        return "alarm"
    return "online"


def as_dict(storage: ColdStorage, devices: dict[int, Device], open_alarms: int, now: datetime) -> dict:
    controller = devices.get(storage.controller_device_id) if storage.controller_device_id else None
    return {
        "id": storage.id,
        "kind": storage.kind.value,
        "storageName": storage.name,
        "volume": storage.volume,
        "area": storage.area,
        "compressor": storage.compressor,
        "airCooler": storage.air_cooler,
        "electricBox": storage.electric_box,
        "brand": storage.brand,
        "model": storage.model,
        "address": storage.address,
        "lat": storage.lat,
        "lng": storage.lng,
        "images": list(storage.images or []),
        "imageUrls": [image_url(name) for name in storage.images or []],
        "timeZone": storage.time_zone,
        "remark": storage.remark,
        "mktEnabled": storage.mkt_enabled,
        "mktWindowHours": storage.mkt_window_hours,
        "mktLimit": storage.mkt_limit,
        "defrostHoldMinutes": storage.defrost_hold_minutes,
        "doorHoldMinutes": storage.door_hold_minutes,
        "controller": controller_dict(controller, now) if controller else None,
        "probes": probe_rows(storage, devices, now),
        "status": status(storage, devices, open_alarms, now),
        "openAlarms": open_alarms,
        "mine": storage.owner_account_id == require_account().id,
        "writable": writable(storage, devices),
        "blocks": blocks_of(storage, devices),
        "gmtCreate": storage.created_at,
    }


def controller_dict(device: Device, now: datetime) -> dict:
    current = status_of(device, device.state, now)
    return {
        "deviceId": device.id,
        "deviceGuid": device.guid,
        "deviceName": device.name,
        "typeName": catalogue_text(device.device_type.type_name),
        "typeCode": device.device_type.type_code,
        "online": current in LIVE,
        "status": current.value,
    }


def _listed(kind: StorageKind, name: str | None) -> list[tuple[ColdStorage, dict[int, Device], int]]:
    stmt = visible_storages(kind).order_by(ColdStorage.id.desc())
    if name:
        stmt = stmt.where(ColdStorage.name.icontains(name, autoescape=True))
    storages = list(db.session.scalars(stmt))
    devices = viewer_devices(storages)
    alarms = open_alarm_counts(storages, devices)
    return [(s, devices, alarms.get(s.id, 0)) for s in storages]


def page(kind: StorageKind, args: dict) -> dict:
    """A page of storages with their live state. An account holds tens of storages, not thousands:
    the state filter runs on the rows (each storage's state comes from several devices)."""
    now = utcnow()
    rows = [as_dict(s, devices, alarms, now) for s, devices, alarms in _listed(kind, args.get("storageName"))]
    if args.get("status"):
        rows = [row for row in rows if row["status"] == args["status"]]
    first = (args["start"] - 1) * args["pageSize"]
    return {"list": rows[first : first + args["pageSize"]], "total": len(rows)}


def status_counts(kind: StorageKind, name: str | None = None) -> dict:
    now = utcnow()
    counts = {"all": 0, "online": 0, "offline": 0, "alarm": 0, "empty": 0}
    for storage, devices, alarms in _listed(kind, name):
        counts["all"] += 1
        counts[status(storage, devices, alarms, now)] += 1
    return counts


def detail(storage_id: int, kind: StorageKind) -> dict:
    storage = find(storage_id, kind)
    devices = viewer_devices([storage])
    return as_dict(storage, devices, open_alarm_counts([storage], devices).get(storage.id, 0), utcnow())
