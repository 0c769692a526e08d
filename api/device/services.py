"""Device registry rules: issuance, claiming, editing, states, lists and counts, downlink."""

from __future__ import annotations

import functools
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from flask_babel import gettext
from sqlalchemy import bindparam, func, select
from sqlalchemy.orm import contains_eager, joinedload

from api.access.reach import (
    SHARED,
    device_access,
    device_permissions,
    may_view,
    require_block,
    require_device_write,
    signed_in_reaches_others,
    visibility_clause,
    visibility_params,
    visible,
    visible_params,
    visible_values,
)
from api.account.auth import owned, require_account
from api.device import totals
from api.device.credentials import device_secret
from api.device.expiry import DATA_GRACE, SERVICE_PERIOD
from api.device.guids import new_guid
from api.device.models import (
    AddType,
    Category,
    CommandStatus,
    Device,
    DeviceCommand,
    DeviceEvent,
    DeviceParam,
    DeviceState,
    DeviceType,
    GuidBatch,
    MaintenanceRecord,
    ParamUnit,
    ReadWrite,
    RecordKind,
    TypeStatus,
)
from api.device.status import DeviceStatus, status_conditions, status_of
from api.extensions.db import db, escape_like, paged, paginate, run_page, utcnow
from api.extensions.smorest import ApiError
from api.extensions.snapshots import Snapshots
from api.organization.models import OrganizationDevice
from api.platform.models import Platform
from api.telemetry.queries import chart
from api.tenancy import data_platform_id, scoped


def not_found() -> ApiError:
    return ApiError(gettext("The device cannot be found, please confirm and re-enter"), code=3001)


# ---- issuance (operator) -------------------------------------------------------------------------------


def issue_guids(platform: Platform, device_type: DeviceType, num: int, order_code: str, tag: str | None = None):
    """Issue `num` new GUIDs of a type for a platform; returns (guid, credential) pairs to print."""
    if not 1 <= num <= 999:
        raise ValueError("a batch holds 1 to 999 GUIDs")
    batch = GuidBatch(
        order_code=order_code, num=num, device_type_id=device_type.id, device_tag=tag, platform_id=platform.id
    )
    db.session.add(batch)
    db.session.flush()
    prefix = str(device_type.type_code)
    issued = []
    chosen: set[str] = set()
    while len(chosen) < num:
        # Random, not sequential (api/device/guids.py); a draw that exists already is drawn again.
        candidates = {new_guid(prefix) for _ in range(num - len(chosen))} - chosen
        chosen |= candidates - set(db.session.scalars(select(Device.guid).where(Device.guid.in_(candidates))))
    for guid in sorted(chosen):
        db.session.add(
            Device(
                guid=guid,
                device_type_id=device_type.id,
                batch_id=batch.id,
                platform_id=platform.id,
                interval_s=device_type.default_interval_s,
            )
        )
        issued.append((guid, device_secret(guid)))
    db.session.commit()
    return issued


# ---- the owner's registry --------------------------------------------------------------------------------


def owned_device(device_id: int, *, manage: bool = False, write: bool = False, codes=None) -> Device:
    """A device the signed-in account may see (api/tenancy.visible); `write` / `manage` refuse a
    shared user (except operable parameters `codes`), `manage` also requires a live service."""
    device = db.session.scalar(visible(select(Device), Device).where(Device.id == device_id, Device.deleted.is_(False)))
    if device is None:
        raise ApiError(gettext("The requested resource does not exist."), code=404, http_status=404)
    if manage or write:
        require_device_write(device, codes)
    if manage and device.service_expires_at is not None and device.service_expires_at < utcnow():
        raise ApiError(gettext("The service of this device has expired; renew it to manage the device."), code=3002)
    return device


def log_event(device: Device, action: str, **detail) -> None:
    db.session.add(DeviceEvent(device_id=device.id, account_id=require_account().id, action=action, detail=detail))


def add_device(guid: str, name: str, time_zone: str, remark: str | None, source: str = "platform") -> Device:
    device = db.session.scalar(
        select(Device).where(Device.guid == guid, Device.platform_id == data_platform_id()).with_for_update()
    )
    if device is None or device.owner_account_id is not None or device.deleted or device.scrapped_at:
        raise not_found()
    check_addable(device.device_type, source)
    claim(device, require_account().id, name, time_zone, remark)
    log_event(device, "add", name=name)
    db.session.commit()
    return device


def check_addable(device_type: DeviceType, source: str) -> None:
    """Only a published type's devices can be added, and only where its addType allows
    (business-domain section 3: 0 unlimited, 1 app only, 2 platform only)."""
    if device_type.type_status != TypeStatus.PUBLISHED:
        raise ApiError(gettext("This device model is not released yet; it cannot be added."), code=3003)
    if device_type.add_type == AddType.APP_ONLY and source != "app":
        raise ApiError(gettext("This device can only be added in the app."), code=3004)
    if device_type.add_type == AddType.PLATFORM_ONLY and source != "platform":
        raise ApiError(gettext("This device can only be added on the platform."), code=3004)


def claim(device: Device, account_id: int, name: str, time_zone: str, remark: str | None = None) -> None:
    """Give an unclaimed device to an account, with a first year of service."""
    now = utcnow()
    device.owner_account_id = account_id
    device.name, device.time_zone, device.remark = name, time_zone, remark
    device.claimed_at = now
    device.enabled = True
    device.service_expires_at = device.service_expires_at or now + SERVICE_PERIOD
    device.data_expires_at = device.service_expires_at + DATA_GRACE


def update_device(device_id: int, changes: dict) -> Device:
    device = owned_device(device_id, manage=True)
    if "quick_search" in changes and device.owner_account_id != require_account().id:
        raise ApiError(gettext("Only the device's owner can turn its quick search on or off."), code=403)
    before = {key: getattr(device, key) for key in changes}
    for key, value in changes.items():
        setattr(device, key, value)
    log_event(device, "edit", before=before, after=changes)
    db.session.commit()
    return device


def set_enabled(device_id: int, enabled: bool) -> Device:
    device = owned_device(device_id, manage=True)
    if device.scrapped_at is not None:
        raise ApiError(gettext("A scrapped device cannot be enabled or disabled."), code=3003)
    device.enabled = enabled
    log_event(device, "enable" if enabled else "stopUsing")
    db.session.commit()
    return device


def scrap(device_id: int) -> Device:
    device = owned_device(device_id, manage=True)
    if device.scrapped_at is None:
        device.scrapped_at = utcnow()
        device.enabled = False
        log_event(device, "scrap")
        db.session.commit()
    return device


def delete(device_id: int) -> None:
    """Deleting releases the device from the account; its history stays with the GUID."""
    device = owned_device(device_id, write=True)
    log_event(device, "delete")
    device.deleted = True
    device.focus = False
    db.session.commit()


def set_focus(device_id: int, focus: bool) -> Device:
    device = owned_device(device_id, write=True)
    device.focus = focus
    db.session.commit()
    return device


BATCH_ACTIONS = {
    "enable": lambda device_id: set_enabled(device_id, True),
    "stopUsing": lambda device_id: set_enabled(device_id, False),
    "scrap": scrap,
    "delete": delete,
    "pin": lambda device_id: set_focus(device_id, True),
    "unpin": lambda device_id: set_focus(device_id, False),
}


def batch(action: str, device_ids: list[int]) -> list[dict]:
    """One action on several devices, each on its own (one refusal does not stop the others):
    a result per device, in the order given, with the reason of each refusal."""
    results = []
    for device_id in dict.fromkeys(device_ids):
        try:
            BATCH_ACTIONS[action](device_id)
        except ApiError as exc:
            db.session.rollback()
            results.append({"deviceId": device_id, "ok": False, "msg": exc.msg})
        else:
            results.append({"deviceId": device_id, "ok": True, "msg": None})
    return results


# ---- lists and counts --------------------------------------------------------------------------------


def _listing(reaches_others: bool):
    """Visible devices with their latest state, with bind parameters (visibility_params())."""
    return (
        select(Device, DeviceState)
        .where(visibility_clause(Device, reaches_others), Device.deleted.is_(False))
        .outerjoin(DeviceState, DeviceState.device_id == Device.id)
        .join(DeviceType, DeviceType.id == Device.device_type_id)
        # The type is already joined: fill the relationship from it (labels come from _type_sensors).
        .options(contains_eager(Device.device_type))
    )


@functools.cache
def _page_query(reaches_others: bool, status: str | None, by_name: bool, by_category: bool, by_expiry: bool):
    """The list query for one combination of filters, built once per process (building and keying
    a statement this size costs more Python time than PostgreSQL spends running it); page() runs
    it with the filters' values as bind parameters."""
    stmt = _listing(reaches_others)
    if by_name:
        pattern = bindparam("name_pattern")
        stmt = stmt.where(Device.name.ilike(pattern, escape="/") | Device.guid.like(pattern, escape="/"))
    if status:
        stmt = stmt.where(status_conditions(bindparam("now"))[DeviceStatus(status)])
    if by_category:
        stmt = stmt.where(DeviceType.category == bindparam("category"))
    if by_expiry:
        stmt = stmt.where(
            Device.service_expires_at >= bindparam("expires_from"), Device.service_expires_at < bindparam("expires_to")
        )
    return paged(stmt, Device.focus.desc(), Device.id.desc())


def expiry_window(name: str, now: datetime, zone: ZoneInfo) -> tuple[datetime, datetime]:
    local = now.astimezone(zone)
    day = local.replace(hour=0, minute=0, second=0, microsecond=0)
    month = day.replace(day=1)
    next_month = (month + timedelta(days=32)).replace(day=1)
    if name == "week":  # expires this week (Monday to Sunday)
        start = day - timedelta(days=day.weekday())
        return now, start + timedelta(days=7)
    if name == "month":  # expires this month
        return now, next_month
    return month, now  # expired this month


def page(args: dict, zone: ZoneInfo) -> dict:
    now = utcnow()
    visibility = visibility_params()
    params = {**visibility, "now": now}
    if args.get("deviceName"):
        params["name_pattern"] = f"%{escape_like(args['deviceName'])}%"
    if args.get("category"):
        params["category"] = Category(args["category"])
    if args.get("expiry"):
        params["expires_from"], params["expires_to"] = expiry_window(args["expiry"], now, zone)
    query = _page_query(
        signed_in_reaches_others(),
        args.get("status"),
        "name_pattern" in params,
        "category" in params,
        "expires_from" in params,
    )
    filters = tuple(args.get(k) for k in ("deviceName", "status", "category", "expiry"))
    key = totals.total_key(visibility, filters, zone.key if args.get("expiry") else None)
    total, generation = totals.known_total(key)
    found = run_page(query, args, params, rows=True, total=total)
    if total is None:
        totals.keep_total(key, generation, found["total"])
    return {"list": [with_state(device, state, now) for device, state in found["list"]], "total": found["total"]}


def with_state(device: Device, state: DeviceState | None, now: datetime) -> dict:

    values = visible_values(device, state.values if state else None)
    shared = device_access(device) == SHARED
    status = status_of(device, state, now)
    sensors = sensors_of(device, shared)
    return {"device": device, "state": state, "status": status, "values": values, "shared": shared, "sensors": sensors}


def visible_sensors(device: Device) -> list[dict]:
    """sensors_of() for the signed-in account."""
    return sensors_of(device, device_access(device) == SHARED)


def sensors_of(device: Device, shared: bool) -> list[dict]:
    """Name, unit and precision of each value the account may see, in probe order (lists label values
    with them): the type's labels, less the parameters a share's template hides."""
    sensors = _type_sensors(device.device_type_id)
    return [label for key, label in sensors if may_view(device, key)] if shared else [label for _, label in sensors]


# Catalogue rows change only through `flask sync-catalogue`: every list labels its values from them.
_sensor_labels: Snapshots[list[tuple[str, dict]]] = Snapshots(DeviceType, DeviceParam, ParamUnit)


def _type_sensors(device_type_id: int) -> list[tuple[str, dict]]:
    """(parameter key, label) of each probe of a device type, in probe order."""

    def load() -> list[tuple[str, dict]]:
        params = db.session.scalars(
            select(DeviceParam)
            .options(joinedload(DeviceParam.unit))
            .where(DeviceParam.device_type_id == device_type_id, DeviceParam.probe_id.is_not(None))
            .order_by(DeviceParam.probe_id)
        )
        return [
            (
                f"{p.param_key:04x}",
                {
                    "probeId": p.probe_id,
                    "paramName": p.param_name,
                    "unit": p.unit.unit_name if p.unit else None,
                    "unitCode": p.unit.unit_code if p.unit else None,
                    "precision": p.precision,
                },
            )
            for p in params
        ]

    return _sensor_labels.get(device_type_id, load)


@functools.cache
def _counts_query(reaches_others: bool):

    in_organization = Device.id.in_(select(OrganizationDevice.device_id))
    columns = [func.count().label("all"), func.count().filter(in_organization).label("in_organization")] + [
        func.count().filter(condition).label(status.value)
        for status, condition in status_conditions(bindparam("now")).items()
    ]
    return _listing(reaches_others).with_only_columns(*columns)


def status_counts() -> dict[str, int]:
    params = {**visibility_params(), "now": utcnow()}
    row = db.session.execute(_counts_query(signed_in_reaches_others()), params).one()
    counts = dict(row._mapping)
    return {
        "all": counts["all"],
        "online": counts["online"] + counts["alarm"] + counts["fault"],
        "offline": counts["offline"],
        "alarm": counts["alarm"],
        "disabled": counts["disabled"],
        "deactivated": counts["deactivated"],
        "expired": counts["expired"],
        "notEnabled": counts["not_enabled"],
        "organization": counts["in_organization"],
    }


def detail(device_id: int) -> dict:
    device = owned_device(device_id)
    return {
        **with_state(device, device.state, utcnow()),
        "params": visible_params(device, device.device_type.params),
        "permissions": device_permissions(device),
    }


# ---- downlink --------------------------------------------------------------------------------------------


# Areas that follow their own commands (the over-the-air upgrades) register a listener here; it is
# called with (device, command, progress, version) inside the acknowledgement's transaction.
COMMAND_LISTENERS: list = []
# The steps a device may report before its final acknowledgement (an upgrade: downloading, installing).
COMMAND_PROGRESS = ("downloading", "installing")


def acknowledge_command(
    device_id: int,
    command_id: int,
    ok: bool,
    error: str | None = None,
    progress: str | None = None,
    version: str | None = None,
) -> None:
    """The device reports a command applied (or failed), or with `progress` a step on the way (the
    command stays pending). Applying also updates the interval, and a firmware command the version
    the device now runs."""
    command = db.session.scalar(
        select(DeviceCommand).where(DeviceCommand.id == command_id, DeviceCommand.device_id == device_id)
    )
    if command is None or command.status != CommandStatus.PENDING:
        return
    device = db.session.get(Device, device_id)
    if progress not in COMMAND_PROGRESS:
        progress = None
        command.status = CommandStatus.APPLIED if ok else CommandStatus.FAILED
        command.acked_at = utcnow()
        command.error = (error or None) and error[:200]
        interval = command.params.get(f"{0x0101:04x}")
        if ok and interval:
            device.interval_s = int(interval) * 60
        if ok and version and "firmware" in command.params:
            device.firmware_version = version[:50]
    for listener in COMMAND_LISTENERS:
        listener(device, command, progress, version)
    db.session.commit()


def writable_params(device: Device) -> list[DeviceParam]:
    return [p for p in device.device_type.params if p.read_write != ReadWrite.READ]


def events(device_id: int, limit: int = 100) -> list[DeviceEvent]:
    device = owned_device(device_id)
    require_block(device, "log")
    return list(
        db.session.scalars(
            select(DeviceEvent)
            .where(DeviceEvent.device_id == device.id)
            .order_by(DeviceEvent.created_at.desc(), DeviceEvent.id.desc())
            .limit(limit)
        )
    )


# ---- maintenance and warranty records -----------------------------------------------------------------

RECORD_FIELDS = {
    "kind": "kind",
    "reportTime": "report_time",
    "startTime": "start_time",
    "endTime": "end_time",
    "person": "person",
    "approver": "approver",
    "repairer": "repairer",
    "reason": "reason",
    "content": "content",
    "standard": "standard",
    "result": "result",
}


def record_page(args: dict) -> dict:
    device = owned_device(args["deviceId"])
    require_block(device, "records")
    stmt = select(MaintenanceRecord).where(MaintenanceRecord.device_id == device.id)
    if args.get("kind"):
        stmt = stmt.where(MaintenanceRecord.kind == RecordKind(args["kind"]))
    return paginate(stmt, args, MaintenanceRecord.report_time.desc(), MaintenanceRecord.id.desc())


def save_record(args: dict) -> MaintenanceRecord:
    device = owned_device(args["deviceId"], manage=True)
    if args.get("id"):
        record = db.session.scalar(
            select(MaintenanceRecord).where(
                MaintenanceRecord.id == args["id"], MaintenanceRecord.device_id == device.id
            )
        )
        if record is None:
            raise ApiError(gettext("The requested resource does not exist."), code=404, http_status=404)
    else:
        record = MaintenanceRecord(device_id=device.id, created_by=require_account().id)
        db.session.add(record)
    for field, column in RECORD_FIELDS.items():
        setattr(record, column, RecordKind(args[field]) if field == "kind" else args[field])
    log_event(device, "record", kind=args["kind"])
    db.session.commit()
    return record


def delete_record(record_id: int) -> None:
    record = db.session.get(MaintenanceRecord, record_id)
    if record is None:
        raise ApiError(gettext("The requested resource does not exist."), code=404, http_status=404)
    owned_device(record.device_id, manage=True)  # 404 unless the caller owns the device
    db.session.delete(record)
    db.session.commit()


# ---- service expiry reminders (console-shell section 2.3) -----------------------------------------------

EXPIRING_SOON = timedelta(days=30)


def expiry_condition(flag: int, now: datetime):
    """1: expires within 30 days; 2: expired, still uploading (3-month grace); 3: past the grace."""
    if flag == 1:
        return (Device.service_expires_at >= now) & (Device.service_expires_at < now + EXPIRING_SOON)
    if flag == 2:
        return (Device.service_expires_at < now) & (Device.service_expires_at >= now - DATA_GRACE)
    return Device.service_expires_at < now - DATA_GRACE


def _owned_live():
    return owned(select(Device), Device).where(Device.deleted.is_(False), Device.scrapped_at.is_(None))


def expiry_info() -> dict:
    now = utcnow()
    counts = {
        flag: db.session.scalar(
            select(func.count()).select_from(_owned_live().where(expiry_condition(flag, now)).subquery())
        )
        for flag in (1, 2, 3)
    }
    messages = []
    if counts[2]:
        messages.append(
            gettext("The service of %(n)s device(s) has expired; data is still received for three months.", n=counts[2])
        )
    if counts[3]:
        messages.append(
            gettext(
                "The service of %(n)s device(s) expired over three months ago; their data can no "
                "longer be viewed or downloaded.",
                n=counts[3],
            )
        )
    if counts[1]:
        messages.append(gettext("The service of %(n)s device(s) expires within 30 days.", n=counts[1]))
    flag = next((f for f in (2, 3, 1) if counts[f]), 0)
    return {"id": require_account().id, "pushMessages": messages, "expiredFlag": flag, "counts": counts}


def expired_devices(args: dict) -> dict:
    if args.get("accountId") not in (None, require_account().id):
        raise ApiError(gettext("The requested resource does not exist."), code=404, http_status=404)
    stmt = _owned_live().where(expiry_condition(args["expiredFlag"], utcnow()))
    return paginate(stmt, args, Device.service_expires_at, Device.id)


# ---- quick query (public) --------------------------------------------------------------------------------


def quick_query(guid: str) -> dict:
    """A claimed device of this site's data space whose quick search is on, found by its complete
    GUID: latest values only. Any other GUID (unknown, partial, flag off) gets the same answer."""

    device = db.session.scalar(
        scoped(select(Device), Device).where(
            Device.guid == guid,
            Device.owner_account_id.is_not(None),
            Device.deleted.is_(False),
            Device.quick_search.is_(True),
        )
    )
    if device is None:
        raise not_found()
    now = utcnow()
    if device.service_expires_at is not None and now > device.service_expires_at + DATA_GRACE:
        raise ApiError(gettext("The service of this device expired more than three months ago."), code=3005)

    params = [p for p in device.device_type.params if p.probe_id is not None]
    day = chart(device.id, [p.probe_id for p in params], now - timedelta(hours=24), now, device.interval_s)
    return {
        "device": device,
        "state": device.state,
        "status": status_of(device, device.state, now),
        "params": params,
        "chart": {str(sensor): points for sensor, points in day["series"].items()},
    }
