"""Waybills: the rules of business-domain sections 4 and 5, start and stop (manual, by fence, at a
set time), the ignore period before alarms arm, the waybill's limits driving the device's alarms
while it is in progress (the device's own limit restored afterwards), and the disposition.

Reach: a waybill is visible to whoever may see its device (api/tenancy.visible); changing one needs
write access to the device (a shared user only looks). `find()` is the one object-level check.
A waybill as it is followed (its window, readings, track, the public lookup) is in tracking.py.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import datetime, timedelta

from flask import current_app
from flask_babel import gettext
from sqlalchemy import Select, or_, select

from api.access.gate import admitted
from api.access.reach import require_device_write, visible
from api.alarm.models import SensorLimit
from api.device.models import Device, DeviceParam, DeviceState
from api.device.services import log_event, owned_device
from api.extensions.db import db, one_of_param, paginate, per_dialect, utcnow
from api.extensions.smorest import ApiError, field_error
from api.identity.auth import require_account
from api.telemetry.device_auth import IngestedDevice
from api.telemetry.ingest import BatchLookup, batch_context, forget_prepared
from api.telemetry.records import Record
from api.waybill import fences
from api.waybill.models import Disposition, Trigger, Waybill, WaybillFenceEvent, WaybillState

FIELDS = {
    "orderNum": "order_num",
    "goodsName": "goods_name",
    "expressNumber": "express_number",
    "coolerCode": "cooler_code",
    "recordInterval": "record_interval",
    "upperLimit": "upper_limit",
    "lowerLimit": "lower_limit",
    "airFlag": "air_flag",
    "fenceModelId": "fence_model_id",
    "originFenceId": "origin_fence_id",
    "destinationFenceId": "destination_fence_id",
    "startAt": "start_at",
    "stopAt": "stop_at",
    "ignoreMinutes": "ignore_minutes",
    "senderName": "sender_name",
    "senderPhone": "sender_phone",
    "receiverCompany": "receiver_company",
    "receiverName": "receiver_name",
    "receiverPhone": "receiver_phone",
    "alarmName": "alarm_name",
    "alarmPhone": "alarm_phone",
    "alarmEmail": "alarm_email",
}


OFFLINE_CODE = 7001  # the device is offline: start again with confirm


START_AT_DEVICE_CODE = 7002  # informational: the device must be started at the device


def not_found() -> ApiError:
    return ApiError(gettext("The requested resource does not exist."), code=404, http_status=404)


def refused(message: str, code: int = 7000) -> ApiError:
    return ApiError(message, code=code)


def _visible():
    return visible(select(Waybill, Device).join(Device, Device.id == Waybill.device_id), Device).where(
        Device.deleted.is_(False)
    )


def find(waybill_id: int, *, write: bool = False) -> tuple[Waybill, Device]:
    """The object-level check of this area: the waybill of a device the account may see; `write`
    also needs write access to the device."""
    waybill = admitted("waybill", waybill_id)
    if waybill is not None:  # the gate reached its device already: the identity map holds it
        device = db.session.get(Device, waybill.device_id)
        if device is None or device.deleted:
            raise not_found()
    else:
        row = db.session.execute(_visible().where(Waybill.id == waybill_id)).one_or_none()
        if row is None:
            raise not_found()
        waybill, device = row
    if write:
        require_device_write(device)
    return waybill, device


def _online(device: Device, now: datetime) -> bool:
    state = db.session.get(DeviceState, device.id)
    return state is not None and state.offline_at is not None and state.offline_at > now


def present(waybill: Waybill, device: Device, now: datetime | None = None) -> dict:
    return {
        "waybill": waybill,
        "device": device,
        "online": _online(device, now or utcnow()),
        "editable": waybill.state != WaybillState.COMPLETED,
    }


def page(args: dict) -> dict:
    stmt = _visible()
    if args.get("keyword"):
        word = args["keyword"]
        stmt = stmt.where(
            or_(
                Waybill.waybill_num.icontains(word, autoescape=True),
                Waybill.order_num.icontains(word, autoescape=True),
                Waybill.express_number.icontains(word, autoescape=True),
                Waybill.goods_name.icontains(word, autoescape=True),
            )
        )
    if args.get("state"):
        stmt = stmt.where(Waybill.state == args["state"])
    if args.get("deviceId"):
        stmt = stmt.where(Waybill.device_id == args["deviceId"])
    found = paginate(stmt, args, Waybill.id.desc(), rows=True)
    now = utcnow()
    return {"list": [present(w, d, now) for w, d in found["list"]], "total": found["total"]}


def detail(waybill_id: int) -> dict:
    return present(*find(waybill_id))


def limit_param(device: Device) -> DeviceParam:
    """The temperature probe a waybill's limits apply to: the type's first sensor."""
    sensors = sorted(
        (p for p in device.device_type.params if p.probe_id is not None and p.param_type == "sensor"),
        key=lambda p: (p.sort_no, p.probe_id),
    )
    if not sensors:
        raise field_error("deviceId", gettext("This device cannot carry a waybill."))
    return sensors[0]


def _check_device(device: Device, args: dict) -> DeviceParam:
    if not device.device_type.supports_waybill:
        raise field_error("deviceId", gettext("This device cannot carry a waybill."))
    param = limit_param(device)
    for field in ("upperLimit", "lowerLimit"):
        value = args[field]
        if (param.param_min is not None and value < param.param_min) or (
            param.param_max is not None and value > param.param_max
        ):
            message = gettext("Must be between %(min)s and %(max)s.", min=param.param_min, max=param.param_max)
            raise field_error(field, message)
    return param


def _new_number() -> str:
    return f"WB{utcnow():%y%m%d}{secrets.randbelow(10**8):08d}"


def save(args: dict) -> dict:
    """Create or change a waybill; a completed one is kept as it was. Nothing is stored on bad input."""
    waybill = find(args["id"], write=True)[0] if "id" in args else None
    device = owned_device(args["deviceId"], write=True)
    param = _check_device(device, args)
    fences.require_own(
        {
            "fenceModelId": args.get("fenceModelId"),
            "originFenceId": args.get("originFenceId"),
            "destinationFenceId": args.get("destinationFenceId"),
        }
    )
    if waybill is not None:
        if waybill.state == WaybillState.COMPLETED:
            raise refused(gettext("A completed waybill cannot be changed."))
        if waybill.state == WaybillState.IN_PROGRESS and waybill.device_id != device.id:
            raise field_error("deviceId", gettext("Stop the waybill before changing its device."))
    else:
        waybill = Waybill(
            platform_id=device.platform_id,
            owner_account_id=device.owner_account_id,
            device_id=device.id,
            state=WaybillState.NOT_STARTED,
            fence_inside={},
        )
        db.session.add(waybill)
    waybill.device_id, waybill.sensor = device.id, param.probe_id
    waybill.waybill_num = args.get("waybillNum") or waybill.waybill_num or _new_number()
    for field, column in FIELDS.items():
        setattr(waybill, column, args.get(field))
    waybill.start_mode, waybill.stop_mode = Trigger(args["startMode"]), Trigger(args["stopMode"])
    if waybill.state == WaybillState.IN_PROGRESS:
        _apply_limit(waybill, armed=waybill.armed)
    db.session.commit()
    return detail(waybill.id)


def delete(waybill_id: int) -> None:
    waybill, _ = find(waybill_id, write=True)
    if waybill.state == WaybillState.IN_PROGRESS:
        raise refused(gettext("Stop the waybill before deleting it."))
    db.session.delete(waybill)
    db.session.commit()


# ---- start, stop, limits ---------------------------------------------------------------------------------


def start_at_device(device: Device) -> bool:
    return device.device_type.type_series in current_app.config.get("WAYBILL_START_AT_DEVICE_SERIES", ("TL",))


def start(waybill_id: int, confirm: bool = False) -> dict:
    """Manual start. An offline device asks for confirmation first (code 7001); a device that must be
    started at the device waits for its first upload (startRequestedAt)."""
    waybill, device = find(waybill_id, write=True)
    if waybill.state != WaybillState.NOT_STARTED:
        raise refused(gettext("Only a waybill that has not started can be started."))
    _require_free(waybill)
    now = utcnow()
    if start_at_device(device):
        waybill.start_requested_at = now
        log_event(device, "waybillStartRequested", waybill=waybill.id)
        db.session.commit()
        return detail(waybill.id)
    if not confirm and not _online(device, now):
        raise ApiError(
            gettext("The device is offline. Start the waybill anyway?"), code=OFFLINE_CODE, data={"needConfirm": True}
        )
    begin(waybill, device, now)
    log_event(device, "waybillStart", waybill=waybill.id)
    db.session.commit()
    return detail(waybill.id)


def stop(waybill_id: int) -> dict:
    waybill, device = find(waybill_id, write=True)
    if waybill.state != WaybillState.IN_PROGRESS:
        raise refused(gettext("Only a waybill in progress can be stopped."))
    finish(waybill, utcnow())
    log_event(device, "waybillStop", waybill=waybill.id)
    db.session.commit()
    return detail(waybill.id)


def _require_free(waybill: Waybill) -> None:
    busy = db.session.scalar(
        select(Waybill.id).where(
            Waybill.device_id == waybill.device_id, Waybill.state == WaybillState.IN_PROGRESS, Waybill.id != waybill.id
        )
    )
    if busy is not None:
        raise refused(gettext("The device is already carrying another waybill in progress."))


def begin(waybill: Waybill, device: Device, ts: datetime) -> None:
    """In progress from `ts`: the device's own limit is kept aside and the waybill's applies, disarmed
    for the ignore period."""
    waybill.state, waybill.started_at, waybill.start_requested_at = WaybillState.IN_PROGRESS, ts, None
    waybill.armed_at = ts + timedelta(minutes=waybill.ignore_minutes)
    waybill.armed = waybill.ignore_minutes == 0
    limit = db.session.scalar(
        select(SensorLimit).where(SensorLimit.device_id == device.id, SensorLimit.sensor == waybill.sensor)
    )
    waybill.saved_limit = (
        None
        if limit is None
        else {"upper": limit.upper, "lower": limit.lower, "delay": limit.delay_minutes, "enabled": limit.enabled}
    )
    _apply_limit(waybill, armed=waybill.armed)


def _apply_limit(waybill: Waybill, armed: bool) -> None:
    limit = db.session.scalar(
        select(SensorLimit).where(SensorLimit.device_id == waybill.device_id, SensorLimit.sensor == waybill.sensor)
    ) or SensorLimit(device_id=waybill.device_id, sensor=waybill.sensor, delay_minutes=0)
    limit.upper, limit.lower, limit.enabled = waybill.upper_limit, waybill.lower_limit, armed
    db.session.add(limit)
    db.session.flush()


def arm(waybill: Waybill) -> None:
    waybill.armed = True
    _apply_limit(waybill, armed=True)


# Called with the waybill when it completes, in the completing transaction (the trip
# report mailed to the alarm contact registers here: api/waybill/report.py).
COMPLETION_HANDLERS: list[Callable[[Waybill], None]] = []


def finish(waybill: Waybill, ts: datetime, *, handlers: bool = True) -> None:
    """Completed at `ts`: the device's own limit comes back (or none, if it had none); then the
    completion handlers run (`handlers=False`: history written by the demo seed, nothing mailed)."""
    waybill.state, waybill.completed_at = WaybillState.COMPLETED, ts
    limit = db.session.scalar(
        select(SensorLimit).where(SensorLimit.device_id == waybill.device_id, SensorLimit.sensor == waybill.sensor)
    )
    saved = waybill.saved_limit
    if saved is None:
        if limit is not None:
            db.session.delete(limit)
    else:
        limit = limit or SensorLimit(device_id=waybill.device_id, sensor=waybill.sensor)
        limit.upper, limit.lower = saved["upper"], saved["lower"]
        limit.delay_minutes, limit.enabled = saved["delay"], saved["enabled"]
        db.session.add(limit)
    db.session.flush()
    for handler in COMPLETION_HANDLERS if handlers else ():
        handler(waybill)


def dispose(args: dict) -> dict:
    """The receiver or the quality manager records what happens to the goods (released / rejected)."""
    waybill, _ = find(args["id"], write=True)
    if waybill.state != WaybillState.COMPLETED:
        raise refused(gettext("The goods can be released or rejected once the waybill is completed."))
    waybill.disposition = Disposition(args["disposition"])
    waybill.disposition_reason = (args.get("reason") or "").strip() or None
    waybill.disposed_by, waybill.disposed_at = require_account().id, utcnow()
    db.session.commit()
    return detail(waybill.id)


# ---- automatic start / stop: on ingest (fences, first upload) and on a schedule (times, arming) ------


@per_dialect
def _open_waybill_devices() -> Select:
    return select(Waybill.device_id).where(
        one_of_param(Waybill.device_id, "ids"), Waybill.state != WaybillState.COMPLETED
    )


def _take_open_waybill_devices(rows: list, devices: list[IngestedDevice]) -> None:
    batch_context()["waybill.open"] = {row.device_id for row in rows}


# Which of a batch's devices have an open waybill (on_readings skips the others without asking).
OPEN_WAYBILL_DEVICES = BatchLookup(_open_waybill_devices, _take_open_waybill_devices)


def on_readings(ingested: IngestedDevice, records: list[Record]) -> None:
    """Registered first in READING_HANDLERS (before alarm evaluation, so arming applies to the same
    batch): a device started at the device begins with its first upload; positions cross fences."""
    if not records or ingested.owner_account_id is None:
        return
    prepared = (batch_context() or {}).get("waybill.open")
    if prepared is not None and ingested.id not in prepared:
        return
    forget_prepared(ingested.id)  # its limits may change here: the alarm evaluation reads them afresh
    waybills = list(
        db.session.scalars(
            select(Waybill)
            .where(Waybill.device_id == ingested.id, Waybill.state != WaybillState.COMPLETED)
            .order_by(Waybill.id)
        )
    )
    if not waybills:
        return
    device = db.session.get(Device, ingested.id)  # beginning and fences read its type and settings
    ordered = sorted(records, key=lambda r: r.ts)
    for waybill in waybills:
        if waybill.state == WaybillState.NOT_STARTED and waybill.start_requested_at is not None:
            first = next((r for r in ordered if r.ts >= waybill.start_requested_at), None)
            if first is not None and _free(waybill):
                begin(waybill, device, first.ts)
        for record in ordered:
            if record.lat is None or record.lng is None:
                continue
            if waybill.fence_checked_at is not None and record.ts <= waybill.fence_checked_at:
                continue  # re-sent or late positions never cross a fence twice
            waybill.fence_checked_at = record.ts
            for fence, event in fences.crossings(waybill, device, [(record.ts, record.lat, record.lng)]):
                _follow(waybill, device, fence.id, event)
        if waybill.state == WaybillState.IN_PROGRESS and not waybill.armed and ordered[-1].ts >= waybill.armed_at:
            arm(waybill)


def _free(waybill: Waybill) -> bool:
    try:
        _require_free(waybill)
    except ApiError:
        return False
    return True


def _follow(waybill: Waybill, device: Device, fence_id: int, event: WaybillFenceEvent) -> None:
    """Start on leaving the origin fence, stop on entering the destination fence (if so set)."""
    if (
        waybill.state == WaybillState.NOT_STARTED
        and waybill.start_mode == Trigger.FENCE
        and fence_id == waybill.origin_fence_id
        and event.kind == "leave"
        and _free(waybill)
    ):
        begin(waybill, device, event.ts)
    elif (
        waybill.state == WaybillState.IN_PROGRESS
        and waybill.stop_mode == Trigger.FENCE
        and fence_id == waybill.destination_fence_id
        and event.kind == "enter"
    ):
        finish(waybill, event.ts)


def tick(now: datetime | None = None) -> int:
    """Every minute: start and stop waybills at their set times, arm the ones past the ignore period."""
    now = now or utcnow()
    changed = 0
    due_start = select(Waybill).where(
        Waybill.state == WaybillState.NOT_STARTED, Waybill.start_mode == Trigger.TIME, Waybill.start_at <= now
    )
    for waybill in db.session.scalars(due_start).all():
        if _free(waybill):
            begin(waybill, db.session.get(Device, waybill.device_id), waybill.start_at)
            changed += 1
    due_stop = select(Waybill).where(
        Waybill.state == WaybillState.IN_PROGRESS, Waybill.stop_mode == Trigger.TIME, Waybill.stop_at <= now
    )
    for waybill in db.session.scalars(due_stop).all():
        finish(waybill, waybill.stop_at)
        changed += 1
    to_arm = select(Waybill).where(
        Waybill.state == WaybillState.IN_PROGRESS, Waybill.armed.is_(False), Waybill.armed_at <= now
    )
    for waybill in db.session.scalars(to_arm).all():
        arm(waybill)
        changed += 1
    db.session.commit()
    return changed
