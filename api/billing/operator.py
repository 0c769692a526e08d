"""The operators' order views: every order of the site, the order data report, CSV export, refunds
and offline confirmation."""

from __future__ import annotations

import csv
import io
from datetime import datetime

from flask import Response
from flask_babel import gettext
from sqlalchemy import select

from api.account.auth import require_account
from api.billing import orders, payments, settlements
from api.billing.models import Order, PayStatus, PayType
from api.device.models import Device
from api.extensions.db import db, paginate, utcnow
from api.extensions.smorest import ApiError
from api.tenancy import current_platform

NON_REFUNDABLE = (PayType.FREE, PayType.OFFLINE)
MAX_EXPORT = 50_000


def _site_orders():
    return select(Order).where(Order.platform_id == current_platform().id)


def page(args: dict) -> dict:
    return paginate(orders.filtered(_site_orders(), args), args, Order.id.desc())


def find(order_id: int) -> Order:
    order = db.session.get(Order, order_id)
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
    """Refund a paid online order: the payment goes back through its provider, then the service it
    added is taken back from devices whose expiry it still sets (a later order's extension stays)."""
    order = find(order_id)
    refund_order(order, reason)
    for line in order.devices:
        device = db.session.scalar(select(Device).where(Device.id == line.device_id).with_for_update())
        if device is not None and line.applied_at and device.service_expires_at == line.expires_after:
            device.service_expires_at = line.expires_before
            device.data_expires_at = device.data_expires_at and (
                line.expires_before + (device.data_expires_at - line.expires_after) if line.expires_before else None
            )
            device.sms_count = max(0, device.sms_count - order.sms_count)
            device.voice_count = max(0, device.voice_count - order.voice_count)
    db.session.commit()
    return order


def confirm_offline(order_id: int, reference: str) -> Order:
    order = find(order_id)
    if order.pay_status != PayStatus.UNPAID:
        raise ApiError(gettext("This order cannot be processed manually"), code=3007)
    order.confirmed_by = require_account().id
    db.session.flush()
    orders.settle(order, PayType.OFFLINE, reference[:64], utcnow())
    db.session.commit()
    return order
