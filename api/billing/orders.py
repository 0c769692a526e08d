"""Orders: the price computed here, the devices' service extended exactly once when the money is in
(a provider's verified notification, an operator's offline confirmation, or nothing to pay)."""

from __future__ import annotations

import logging
import secrets
from datetime import datetime, timedelta

from flask_babel import gettext
from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from api.access.reach import visible
from api.billing import catalogue, coupons, settlements
from api.billing.models import (
    FreeServiceUse,
    Order,
    OrderDevice,
    PackKind,
    PayStatus,
    PayType,
    ServicePackage,
)
from api.billing.pricing import PackChoice, quote
from api.billing.schemas import MAX_ORDER_DEVICES
from api.device.expiry import extend_service
from api.device.models import Device, DeviceEvent
from api.extensions.countries import country_of_zone
from api.extensions.db import db, paginate, utcnow
from api.extensions.smorest import ApiError
from api.identity.auth import require_account
from api.tenancy import current_platform

log = logging.getLogger(__name__)
PAYMENT_WINDOW = timedelta(hours=2)  # an unpaid order closes after this (its coupon comes back)


def order_failed() -> ApiError:
    return ApiError(gettext("Failed to create order, please contact customer service"), code=3001)


def missing() -> ApiError:
    return ApiError(gettext("The requested resource does not exist."), code=404, http_status=404)


def new_order_code(now: datetime) -> str:
    """CO + UTC time + six random characters: 20 characters, unguessable, sortable by time."""
    return "CO" + now.strftime("%y%m%d%H%M%S") + secrets.token_hex(3).upper()


def chosen_devices(device_ids: list[int]) -> list[Device]:
    if len(set(device_ids)) > MAX_ORDER_DEVICES:
        raise ApiError(gettext("The number of products exceeds the limit"), code=3002)
    devices = db.session.scalars(
        visible(select(Device), Device).where(Device.id.in_(set(device_ids)), Device.deleted.is_(False))
    ).all()
    if len(devices) != len(set(device_ids)):
        raise missing()
    # One order prices in one country's currency and tax: its devices must be in one country (by the
    # country of their time zone; a zone of no country, such as UTC, goes with any).
    countries = {country for country in (country_of_zone(d.time_zone) for d in devices) if country}
    if len(countries) > 1:
        raise ApiError(
            gettext(
                "The chosen devices are in different countries (%(countries)s): "
                "recharge each country's devices separately.",
                countries=", ".join(sorted(countries)),
            ),
            code=3008,
        )
    return sorted(devices, key=lambda d: d.id)


def _draft(args: dict) -> tuple[Order, list[Device]]:
    """An order (not yet added) with its price: the same computation for a quote and a purchase."""
    me = require_account()
    devices = chosen_devices(args["deviceIds"])
    order = Order(platform_id=current_platform().id, owner_account_id=me.id, currency="CNY", sms_count=0, voice_count=0)
    price = None
    months = free_days = 0
    activity_discount = 0
    if args.get("packageId") is not None:
        packages = catalogue.packages_for_devices(devices)
        package = next((p for p in packages if p.id == args["packageId"]), None)
        if package is None:
            raise catalogue.not_configured()
        level = catalogue.level_of(package, args.get("levelId"))
        order.package_id, order.package_name = package.id, package.package_name
        order.level_id, order.level_name, order.currency = level["levelId"], level["levelName"], package.currency
        if args.get("free"):
            _free_service(order, level, devices)
            free_days = level["free"]["timeLength"]
        else:
            price = catalogue.price_of(level, args.get("months"))
            months = price["months"]
            if args.get("activityId") is not None:
                activity = next((a for a in catalogue.activities_for(package.id) if a.id == args["activityId"]), None)
                if activity is None:
                    raise ApiError(gettext("This activity is not available."), code=3103)
                order.activity_id, activity_discount = activity.id, activity.discount
    choices = []
    # One order is paid in one currency: the packs must be priced in the package's (or each other's).
    currency = order.currency if args.get("packageId") is not None else None
    for field, kind in (("smsPackId", PackKind.SMS), ("voicePackId", PackKind.VOICE)):
        if args.get(field) is not None:
            pack = catalogue.find_pack(args[field], kind)
            if currency is not None and pack.currency != currency:
                message = gettext(
                    "This package is priced in %(pack)s, the order in %(order)s.", pack=pack.currency, order=currency
                )
                raise ApiError(message, code=422, http_status=422, data={"errors": {field: [message]}})
            currency = order.currency = pack.currency
            choices.append(PackChoice(kind.value, pack.name, pack.count, pack.fee, pack.discount))
            if kind == PackKind.SMS:
                order.sms_count = pack.count
            else:
                order.voice_count = pack.count
    if price is None and not choices and not free_days:
        raise ApiError(gettext("Choose a package or an SMS / voice package."), code=422, http_status=422)
    coupon_fee = 0
    if args.get("couponCode") and not free_days:
        coupon = coupons.reserve(args["couponCode"], me.id)
        order.coupon_id, coupon_fee = coupon.id, coupon.fee
    result = quote(len(devices), price, choices, activity_discount, coupon_fee)
    order.months, order.free_days = months, free_days
    order.order_fee, order.pay_fee, order.lines = result.order_fee, result.pay_fee, result.lines
    if free_days:  # the free service's SMS and voice counts come with its days
        order.sms_count += level["free"].get("smsCount", 0)
        order.voice_count += level["free"].get("voiceCount", 0)
    return order, devices


def _free_service(order: Order, level: dict, devices: list[Device]) -> None:
    """A level's free service: once per device and level. This answers early; what holds the rule is
    free_service_use's unique constraint, taken when the order is created (`_claim_free`)."""
    if not level.get("free"):
        raise ApiError(gettext("This service level has no free service."), code=3104)
    used = db.session.scalar(
        select(FreeServiceUse.device_id)
        .where(
            FreeServiceUse.device_id.in_([d.id for d in devices]),
            FreeServiceUse.package_id == order.package_id,
            FreeServiceUse.level_id == order.level_id,
        )
        .limit(1)
    )
    if used is not None:
        raise free_service_used()


def free_service_used() -> ApiError:
    return ApiError(gettext("The free service of this level was already used for one of these devices."), code=3105)


def _claim_free(order: Order) -> None:
    """Take the order's free service for each of its devices: an insert the unique constraint lets
    through once per device and level, however many orders race (the losers wait, then fail here)."""
    rows = [
        FreeServiceUse(
            device_id=line.device_id, package_id=order.package_id, level_id=order.level_id, order_id=order.id
        )
        for line in order.devices
    ]
    try:
        with db.session.begin_nested():
            db.session.add_all(rows)
    except IntegrityError:
        db.session.rollback()
        raise free_service_used() from None


def price(args: dict) -> Order:
    """The price the server will charge, without creating anything (a coupon is checked, not taken)."""
    order, _ = _draft(args)
    db.session.rollback()  # a coupon reserved while pricing goes back
    return order


def create(args: dict) -> Order:
    order, devices = _draft(args)
    now = utcnow()
    order.order_code = new_order_code(now)
    order.apply_flag, order.description = args["applyFlag"], args.get("description")
    order.devices = [OrderDevice(device_id=d.id, guid=d.guid, expires_before=d.service_expires_at) for d in devices]
    try:
        db.session.add(order)
        db.session.flush()
        if order.free_days:
            _claim_free(order)
        if order.pay_fee == 0:
            settle(order, PayType.FREE, None, now)
        db.session.commit()
    except SQLAlchemyError:
        db.session.rollback()
        log.exception("order creation failed")
        raise order_failed() from None
    return order


def create_for_subject(
    purpose: str, subject_id: int, owner_account_id: int, pay_fee: int, currency: str, lines: list[dict]
) -> Order:
    """An unpaid order on this site for something another area sells (its price computed there, in
    cents); settled at once when nothing is due. Flushed, not committed: the caller commits."""
    settlement = settlements.settlement_of(purpose)
    now = utcnow()
    order = Order(
        platform_id=current_platform().id,
        owner_account_id=owner_account_id,
        order_code=new_order_code(now),
        purpose=purpose,
        subject_id=subject_id,
        currency=currency,
        order_fee=pay_fee,
        pay_fee=pay_fee,
        lines=lines,
        sms_count=0,
        voice_count=0,
        description=gettext(settlement.label)[:200] if settlement else None,
    )
    db.session.add(order)
    db.session.flush()
    if pay_fee == 0:
        settle(order, PayType.FREE, None, now)
    return order


def orders_of(purpose: str, subject_id: int, *statuses: PayStatus, lock: bool = False) -> list[Order]:
    """The orders of something another area sells, newest first (only those in `statuses` if given);
    `lock` takes their rows (before the subject's, the order a notification takes them in)."""
    stmt = select(Order).where(Order.purpose == purpose, Order.subject_id == subject_id)
    if statuses:
        stmt = stmt.where(Order.pay_status.in_(statuses))
    return list(db.session.scalars((stmt.with_for_update() if lock else stmt).order_by(Order.id.desc())))


def mine(args: dict) -> dict:
    me = require_account()
    stmt = select(Order).where(Order.owner_account_id == me.id, Order.platform_id == current_platform().id)
    return paginate(filtered(stmt, args), args, Order.id.desc())


def filtered(stmt, args: dict):
    if args.get("orderCode"):
        stmt = stmt.where(Order.order_code == args["orderCode"].strip().upper())
    if args.get("payStatus"):
        stmt = stmt.where(Order.pay_status == args["payStatus"])
    if args.get("payType"):
        stmt = stmt.where(Order.pay_type == args["payType"])
    if args.get("startTime"):
        stmt = stmt.where(Order.created_at >= args["startTime"])
    if args.get("endTime"):
        stmt = stmt.where(Order.created_at < args["endTime"])
    return stmt


def my_order(order_id: int | None = None, code: str | None = None) -> Order:
    """One of the signed-in account's orders on this site, by id or code (404 for anybody else's)."""
    stmt = select(Order).where(
        Order.owner_account_id == require_account().id, Order.platform_id == current_platform().id
    )
    stmt = stmt.where(Order.id == order_id) if order_id is not None else stmt.where(Order.order_code == (code or ""))
    order = db.session.scalar(stmt)
    if order is None:
        raise missing()
    return order


def load_order(order_id: int) -> Order | None:
    """The access gate's loader: the order of this site (the gate then requires its owner)."""
    order = db.session.get(Order, order_id)
    return order if order is not None and order.platform_id == current_platform().id else None


# ---- settlement --------------------------------------------------------------------------------------------


def settle(order: Order, pay_type: PayType, transaction_id: str | None, now: datetime) -> bool:
    """Mark an unpaid order paid and extend its devices, exactly once: the conditional update lets one
    caller through, however many notifications race. Returns False for any order not unpaid (paid
    already, closed: its coupon may be on another order now, refunded): nothing is applied twice."""
    moved = db.session.execute(
        update(Order)
        .where(Order.id == order.id, Order.pay_status == PayStatus.UNPAID)
        .values(pay_status=PayStatus.PAID, pay_type=pay_type, transaction_id=transaction_id, pay_time=now)
        .execution_options(synchronize_session=False)
    )
    if moved.rowcount != 1:
        return False
    db.session.refresh(order)
    settlement = settlements.settlement_of(order.purpose)
    if settlement is not None:  # what another area sells: that area settles it (exactly once, here)
        settlement.on_paid(order, now)
        return True
    for line in order.devices:
        if line.applied_at is not None:
            continue
        # FOR NO KEY UPDATE: an order being created for this device holds a key-share lock (its
        # order line's foreign key), which this must not wait for (two such orders would deadlock).
        device = db.session.scalar(
            select(Device)
            .where(Device.id == line.device_id)
            .with_for_update(key_share=True)
            .execution_options(populate_existing=True)
        )
        if device is None:
            continue
        before, after = extend_service(
            device, now, months=order.months, days=order.free_days, sms=order.sms_count, voice=order.voice_count
        )
        line.expires_before, line.expires_after, line.applied_at = before, after, now
        db.session.add(
            DeviceEvent(
                device_id=device.id,
                account_id=order.owner_account_id,
                action="recharge",
                detail={"orderCode": order.order_code, "months": order.months, "days": order.free_days},
            )
        )
    return True


def by_code(code: str) -> Order | None:
    return db.session.scalar(select(Order).where(Order.order_code == code))


def close_stale(now: datetime) -> int:
    """Close unpaid orders past their payment window and give their coupons and free services back.
    One conditional update: an order a notification settles meanwhile stays paid (and keeps its coupon)."""
    closed = db.session.execute(
        update(Order)
        .where(Order.pay_status == PayStatus.UNPAID, Order.created_at < now - PAYMENT_WINDOW)
        .values(pay_status=PayStatus.CLOSED)
        .returning(Order.id, Order.coupon_id)
        .execution_options(synchronize_session=False)
    ).all()
    for _order_id, coupon_id in closed:
        if coupon_id:
            coupons.release(coupon_id)
    if closed:
        db.session.execute(delete(FreeServiceUse).where(FreeServiceUse.order_id.in_([row[0] for row in closed])))
    db.session.commit()
    return len(closed)


def package_of(order: Order) -> ServicePackage | None:
    return db.session.get(ServicePackage, order.package_id) if order.package_id else None
