"""Electric fences: circles and polygons drawn on the map, and the crossings of a waybill's device
(enter / leave, with hysteresis: api/waybill/geo.py), each raising one event and, when the fence asks
for it, an alarm through the existing alarm lifecycle and escalation."""

from __future__ import annotations

from datetime import datetime

from flask_babel import gettext
from sqlalchemy import select

from api.alarm import lifecycle
from api.alarm.models import AlarmKind
from api.device.models import Device
from api.extensions.db import db, paginate, utcnow
from api.extensions.smorest import ApiError, field_error
from api.organization.manager import manager_id
from api.tenancy import data_platform_id, scoped
from api.waybill import geo
from api.waybill.models import Fence, FenceEventKind, FenceShape, Waybill, WaybillFenceEvent


def not_found() -> ApiError:
    return ApiError(gettext("The requested resource does not exist."), code=404, http_status=404)


def _fences():
    return scoped(select(Fence), Fence).where(Fence.owner_account_id == manager_id())


def find(fence_id: int) -> Fence:
    fence = db.session.scalar(_fences().where(Fence.id == fence_id))
    if fence is None:
        raise not_found()
    return fence


def require_own(fence_ids: dict[str, int | None]) -> None:
    """Fences a waybill refers to must be the account's own ({field: id})."""
    for field, fence_id in fence_ids.items():
        if fence_id is not None and db.session.scalar(_fences().where(Fence.id == fence_id)) is None:
            raise field_error(field, gettext("The requested resource does not exist."))


def page(args: dict) -> dict:
    stmt = _fences()
    if args.get("name"):
        stmt = stmt.where(Fence.name.icontains(args["name"], autoescape=True))
    return paginate(stmt, args, Fence.id.desc())


def shape_of(fence: Fence) -> geo.Shape:
    if fence.shape == FenceShape.CIRCLE:
        return geo.circle(fence.lat, fence.lng, fence.radius)
    return geo.polygon(fence.points)


def save(args: dict) -> Fence:
    fence = find(args["id"]) if "id" in args else None
    if args["shape"] == FenceShape.POLYGON:
        try:
            geo.polygon(args["points"])
        except ValueError:
            raise field_error("points", gettext("The outline of the fence must not cross itself.")) from None
    if fence is None:
        fence = Fence(platform_id=data_platform_id(), owner_account_id=manager_id())
        db.session.add(fence)
    fence.name, fence.shape = args["name"], FenceShape(args["shape"])
    fence.alarm_enter, fence.alarm_leave = args["alarmEnter"], args["alarmLeave"]
    if fence.shape == FenceShape.CIRCLE:
        (fence.lat, fence.lng), fence.radius, fence.points = args["center"], args["radius"], []
    else:
        fence.lat = fence.lng = fence.radius = None
        fence.points = [list(point) for point in args["points"]]
    db.session.commit()
    return fence


def delete(fence_id: int) -> None:
    db.session.delete(find(fence_id))
    db.session.commit()


# ---- crossings -------------------------------------------------------------------------------------------


def watched(waybill: Waybill) -> list[Fence]:
    ids = {waybill.origin_fence_id, waybill.destination_fence_id, waybill.fence_model_id} - {None}
    return list(db.session.scalars(select(Fence).where(Fence.id.in_(ids)))) if ids else []


def crossings(waybill: Waybill, device: Device, positions: list[tuple[datetime, float, float]]) -> list:
    """Walk the new positions (time order) through the waybill's fences; returns the events written.
    The inside / outside state per fence lives on the waybill, so each crossing counts once, however
    the positions arrive (one by one or in batches)."""
    fences = watched(waybill)
    if not fences or not positions:
        return []
    inside = dict(waybill.fence_inside or {})
    events = []
    shapes = {fence.id: shape_of(fence) for fence in fences}
    for ts, lat, lng in positions:
        for fence in fences:
            key = str(fence.id)
            previous = inside.get(key)
            now_inside = shapes[fence.id].classify(lat, lng, previous)
            if now_inside is None or now_inside == previous:
                continue
            inside[key] = now_inside
            if previous is None:
                continue  # the first position only tells where the device is
            kind = FenceEventKind.ENTER if now_inside else FenceEventKind.LEAVE
            event = WaybillFenceEvent(
                waybill_id=waybill.id, fence_id=fence.id, fence_name=fence.name, kind=kind, ts=ts, lat=lat, lng=lng
            )
            db.session.add(event)
            if (fence.alarm_enter and kind == FenceEventKind.ENTER) or (
                fence.alarm_leave and kind == FenceEventKind.LEAVE
            ):
                event.alarm_id = _raise_alarm(device, ts, fence).id
            events.append((fence, event))
    waybill.fence_inside = inside
    return events


def _raise_alarm(device: Device, ts: datetime, fence: Fence):
    """One fence alarm per crossing: the previous one of the device closes, the new one opens at once
    (its message and first notifications in this transaction; levels 2 and 3 by the escalation job)."""
    active = lifecycle.active_alarms(device.id)
    lifecycle.recover(device, active, AlarmKind.FENCE, None, ts)
    alarm = lifecycle.breach(device, active, AlarmKind.FENCE, None, None, ts, utcnow(), limit=None)
    db.session.flush()
    return alarm
