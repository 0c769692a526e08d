"""The storage detail tabs besides basic info: system overview, data chart (all probes, the device
chart queries and the alarm area's limits), alarm record, push setting, parameters, top-up; and the
rolling mean kinetic temperature (MKT) of a storage."""

from __future__ import annotations

import math
from collections import defaultdict
from datetime import datetime, timedelta

from sqlalchemy import func, select, tuple_
from sqlalchemy.dialects.postgresql import aggregate_order_by

from api.access.reach import may_view
from api.alarm.models import Alarm, AlarmStatus, Message, PushSetting
from api.alarm.push import as_dict as push_dict
from api.alarm.push import save as push_save
from api.alarm.rules import limits_of
from api.device.catalogue import catalogue_text
from api.device.models import CommandStatus, Device, DeviceCommand, ReadWrite
from api.extensions.db import db, utcnow
from api.report.stats import DELTA_H_OVER_R, KELVIN, mkt_from_sum
from api.storage import listing, services
from api.storage.models import ColdStorage, StorageAlarm, StorageKind
from api.telemetry import queries
from api.telemetry.readings import reading_source
from api.units import to_unit


def overview(storage_id: int, kind: StorageKind) -> dict:
    """Live values per probe and the controller's state (setpoint, compressor, fan, defrost, door, light)."""
    storage, devices = services.loaded(storage_id, kind, "realtime")
    now = utcnow()
    probes = listing.probe_rows(storage, devices, now, "realtime")
    controller = devices.get(storage.controller_device_id) if storage.controller_device_id else None
    state = controller.state if controller is not None else None
    values = (state.values or {}) if state else {}

    def channel(name: str):
        sensor = services.STATE_CHANNELS[name]
        if controller is None or not services.probe_visible(controller, sensor, "realtime"):
            return None
        value = values.get(str(sensor))
        return None if value is None else (value if name == "setpoint" else value >= 0.5)

    open_alarms = listing.open_alarm_counts([storage], devices).get(storage.id, 0)
    return {
        "storageId": storage.id,
        "status": listing.status(storage, devices, open_alarms, now),
        "probes": probes,
        **{name: channel(name) for name in services.STATE_CHANNELS},
        "controllerOnline": listing.controller_dict(controller, now)["online"] if controller else None,
        "lastDataTime": max((p["lastDataTime"] for p in probes if p["lastDataTime"]), default=None),
        "alarm": bool(open_alarms) or any(p["alarm"] for p in probes),
        "mkt": rolling_mkt(storage, now) if storage.mkt_enabled else None,
    }


def chart(args: dict, kind: StorageKind) -> dict:
    """Every visible probe of the storage on one chart, with its limit lines, at most ~2,000 points each."""
    storage, devices = services.loaded(args["storageId"], kind, "chart")
    by_device: dict[int, list] = defaultdict(list)
    for probe in storage.probes:
        if services.probe_visible(devices.get(probe.device_id), probe.sensor, "chart"):
            by_device[probe.device_id].append(probe)
    series, width = [], 0
    for device_id, probes in by_device.items():
        device = devices[device_id]
        limits = limits_of(device.id)
        data = queries.chart(device.id, [p.sensor for p in probes], args["start"], args["end"], device.interval_s)
        width = max(width, data["bucketSeconds"])
        for probe in probes:
            param = services.param_of(device, probe.sensor)
            unit_code = param.unit.unit_code if param.unit else None
            points = data["series"].get(probe.sensor, [])
            for point in points:
                for key in ("v", "min", "max"):
                    if point.get(key) is not None:
                        point[key] = to_unit(point[key], unit_code, args["unit"])
            limit = limits.get(probe.sensor)
            series.append(
                {
                    "key": f"{device.id}-{probe.sensor}",
                    "deviceId": device.id,
                    "sensor": probe.sensor,
                    "probeName": catalogue_text(probe.name or param.param_name),
                    "zone": probe.zone.value,
                    "unit": _unit_label(param, args["unit"]),
                    "upper": _bound(limit and limit.upper, unit_code, args["unit"]),
                    "lower": _bound(limit and limit.lower, unit_code, args["unit"]),
                    "points": points,
                }
            )
    return {"bucketSeconds": width, "unit": args["unit"], "series": series}


def _unit_label(param, wanted: str) -> str | None:
    if param.unit is None:
        return None
    return "°F" if wanted == "F" and param.unit.unit_code == "celsius" else param.unit.unit_name


def _bound(value: float | None, unit_code: str | None, wanted: str) -> float | None:
    return None if value is None else to_unit(value, unit_code, wanted)


def alarms(args: dict, kind: StorageKind) -> dict:
    """The alarms of the storage's visible probes and devices (offline, battery) and the storage's own
    (rolling MKT), newest first."""
    storage, devices = services.loaded(args["storageId"], kind, "alarm")
    scope = listing.alarm_scope(storage, devices)
    device_ids = scope[1]
    rows: list[dict] = []
    if device_ids:
        stmt = select(Alarm).where(Alarm.device_id.in_(device_ids), Alarm.status != AlarmStatus.DELAYING)
        if args.get("status"):
            stmt = stmt.where(Alarm.status == AlarmStatus(args["status"]))
        found = [
            alarm
            for alarm in db.session.scalars(stmt.order_by(Alarm.id.desc()).limit(500))
            if listing.in_scope(alarm.device_id, alarm.sensor, scope)
        ]
        # The owner's message of each alarm: processed through it, as the device's alarm list does.
        messages = dict(
            db.session.execute(
                select(Message.alarm_id, Message.id).where(Message.alarm_id.in_([a.id for a in found]))
            ).all()
        )
        probes = {(p.device_id, p.sensor): p for p in storage.probes}
        for alarm in found:
            probe = probes.get((alarm.device_id, alarm.sensor))
            param = services.param_of(devices[alarm.device_id], alarm.sensor) if probe else None
            rows.append(
                {
                    "id": f"d{alarm.id}",
                    "source": "device",
                    "deviceId": alarm.device_id,
                    "deviceName": devices[alarm.device_id].name,
                    "sensor": alarm.sensor,
                    "probeName": (probe.name or (param.param_name if param else None)) if probe else None,
                    "zone": probe.zone.value if probe else None,
                    "unit": param.unit.unit_name if param is not None and param.unit else None,
                    "kind": alarm.kind.value,
                    "status": alarm.status.value,
                    "openTime": alarm.opened_at,
                    "closeTime": alarm.closed_at,
                    "limitValue": alarm.limit_value,
                    "peakValue": alarm.peak_value,
                    "lastValue": alarm.last_value,
                    "closeReason": alarm.close_reason,
                    "messageId": messages.get(alarm.id),
                    "processState": alarm.process_state.value,
                    "result": alarm.result,
                }
            )
    own = select(StorageAlarm).where(StorageAlarm.storage_id == storage.id)
    if args.get("status"):
        own = own.where(StorageAlarm.status == args["status"])
    for alarm in db.session.scalars(own.order_by(StorageAlarm.id.desc()).limit(500)):
        rows.append(
            {
                "id": f"s{alarm.id}",
                "source": "storage",
                "deviceId": None,
                "deviceName": None,
                "sensor": None,
                "probeName": None,
                "zone": None,
                "unit": "°C",
                "kind": alarm.kind,
                "status": alarm.status.value,
                "openTime": alarm.opened_at,
                "closeTime": alarm.closed_at,
                "limitValue": alarm.limit_value,
                "peakValue": alarm.peak_value,
                "lastValue": alarm.last_value,
                "closeReason": None,
                "messageId": None,
                "processState": None,
                "result": None,
            }
        )
    rows.sort(key=lambda row: row["openTime"] or datetime.min.replace(tzinfo=utcnow().tzinfo), reverse=True)
    first = (args["start"] - 1) * args["pageSize"]
    return {"list": rows[first : first + args["pageSize"]], "total": len(rows)}


def _push_devices(storage: ColdStorage, devices: dict[int, Device]) -> list[Device]:
    ordered = [storage.controller_device_id] + [p.device_id for p in storage.probes]
    return [devices[i] for i in dict.fromkeys(ordered) if i in devices]


def push_setting(storage_id: int, kind: StorageKind) -> dict:
    """The storage's push setting: its controller's (or first device's); saving sets every device's."""
    storage, devices = services.loaded(storage_id, kind, "push")
    targets = _push_devices(storage, devices)
    if not targets:
        raise services.not_found()
    first = targets[0]
    return {**push_dict(first, db.session.get(PushSetting, first.id)), "storage_id": storage.id}


def save_push_setting(data: dict, kind: StorageKind) -> dict:
    """Saved per device as one object: each device's stored setting takes what the form sends (levels
    by number, fields it omits keep the device's own), all devices in one transaction."""
    storage, devices = services.loaded(data["storage_id"], kind, "push")
    services.require_write(storage, devices)
    targets = _push_devices(storage, devices)
    if not targets:
        raise services.not_found()
    for device in targets:  # every device is checked before anything is committed
        push_save(device, {key: value for key, value in data.items() if key != "storage_id"})
    db.session.commit()
    first = targets[0]
    return {**push_dict(first, db.session.get(PushSetting, first.id)), "storage_id": storage.id}


def params(storage_id: int, kind: StorageKind) -> dict:
    """The controller's parameters with their last reported value and the state of their last command."""
    storage, devices = services.loaded(storage_id, kind, "params")
    device = devices.get(storage.controller_device_id) if storage.controller_device_id else None
    if device is None:
        return {"deviceId": None, "params": []}
    values = (device.state.values or {}) if device.state else {}
    commands = db.session.scalars(
        select(DeviceCommand).where(DeviceCommand.device_id == device.id).order_by(DeviceCommand.id.desc()).limit(200)
    ).all()
    rows = []
    for param in device.device_type.params:
        key = f"{param.param_key:04x}"
        if not may_view(device, key):
            continue
        last = next((c for c in commands if key in c.params), None)
        applied = next((c for c in commands if key in c.params and c.status == CommandStatus.APPLIED), None)
        if param.probe_id is not None:
            value = values.get(str(param.probe_id))
        else:
            value = applied.params[key] if applied else param.default_value
        rows.append(
            {
                "paramKey": key,
                "paramName": catalogue_text(param.param_name),
                "paramType": param.param_type,
                "unit": catalogue_text(param.unit.unit_name) if param.unit else None,
                "unitCode": param.unit.unit_code if param.unit else None,
                "readWrite": param.read_write.value if isinstance(param.read_write, ReadWrite) else param.read_write,
                "min": param.param_min,
                "max": param.param_max,
                "value": value,
                "commandStatus": last.status.value if last else None,
            }
        )
    return {"deviceId": device.id, "params": rows}


def top_up(storage_id: int, kind: StorageKind) -> dict:
    """Service expiry and alarm SMS / voice balance of each device; the top-up page is the service
    recharge (billing fills it)."""
    storage, devices = services.loaded(storage_id, kind, "info")
    rows = [
        {
            "deviceId": device.id,
            "deviceName": device.name,
            "deviceGuid": device.guid,
            "serviceExpireTime": device.service_expires_at,
            "smsCount": device.sms_count,
            "voiceCount": device.voice_count,
        }
        for device in _push_devices(storage, devices)
    ]
    return {"devices": rows, "rechargePath": "/consumer/recharge"}


# ---- rolling MKT -----------------------------------------------------------------------------------------


def temperature_probes(storage: ColdStorage) -> list[tuple[int, int]]:
    """(device id, sensor) of the storage's temperature probes (all of them: the alarm is the owner's)."""
    devices = {
        d.id: d for d in db.session.scalars(select(Device).where(Device.id.in_(services.device_ids_of(storage))))
    }
    probes = []
    for probe in storage.probes:
        device = devices.get(probe.device_id)
        param = services.param_of(device, probe.sensor) if device else None
        if param is not None and param.unit is not None and param.unit.unit_code == "celsius":
            probes.append((probe.device_id, probe.sensor))
    return probes


def rolling_mkt(storage: ColdStorage, now: datetime) -> float | None:
    """MKT (ΔH/R = 10,000 K) of every reading of the storage's temperature probes in the window."""
    probes = temperature_probes(storage)
    if not probes:
        return None
    value = window_mkt(probes, now - timedelta(hours=storage.mkt_window_hours), now)
    return None if value is None else round(value, 2)


def window_mkt(probes: list[tuple[int, int]], start: datetime, end: datetime) -> float | None:
    """MKT of every reading of these (device id, sensor) probes with start <= ts <= end, in °C."""
    if not probes:
        return None
    r = reading_source(start, end)
    where = (tuple_(r.c.device_id, r.c.sensor).in_(probes), r.c.ts >= start, r.c.ts <= end)
    if db.engine.dialect.name == "postgresql":
        # Summed in (device, sensor, ts) order: a float sum depends on its order, and the physical
        # order of readings changes when old days are packed; this way the MKT never does.
        term = func.exp(-DELTA_H_OVER_R / (r.c.value + KELVIN))
        ordered = aggregate_order_by(term, r.c.device_id, r.c.sensor, r.c.ts)
        total, count = db.session.execute(select(func.sum(ordered), func.count()).where(*where)).one()
    else:  # SQLite has no exp(): the window's values through Python
        values = db.session.scalars(select(r.c.value).where(*where).order_by(r.c.device_id, r.c.sensor, r.c.ts)).all()
        total, count = sum(math.exp(-DELTA_H_OVER_R / (v + KELVIN)) for v in values), len(values)
    return mkt_from_sum(float(total or 0.0), int(count or 0))
