"""What an account sees of its devices: the page with live states and counts, one device's detail and
sensors, the service-expiry lists, and the public quick query."""

from __future__ import annotations

import functools
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from flask_babel import gettext
from sqlalchemy import bindparam, false, func, select
from sqlalchemy.orm import contains_eager, joinedload

from api.access.reach import (
    MEMBER,
    SHARED,
    device_access,
    device_permissions,
    may_view,
    placed_device_ids,
    signed_in_reaches_others,
    visibility_clause,
    visibility_params,
    visible_params,
    visible_values,
)
from api.device import totals
from api.device.expiry import DATA_GRACE
from api.device.models import (
    Category,
    Device,
    DeviceParam,
    DeviceState,
    DeviceType,
    ParamUnit,
)
from api.device.services import not_found, owned_device
from api.device.status import DeviceStatus, status_conditions, status_of
from api.extensions.db import db, escape_like, paged, paginate, run_page, utcnow
from api.extensions.smorest import ApiError
from api.extensions.snapshots import Snapshots
from api.identity.auth import owned, require_account
from api.telemetry.queries import chart
from api.tenancy import scoped

# Catalogue rows change only through `flask sync-catalogue`: every list labels its values from them.
_sensor_labels: Snapshots[list[tuple[str, dict]]] = Snapshots(DeviceType, DeviceParam, ParamUnit)


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

    # Devices placed in an organisation: organization's reach rule says which (api/access/reach.py).
    placed = placed_device_ids(MEMBER)
    in_organization = Device.id.in_(placed) if placed is not None else false()
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
