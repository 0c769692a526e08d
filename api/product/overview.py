"""The operator's views of the whole fleet (business-domain section 2, Operations):
/operation/device/list, every device of the platforms the staff member runs, with its owner, model,
SIM card, service expiry and state; /operation/device/alarmlist, every alarm of those platforms.
Read only: changes stay with each device's owner. The keys are the operator's (api/access/keys
OPERATOR_TREE); the staff scope still restricts a reseller admin to its own platform should one be
given them."""

from __future__ import annotations

from sqlalchemy import or_, select
from sqlalchemy.orm import aliased, joinedload

from api.alarm.models import Alarm, AlarmKind, AlarmStatus
from api.device.models import Device, DeviceState, DeviceType
from api.device.status import DeviceStatus, status_conditions, status_of
from api.extensions.db import escape_like, paginate, utcnow
from api.identity.models import Account
from api.identity.staff import staff_scope
from api.platform.models import Platform
from api.product.models import SimCard


def _like(text: str) -> str:
    return f"%{escape_like(text.strip())}%"


def _shown_record():
    """One row per GUID: its live record, else its newest deleted one (shown as deleted, so a GUID
    whose device was deleted stays in the fleet list until someone adds it again)."""
    same = aliased(Device)
    return (
        select(same.id)
        .where(same.guid == Device.guid)
        .order_by(same.deleted, same.id.desc())
        .limit(1)
        .correlate(Device)
        .scalar_subquery()
    )


def device_page(args: dict) -> dict:
    scope = staff_scope()
    now = utcnow()
    owner = aliased(Account)
    stmt = (
        select(Device, owner.user_name, Platform.slug, SimCard.card_num)
        .outerjoin(owner, owner.id == Device.owner_account_id)
        .join(Platform, Platform.id == Device.platform_id)
        .outerjoin(SimCard, SimCard.device_id == Device.id)
        .outerjoin(DeviceState, DeviceState.device_id == Device.id)
        .where(Device.id == _shown_record())
        .options(joinedload(Device.device_type), joinedload(Device.state))
    )
    stmt = scope.restrict(stmt, Device.platform_id)
    if args.get("platformId"):
        stmt = stmt.where(Device.platform_id == args["platformId"])
    if args.get("keyword"):
        pattern = _like(args["keyword"])
        stmt = stmt.where(or_(Device.name.ilike(pattern, escape="\\"), Device.guid.like(pattern, escape="\\")))
    if args.get("userName"):
        stmt = stmt.where(owner.user_name.ilike(_like(args["userName"]), escape="\\"))
    if args.get("deviceTypeId"):
        stmt = stmt.where(Device.device_type_id == args["deviceTypeId"])
    if args.get("claimed") is not None:
        stmt = stmt.where(
            Device.owner_account_id.is_not(None) if args["claimed"] else Device.owner_account_id.is_(None)
        )
    if args.get("deleted") is not None:
        stmt = stmt.where(Device.deleted.is_(bool(args["deleted"])))
    if args.get("status"):
        stmt = stmt.where(status_conditions(now)[DeviceStatus(args["status"])], Device.deleted.is_(False))
    page = paginate(stmt, args, Device.id.desc(), rows=True)
    page["list"] = [
        {
            "device": device,
            "ownerName": owner_name,
            "platform": platform,
            "simCardNum": card,
            "status": status_of(device, device.state, now).value,
            "lastDataTime": device.state.last_data_at if device.state else None,
            "voided": device.voided_at is not None,
        }
        for device, owner_name, platform, card in page["list"]
    ]
    return page


def alarm_page(args: dict) -> dict:
    scope = staff_scope()
    owner = aliased(Account)
    stmt = (
        select(Alarm, Device, owner.user_name, DeviceType.type_name)
        .join(Device, Device.id == Alarm.device_id)
        .join(DeviceType, DeviceType.id == Device.device_type_id)
        .outerjoin(owner, owner.id == Device.owner_account_id)
        .where(Alarm.status != AlarmStatus.DELAYING)
    )
    stmt = scope.restrict(stmt, Alarm.platform_id)
    if args.get("keyword"):
        pattern = _like(args["keyword"])
        stmt = stmt.where(or_(Device.name.ilike(pattern, escape="\\"), Device.guid.like(pattern, escape="\\")))
    if args.get("userName"):
        stmt = stmt.where(owner.user_name.ilike(_like(args["userName"]), escape="\\"))
    if args.get("kind"):
        stmt = stmt.where(Alarm.kind == AlarmKind(args["kind"]))
    if args.get("status"):
        stmt = stmt.where(Alarm.status == AlarmStatus(args["status"]))
    if args.get("startTime"):
        stmt = stmt.where(Alarm.breach_started_at >= args["startTime"])
    if args.get("endTime"):
        stmt = stmt.where(Alarm.breach_started_at < args["endTime"])
    page = paginate(stmt, args, Alarm.breach_started_at.desc(), Alarm.id.desc(), rows=True)
    page["list"] = [
        {"alarm": alarm, "device": device, "ownerName": owner_name, "typeName": type_name}
        for alarm, device, owner_name, type_name in page["list"]
    ]
    return page
