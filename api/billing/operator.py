"""The operators' order views: every order of the site, the order data report, CSV export, refunds
and offline confirmation."""

from __future__ import annotations

import csv
import io
from datetime import datetime

from flask import Response
from flask_babel import gettext
from sqlalchemy import select

from api.billing import orders, payments, settlements
from api.billing.models import Order, OrderDevice, PayStatus, PayType
from api.device.expiry import reverse_service
from api.device.models import Device, DeviceEvent
from api.extensions.db import db, paginate, utcnow
from api.extensions.smorest import ApiError
from api.identity.auth import require_account
from api.tenancy import current_platform

NON_REFUNDABLE = (PayType.FREE, PayType.OFFLINE)
MAX_EXPORT = 50_000


def _site_orders():
    return select(Order).where(Order.platform_id == current_platform().id)


def page(args: dict) -> dict:
    return paginate(orders.filtered(_site_orders(), args), args, Order.id.desc())


def find(order_id: int, *, lock: bool = False) -> Order:
    """An order of this site; `lock` takes its row (FOR UPDATE, read afresh): whoever changes its
    status next waits for this transaction, so a refund or a confirmation happens once."""
    stmt = select(Order).where(Order.id == order_id)
    if lock:
        stmt = stmt.with_for_update().execution_options(populate_existing=True)
    order = db.session.scalar(stmt)
    if order is None or order.platform_id != current_platform().id:
        raise orders.missing()
    return order


def report(start: datetime, end: datetime) -> dict:
    paid = _site_orders().where(Order.pay_status == PayStatus.PAID, Order.pay_time >= start, Order.pay_time < end)
    rows = db.session.scalars(paid.order_by(Order.pay_time)).all()
    by_day: dict[str, int] = {}
    by_package: dict[str, int] = {}
    by_type: dict[str, int] = {}
    for order in rows:
        day = order.pay_time.date().isoformat()
        by_day[day] = by_day.get(day, 0) + order.pay_fee
        name = order.package_name or "-"
        by_package[name] = by_package.get(name, 0) + order.pay_fee
        kind = order.pay_type.value if order.pay_type else "-"
        by_type[kind] = by_type.get(kind, 0) + order.pay_fee
    return {
        "total": sum(o.pay_fee for o in rows),
        "orders": len(rows),
        "byDay": [{"day": k, "amount": v} for k, v in by_day.items()],
        "byPackage": [{"package": k, "amount": v} for k, v in sorted(by_package.items(), key=lambda kv: -kv[1])],
        "byPayType": [{"payType": k, "amount": v} for k, v in sorted(by_type.items(), key=lambda kv: -kv[1])],
    }


def _units(cents: int) -> str:
    sign = "-" if cents < 0 else ""
    return f"{sign}{abs(cents) // 100}.{abs(cents) % 100:02d}"


def export_csv(args: dict) -> Response:
    stmt = orders.filtered(_site_orders(), args).order_by(Order.id.desc()).limit(MAX_EXPORT)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        [
            gettext("Order number"),
            gettext("Package"),
            gettext("Months"),
            gettext("Order fee"),
            gettext("Pay fee"),
            gettext("Currency"),
            gettext("Payment status"),
            gettext("Payment type"),
            gettext("Created"),
            gettext("Paid"),
        ]
    )
    for order in db.session.scalars(stmt):
        writer.writerow(
            [
                order.order_code,
                order.package_name or "",
                order.months,
                _units(order.order_fee),
                _units(order.pay_fee),
                order.currency,
                order.pay_status.value,
                order.pay_type.value if order.pay_type else "",
                order.created_at.isoformat(),
                order.pay_time.isoformat() if order.pay_time else "",
            ]
        )
    return Response(
        "\ufeff" + out.getvalue(),
        mimetype="text/csv",
        headers={"Content-Disposition": "attachment; filename=orders.csv"},
    )


def refundable(order: Order) -> bool:
    return order.pay_status == PayStatus.PAID and order.pay_type is not None and order.pay_type not in NON_REFUNDABLE


def refund_order(order: Order, reason: str | None) -> None:
    """Give a paid online order's money back through its provider and mark it refunded; the area
    that sold it (a registered settlement) is told. Not committed: the caller commits."""
    if not refundable(order):
        raise ApiError(gettext("This order is non-refundable"), code=3006)
    if order.pay_fee > 0:
        # The money first: a provider that refuses leaves the order paid and its service in place.
        order.refund_id = payments.refund_at_provider(order, reason)
    now = utcnow()
    order.pay_status, order.refund_time = PayStatus.REFUNDED, now
    order.description = (reason or order.description or "")[:200] or None
    settlement = settlements.settlement_of(order.purpose)
    if settlement is not None and settlement.on_refunded is not None:
        settlement.on_refunded(order, now)


def refund(order_id: int, reason: str | None) -> Order:
    """Refund a paid online order, once however many operators ask at once (the order's row is locked
    first: the others wait, then find it refunded): the payment goes back through its provider, then
    exactly what the order gave each device is taken back, even when later orders extended it since
    (theirs stays). What was taken back is the refund's record (`reversed_items`, a device event)."""
    order = find(order_id, lock=True)
    refund_order(order, reason)
    order.reversed_items = [item for line in order.devices if (item := _reverse(order, line)) is not None]
    db.session.commit()
    return order


def _reverse(order: Order, line: OrderDevice) -> dict | None:
    if line.applied_at is None or line.expires_after is None:
        return None
    device = db.session.scalar(
        select(Device)
        .where(Device.id == line.device_id)
        .with_for_update(key_share=True)  # as settle: an order being created for it holds a key-share lock
        .execution_options(populate_existing=True)
    )
    if device is None:
        return None
    # The order extended from its end then, or from the moment it was applied when that end had passed.
    start = line.expires_before if line.expires_before and line.expires_before > line.applied_at else line.applied_at
    before, after, sms, voice = reverse_service(
        device, line.expires_after - start, sms=order.sms_count, voice=order.voice_count
    )
    item = {
        "deviceId": device.id,
        "guid": device.guid,
        "months": order.months,
        "days": order.free_days,
        "sms": sms,
        "voice": voice,
        "smsUsed": order.sms_count - sms,  # already sent: could not be taken back
        "voiceUsed": order.voice_count - voice,
        "expiresBefore": before.isoformat() if before else None,
        "expiresAfter": after.isoformat() if after else None,
    }
    db.session.add(
        DeviceEvent(
            device_id=device.id,
            account_id=require_account().id,
            action="refund",
            detail={"orderCode": order.order_code, **{k: v for k, v in item.items() if k not in ("deviceId", "guid")}},
        )
    )
    return item


def confirm_offline(order_id: int, reference: str) -> Order:
    order = find(order_id, lock=True)
    if order.pay_status != PayStatus.UNPAID:
        raise ApiError(gettext("This order cannot be processed manually"), code=3007)
    order.confirmed_by = require_account().id
    db.session.flush()
    orders.settle(order, PayType.OFFLINE, reference[:64], utcnow())
    db.session.commit()
    return order
