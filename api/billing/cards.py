"""Recharge cards: batches of codes, each worth some months of a package level for one device,
redeemed once; the redemption is recorded as a paid order (pay type free) so it shows in the lists."""

from __future__ import annotations

from flask_babel import gettext
from sqlalchemy import select, update

from api.billing import catalogue, coupons, orders
from api.billing.models import Order, OrderDevice, PayType, RechargeCard
from api.extensions.db import db, utcnow
from api.extensions.smorest import ApiError
from api.identity.auth import require_account
from api.tenancy import current_platform


def generate(args: dict) -> list[RechargeCard]:
    package = catalogue.find_package(args["packageId"])
    level = catalogue.level_of(package, args["levelId"])
    made = [
        RechargeCard(
            platform_id=current_platform().id,
            prefix=args["prefix"],
            code=coupons.new_code(args["prefix"]),
            package_id=package.id,
            level_id=level["levelId"],
            months=args["months"],
            valid_to=args["validTo"],
            remark=args.get("remark"),
        )
        for _ in range(args["count"])
    ]
    db.session.add_all(made)
    db.session.commit()
    return made


def page(args: dict) -> dict:
    return coupons.page_of(RechargeCard, args)


def redeem(code: str, device_id: int) -> Order:
    me = require_account().id
    now = utcnow()
    device = orders.chosen_devices([device_id])[0]
    card = db.session.scalar(
        select(RechargeCard).where(
            RechargeCard.code == code.strip().upper(), RechargeCard.platform_id == current_platform().id
        )
    )
    if card is None or card.valid_to <= now:
        raise ApiError(gettext("This recharge card cannot be used."), code=3401)
    package = catalogue.find_package(card.package_id)
    if device.device_type_id not in (package.device_type_ids or []):
        raise catalogue.not_configured()
    level = catalogue.level_of(package, card.level_id)
    taken = db.session.execute(
        update(RechargeCard)
        .where(RechargeCard.id == card.id, RechargeCard.used_at.is_(None))
        .values(used_by=me, used_at=now, device_id=device.id)
    )
    if taken.rowcount != 1:
        raise ApiError(gettext("This recharge card cannot be used."), code=3401)
    order = Order(
        platform_id=current_platform().id,
        owner_account_id=me,
        order_code=orders.new_order_code(now),
        package_id=package.id,
        package_name=package.package_name,
        level_id=level["levelId"],
        level_name=level["levelName"],
        months=card.months,
        currency=package.currency,
        order_fee=0,
        pay_fee=0,
        lines=[{"item": "card", "code": card.code, "months": card.months, "unit": 0, "unitDue": 0, "qty": 1}],
        description=gettext("Recharge card %(code)s", code=card.code),
        devices=[OrderDevice(device_id=device.id, guid=device.guid, expires_before=device.service_expires_at)],
    )
    db.session.add(order)
    db.session.flush()
    orders.settle(order, PayType.FREE, card.code, now)
    db.session.commit()
    return order
