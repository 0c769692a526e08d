"""A waybill as it is followed: its window, the readings and track of that window with the fence
events, and the lookup by tracking number (the public query)."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import func, or_, select

from api.alarm.models import Alarm
from api.device.models import Device, DeviceState
from api.extensions.db import db, utcnow
from api.telemetry.queries import chart, thin, track
from api.waybill import geo, track_marks
from api.waybill.models import Waybill, WaybillFenceEvent
from api.waybill.schemas import tracking_numbers
from api.waybill.services import find

TRACK_POINTS = 2000


# ---- status, track, temperatures ---------------------------------------------------------------------------


def window(waybill: Waybill, now: datetime) -> tuple[datetime | None, datetime]:
    return waybill.started_at, (waybill.completed_at or now) + timedelta(milliseconds=1)  # end exclusive


def status(waybill: Waybill, device: Device, now: datetime | None = None) -> dict:
    """Real-time status: position, last value, elapsed time, distance, track, fence events, alarms and
    the temperatures of the waybill's window (nothing before it starts)."""
    now = now or utcnow()
    start, end = window(waybill, now)
    state = db.session.get(DeviceState, device.id)
    result = {
        "state": waybill.state.value,
        "startedAt": waybill.started_at,
        "completedAt": waybill.completed_at,
        "elapsedSeconds": int((end - start).total_seconds()) if start else None,
        "distanceMeters": 0.0,
        "position": None,
        "lastValue": (state.values or {}).get(str(waybill.sensor)) if state else None,
        "lastDataAt": state.last_data_at if state else None,
        "upperLimit": waybill.upper_limit,
        "lowerLimit": waybill.lower_limit,
        "track": [],
        "stops": [],
        "events": list(
            db.session.scalars(
                select(WaybillFenceEvent)
                .where(WaybillFenceEvent.waybill_id == waybill.id)
                .order_by(WaybillFenceEvent.ts)
            )
        ),
        "alarms": [],
        "temperatures": [],
    }
    if start is None:
        return result
    positions = [p for p in track(device.id, start, end, limit=100_000) if p.lat is not None and p.lng is not None]
    result["distanceMeters"] = round(geo.track_length([(p.lat, p.lng) for p in positions]), 1)
    shown = thin(positions, TRACK_POINTS)
    result["track"] = [{"ts": p.ts, "lat": p.lat, "lng": p.lng} for p in shown]
    result["position"] = result["track"][-1] if shown else None
    result["stops"] = track_marks.stops([track_marks.Position(p.ts, p.lat, p.lng) for p in positions])
    result["alarms"] = list(
        db.session.scalars(
            select(Alarm)
            .where(Alarm.device_id == device.id, Alarm.breach_started_at >= start, Alarm.breach_started_at <= end)
            .where(Alarm.status != "delaying")
            .order_by(Alarm.breach_started_at)
        )
    )
    series = chart(device.id, [waybill.sensor], start, end, device.interval_s)["series"].get(waybill.sensor, [])
    result["temperatures"] = [[point["t"], point["v"]] for point in series]
    outside = track_marks.breaches(
        [_ms(p["ts"]) for p in result["track"]], result["temperatures"], waybill.lower_limit, waybill.upper_limit
    )
    for point, breach in zip(result["track"], outside, strict=True):
        point["breach"] = breach
    return result


def _ms(t: datetime) -> int:
    return int(t.timestamp() * 1000)


def detail_status(waybill_id: int) -> dict:
    return status(*find(waybill_id))


def by_tracking_number(platform_id: int, number: str) -> tuple[Waybill, Device, str] | None:
    """A waybill of this data space whose waybill number or one of whose tracking numbers is `number`
    (a complete id: no prefix, no pattern), whatever its letters' case and the spaces around it; with the
    number as the waybill stores it."""
    wanted = number.strip().casefold()
    if not wanted:
        return None
    stmt = (
        select(Waybill, Device)
        .join(Device, Device.id == Waybill.device_id)
        .where(Waybill.platform_id == platform_id, Device.deleted.is_(False))
        .where(
            or_(
                func.lower(Waybill.waybill_num) == wanted,
                Waybill.express_number.icontains(wanted, autoescape=True),
            )
        )
        .order_by(Waybill.id.desc())
    )
    for waybill, device in db.session.execute(stmt):
        for stored in [waybill.waybill_num, *tracking_numbers(waybill.express_number)]:
            if stored.strip().casefold() == wanted:
                return waybill, device, stored
    return None
