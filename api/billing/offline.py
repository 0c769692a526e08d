"""Offline purchases: service sold outside the platform, recorded by operators per device GUID and
applied (as a paid offline order) once the device is claimed: recharged, not recharged, recharge failed."""

from __future__ import annotations

from datetime import datetime

from flask_babel import gettext
from sqlalchemy import select

from api.billing import catalogue, orders
from api.billing.models import OfflinePurchase, OfflineState, Order, OrderDevice, PayType, ServicePackage
from api.device.models import Device
from api.extensions.db import db, paginate
from api.extensions.smorest import ApiError
from api.identity.auth import require_account
from api.platform.models import Platform
from api.tenancy import current_platform


def page(args: dict) -> dict:
    stmt = select(OfflinePurchase).where(OfflinePurchase.platform_id == current_platform().id)
    if args.get("state"):
        stmt = stmt.where(OfflinePurchase.state == args["state"])
    if args.get("guid"):
        stmt = stmt.where(OfflinePurchase.guid == args["guid"])
    return paginate(stmt, args, OfflinePurchase.id.desc())


def record(args: dict, now: datetime) -> OfflinePurchase:
    package = catalogue.find_package(args["packageId"])
    level = catalogue.level_of(package, args["levelId"])
    purchase = OfflinePurchase(
        platform_id=current_platform().id,
        guid=args["deviceGuid"],
        package_id=package.id,
        level_id=level["levelId"],
        months=args["months"],
        contract=args.get("contract"),
        created_by=require_account().id,
    )
    db.session.add(purchase)
    db.session.flush()
    apply(purchase, now)
    db.session.commit()
    return purchase


def retry(purchase_id: int, now: datetime) -> OfflinePurchase:
    """Try a purchase again; its row is locked, so a retry racing the periodic job recharges once."""
    purchase = db.session.scalar(
        select(OfflinePurchase)
        .where(OfflinePurchase.id == purchase_id)
        .with_for_update()
        .execution_options(populate_existing=True)
    )
    if purchase is None or purchase.platform_id != current_platform().id:
        raise ApiError(gettext("The requested resource does not exist."), code=404, http_status=404)
    if purchase.state != OfflineState.RECHARGED:
        purchase.state, purchase.reason = OfflineState.NOT_RECHARGED, None
        apply(purchase, now)
    db.session.commit()
    return purchase


def apply(purchase: OfflinePurchase, now: datetime) -> None:
    """Recharge the device if it is claimed; fail for good when it cannot be (no device, no package)."""
    platform = db.session.get(Platform, purchase.platform_id)
    data_platform = purchase.platform_id if platform is None or platform.independent else None
    stmt = select(Device).where(Device.guid == purchase.guid, Device.deleted.is_(False))
    if data_platform is not None:
        stmt = stmt.where(Device.platform_id == data_platform)
    device = db.session.scalar(stmt)
    package = db.session.get(ServicePackage, purchase.package_id) if purchase.package_id else None
    if device is None or package is None or device.device_type_id not in (package.device_type_ids or []):
        purchase.state = OfflineState.FAILED
        purchase.reason = (
            gettext("The device cannot be found, please confirm and re-enter")
            if device is None
            else gettext("service package not configured")
        )
        return
    if device.owner_account_id is None:
        return  # not claimed yet: applied by the periodic job once someone adds it
    level = next((lv for lv in package.levels if lv["levelId"] == purchase.level_id), {"levelName": None})
    order = Order(
        platform_id=purchase.platform_id,
        owner_account_id=device.owner_account_id,
        order_code=orders.new_order_code(now),
        package_id=package.id,
        package_name=package.package_name,
        level_id=purchase.level_id,
        level_name=level["levelName"],
        months=purchase.months,
        currency=package.currency,
        order_fee=0,
        pay_fee=0,
        lines=[
            {
                "item": "offline",
                "contract": purchase.contract,
                "months": purchase.months,
                "unit": 0,
                "unitDue": 0,
                "qty": 1,
            }
        ],
        description=purchase.contract,
        devices=[OrderDevice(device_id=device.id, guid=device.guid, expires_before=device.service_expires_at)],
    )
    db.session.add(order)
    db.session.flush()
    orders.settle(order, PayType.OFFLINE, f"offline-{purchase.id}", now)
    purchase.state, purchase.order_id, purchase.reason = OfflineState.RECHARGED, order.id, None


def apply_pending(now: datetime) -> int:
    # Locked (those an operator's retry holds are skipped, for the next run), so each is applied once.
    pending = db.session.scalars(
        select(OfflinePurchase)
        .where(OfflinePurchase.state == OfflineState.NOT_RECHARGED)
        .limit(500)
        .with_for_update(skip_locked=True)
        .execution_options(populate_existing=True)
    ).all()
    for purchase in pending:
        apply(purchase, now)
    db.session.commit()
    return sum(1 for p in pending if p.state == OfflineState.RECHARGED)
