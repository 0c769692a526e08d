"""Demo waybills of `flask seed-demo`: yesterday's completed trip (released) and today's trip in
progress, Shanghai depot -> Nanjing, with an origin fence (circle) and a destination fence (polygon)
that raises an alarm on arrival. Idempotent: found by waybill number afterwards."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import select

from api.device.models import Device
from api.extensions.db import db, utcnow
from api.identity.models import Account
from api.telemetry.simulator import TRACKER_DEPART_UTC, TRACKER_ROUTE
from api.waybill import services
from api.waybill.models import Disposition, Fence, FenceShape, Trigger, Waybill, WaybillState

ARRIVAL_HOURS = 5.0


def _fence(owner: Account, name: str, **geometry) -> Fence:
    fence = db.session.scalar(select(Fence).where(Fence.owner_account_id == owner.id, Fence.name == name))
    if fence is None:
        fence = Fence(platform_id=owner.platform_id, owner_account_id=owner.id, name=name, **geometry)
        db.session.add(fence)
        db.session.flush()
    return fence


def _departure(now: datetime) -> datetime:
    today = now.replace(hour=TRACKER_DEPART_UTC, minute=0, second=0, microsecond=0)
    return today if today <= now else today - timedelta(days=1)


def seed_waybills(owner: Account, device: Device) -> list[Waybill]:
    depot_lat, depot_lng = TRACKER_ROUTE[0]
    origin = _fence(owner, "Shanghai depot", shape=FenceShape.CIRCLE, lat=depot_lat, lng=depot_lng, radius=800.0)
    lat, lng = TRACKER_ROUTE[-1]
    d = 0.01
    destination = _fence(
        owner,
        "Nanjing pharmacy DC",
        shape=FenceShape.POLYGON,
        points=[[lat - d, lng - d], [lat - d, lng + d], [lat + d, lng + d], [lat + d, lng - d]],
        alarm_enter=True,
    )
    departure = _departure(utcnow())
    made = []
    for number, express, start, completed in (
        ("WB-DEMO-0001", "SF1000000001", departure - timedelta(days=1), True),
        ("WB-DEMO-0002", "SF1000000002", departure, False),
    ):
        waybill = db.session.scalar(select(Waybill).where(Waybill.waybill_num == number))
        if waybill is not None:
            made.append(waybill)
            continue
        waybill = Waybill(
            platform_id=device.platform_id,
            owner_account_id=owner.id,
            device_id=device.id,
            order_num=f"PO-{number[-4:]}",
            waybill_num=number,
            goods_name="Vaccines 2-8 °C",
            express_number=express,
            cooler_code="REEFER-07",
            record_interval=5,
            sensor=1,
            upper_limit=8.0,
            lower_limit=2.0,
            origin_fence_id=origin.id,
            destination_fence_id=destination.id,
            start_mode=Trigger.FENCE,
            stop_mode=Trigger.MANUAL if not completed else Trigger.FENCE,
            ignore_minutes=10,
            sender_name="Li Wei",
            sender_phone="+8613800138000",
            receiver_company="Nanjing Pharmacy",
            receiver_name="Zhang Min",
            receiver_phone="+8613900139000",
            alarm_name="QA desk",
            alarm_phone="+8613700137000",
            alarm_email="qa@example.com",
            state=WaybillState.NOT_STARTED,
            fence_inside={},
        )
        db.session.add(waybill)
        db.session.flush()
        services.begin(waybill, device, start)
        if completed:
            services.finish(waybill, start + timedelta(hours=ARRIVAL_HOURS), handlers=False)
            waybill.disposition, waybill.disposition_reason = Disposition.RELEASED, "Checked at receipt"
            waybill.disposed_by, waybill.disposed_at = owner.id, start + timedelta(hours=ARRIVAL_HOURS, minutes=20)
        else:
            waybill.armed = waybill.armed_at <= utcnow()
        made.append(waybill)
    db.session.commit()
    return made
