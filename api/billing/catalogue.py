"""The operators' catalogue of a site: service packages (levels, durations, free service), SMS and
voice packs (at most five of each) and activities."""

from __future__ import annotations

from flask_babel import gettext
from sqlalchemy import func, select

from api.billing.models import Activity, MessagePack, PackKind, ServicePackage
from api.device.models import Device, DeviceType
from api.extensions.db import db, escape_like, paginate, utcnow
from api.extensions.smorest import ApiError
from api.identity.auth import require_account
from api.tenancy import current_platform

MAX_PACKS = 5  # business-domain section 9: five SMS and five voice packages


def missing() -> ApiError:
    return ApiError(gettext("The requested resource does not exist."), code=404, http_status=404)


def not_configured() -> ApiError:
    return ApiError(gettext("service package not configured"), code=3101)


# ---- packages --------------------------------------------------------------------------------------------


def _numbered(levels: list[dict], old: list[dict]) -> list[dict]:
    """Give each level a stable id (kept across edits, so orders and cards keep pointing at it)."""
    next_id = max([lv.get("levelId") or 0 for lv in old] + [0]) + 1
    known = {lv["levelId"] for lv in old}
    out = []
    for level in levels:
        level = {**level, "prices": sorted(level["prices"], key=lambda row: row["months"])}
        if level.get("levelId") not in known:
            level["levelId"], next_id = next_id, next_id + 1
        out.append(level)
    months = [[row["months"] for row in level["prices"]] for level in out]
    if any(len(m) != len(set(m)) for m in months):
        raise ApiError(gettext("Each duration appears once per level."), code=422, http_status=422)
    return out


def package_page(args: dict) -> dict:
    stmt = select(ServicePackage).where(ServicePackage.platform_id == current_platform().id)
    if args.get("packageName"):
        stmt = stmt.where(ServicePackage.package_name.ilike(f"%{escape_like(args['packageName'])}%", escape="\\"))
    return paginate(stmt, args, ServicePackage.id.desc())


def find_package(package_id: int) -> ServicePackage:
    package = db.session.get(ServicePackage, package_id)
    if package is None or package.platform_id != current_platform().id:
        raise missing()
    return package


def save_package(args: dict) -> ServicePackage:
    package = find_package(args["id"]) if "id" in args else ServicePackage(platform_id=current_platform().id)
    clash = db.session.scalar(
        select(ServicePackage.id).where(
            ServicePackage.platform_id == current_platform().id,
            ServicePackage.package_code == args["packageCode"],
            ServicePackage.id != (package.id or 0),
        )
    )
    if clash:
        raise ApiError(gettext("This package code is already used."), code=409)
    package.package_name, package.package_code = args["packageName"], args["packageCode"]
    package.enabled, package.currency = args["status"], args["currency"]
    package.enable_time = args.get("enableTime") or (utcnow() if args["status"] and not package.enable_time else None)
    package.device_type_ids = sorted(set(args["deviceTypeIds"]))
    package.levels = _numbered(args["levels"], package.levels or [])
    db.session.add(package)
    db.session.commit()
    return package


def delete_package(package_id: int) -> None:
    db.session.delete(find_package(package_id))
    db.session.commit()


def level_of(package: ServicePackage, level_id: int | None) -> dict:
    level = next((lv for lv in package.levels if lv["levelId"] == level_id), None)
    if level is None:
        raise ApiError(gettext("Choose a service level of the package."), code=422, http_status=422)
    return level


def price_of(level: dict, months: int | None) -> dict:
    row = next((row for row in level["prices"] if row["months"] == months), None)
    if row is None:
        raise ApiError(gettext("Choose a duration of the service level."), code=422, http_status=422)
    return row


def packages_for_devices(devices: list[Device]) -> list[ServicePackage]:
    """Packages on sale for every one of these devices' models ('service package not configured' if none)."""
    types = {device.device_type_id for device in devices}
    now = utcnow()
    packages = db.session.scalars(
        select(ServicePackage)
        .where(ServicePackage.platform_id == current_platform().id, ServicePackage.enabled.is_(True))
        .order_by(ServicePackage.id)
    ).all()
    usable = [
        p
        for p in packages
        if types <= set(p.device_type_ids or []) and (p.enable_time is None or p.enable_time <= now) and p.levels
    ]
    if not usable:
        raise not_configured()
    return usable


def device_types() -> list[dict]:
    """The device models a package can be for."""
    rows = db.session.scalars(select(DeviceType).order_by(DeviceType.type_code)).all()
    return [{"id": t.id, "typeName": t.type_name, "typeCode": f"{t.type_code:X}"} for t in rows]


# ---- SMS and voice packs ---------------------------------------------------------------------------------


def packs(kind: str | None = None) -> list[MessagePack]:
    stmt = select(MessagePack).where(MessagePack.platform_id == current_platform().id)
    if kind:
        stmt = stmt.where(MessagePack.kind == kind)
    return list(db.session.scalars(stmt.order_by(MessagePack.kind, MessagePack.fee, MessagePack.id)))


def find_pack(pack_id: int, kind: PackKind | None = None) -> MessagePack:
    pack = db.session.get(MessagePack, pack_id)
    if pack is None or pack.platform_id != current_platform().id or (kind and pack.kind != kind):
        raise missing()
    return pack


def save_pack(args: dict) -> MessagePack:
    pack = find_pack(args["id"]) if "id" in args else MessagePack(platform_id=current_platform().id)
    if pack.id is None or pack.kind != args["kind"]:
        count = db.session.scalar(
            select(func.count())
            .select_from(MessagePack)
            .where(MessagePack.platform_id == current_platform().id, MessagePack.kind == args["kind"])
        )
        if count >= MAX_PACKS:
            raise ApiError(gettext("At most 5 SMS packages and 5 voice packages."), code=3102)
    pack.kind, pack.name, pack.count = args["kind"], args["name"], args["count"]
    pack.fee, pack.currency, pack.discount = args["fee"], args["currency"], args["discount"]
    db.session.add(pack)
    db.session.commit()
    return pack


def delete_pack(pack_id: int) -> None:
    db.session.delete(find_pack(pack_id))
    db.session.commit()


# ---- activities ------------------------------------------------------------------------------------------


def activities() -> list[Activity]:
    stmt = select(Activity).where(Activity.platform_id == current_platform().id).order_by(Activity.id.desc())
    return list(db.session.scalars(stmt))


def find_activity(activity_id: int) -> Activity:
    activity = db.session.get(Activity, activity_id)
    if activity is None or activity.platform_id != current_platform().id:
        raise missing()
    return activity


def save_activity(args: dict) -> Activity:
    activity = find_activity(args["id"]) if "id" in args else Activity(platform_id=current_platform().id)
    find_package(args["packageId"])
    activity.package_id, activity.name, activity.discount = args["packageId"], args["name"], args["discount"]
    activity.starts_at, activity.ends_at = args["startTime"], args["endTime"]
    activity.enabled, activity.directional = args["status"], args["directional"]
    activity.account_ids = sorted(set(args["accountIds"])) if args["directional"] else []
    db.session.add(activity)
    db.session.commit()
    return activity


def delete_activity(activity_id: int) -> None:
    db.session.delete(find_activity(activity_id))
    db.session.commit()


def activities_for(package_id: int) -> list[Activity]:
    """Activities the signed-in account may use on a package now (public, or directed at it)."""
    now, me = utcnow(), require_account().id
    found = db.session.scalars(
        select(Activity).where(
            Activity.platform_id == current_platform().id,
            Activity.package_id == package_id,
            Activity.enabled.is_(True),
            Activity.starts_at <= now,
            Activity.ends_at > now,
        )
    ).all()
    return [a for a in found if not a.directional or me in (a.account_ids or [])]
