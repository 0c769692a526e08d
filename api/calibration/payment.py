"""Paying a calibration application through the payment area (api/billing): no second payment
implementation, one more thing billing orders pay for.

- The customer's `Application/payOrder` opens a billing order (purpose `calibration`, subject the
  application) for the application's price, computed on the server at application time from the price
  configuration (services.item_price); an unpaid one is reused. It is paid with the payment area's own
  calls (/api/payment/payment/wechatPay | aliPay | payPal, PayOrder/get | confirmPay) and providers'
  notifications, verified there.
- Billing calls `on_paid` exactly once per order when the money is in: a submitted application moves
  to confirmed (paid), with the pay type and order code in its status history. A payment arriving for
  an application no longer waiting for one (paid already, cancelled) is recorded as an extra payment
  for the lab to give back. A payment of an order closed unpaid is never settled: billing refunds it
  through the provider (api/billing/notices.py).
- The lab's offline confirmation (a bank transfer: applicationStatus 1 -> 2) settles the same way with
  pay type `offline`, so an application is confirmed once whichever comes first.
- An approved cancellation of a paid application refunds it through the provider it came through
  (billing's refund, named after the order); a bank transfer is given back by the lab (recorded).
"""

from __future__ import annotations

import logging
from datetime import datetime

from flask import g, has_request_context
from flask_babel import gettext
from sqlalchemy import select

from api.billing import operator, orders
from api.billing.models import Order, PayStatus, PayType
from api.billing.settlements import register_settlement
from api.calibration import certificates, services, states
from api.calibration.models import Application, StatusHistory
from api.calibration.states import Action, Actor
from api.extensions.db import db, utcnow
from api.extensions.i18n import N_
from api.extensions.smorest import ApiError
from api.identity.auth import require_account

log = logging.getLogger(__name__)
PURPOSE = "calibration"
LABEL = N_("Calibration service")
PAID, EXTRA, REFUNDED, REFUND_BY_LAB = "paid", "extra", "refunded", "refund_by_lab"
SHOWN = (PayStatus.PAID, PayStatus.REFUNDED, PayStatus.UNPAID)  # which order the detail shows, in turn


def register() -> None:
    register_settlement(PURPOSE, LABEL, on_paid, on_refunded, return_path)


def return_path(order: Order) -> str:
    return f"/calibration/order/{order.subject_id}"


def not_payable(message: str) -> ApiError:
    return ApiError(gettext(message), code=4002)


def _locked(application_id: int) -> Application | None:
    return db.session.scalar(
        select(Application)
        .where(Application.id == application_id)
        .with_for_update()
        .execution_options(populate_existing=True)
    )


def _lines(application: Application) -> list[dict]:
    return [
        {
            "item": PURPOSE,
            "name": f"{item.device_model} {item.serial} ({item.level.value})",
            "unit": item.price // item.quantity,
            "unitDue": item.price // item.quantity,
            "qty": item.quantity,
        }
        for item in application.items
    ]


# ---- the customer pays ------------------------------------------------------------------------------


def pay_order(application_id: int) -> dict:
    """The billing order paying the caller's application (reused while unpaid): pay it with the
    payment area's calls. Nothing due: paid (and the application confirmed) at once."""
    application = services.own(application_id)
    _locked(application.id)  # one order at a time per application
    if states.is_cancelled(application.status):
        raise services.refuse(services.CANCELLED_MESSAGE)
    if application.status != states.SUBMITTED:
        raise not_payable(N_("This order is already paid."))
    if application.cancel_requested:
        raise not_payable(N_("A cancellation request is waiting for the lab: this order cannot be paid now."))
    unpaid = orders.orders_of(PURPOSE, application.id, PayStatus.UNPAID)
    order = next((o for o in unpaid if o.pay_fee == application.total_price), None)
    if order is None:
        order = _new_order(application)
    db.session.commit()
    return answer(application, order)


def _new_order(application: Application) -> Order:
    """A billing order for the application's server-computed price."""
    return orders.create_for_subject(
        PURPOSE,
        application.id,
        application.owner_account_id,
        application.total_price,
        application.currency,
        _lines(application),
    )


def answer(application: Application, order: Order) -> dict:
    return {
        "applicationId": application.id,
        "orderCode": order.order_code,
        "payFee": order.pay_fee,
        "currency": order.currency,
        "payStatus": order.pay_status,
        "payType": order.pay_type,
        "payTime": order.pay_time,
        "refundTime": order.refund_time,
    }


def payment_of(application: Application) -> dict | None:
    """The order the detail shows: the first paid (the one that confirmed it), else the latest refunded,
    else the latest open one (None: none yet)."""
    found = orders.orders_of(PURPOSE, application.id)  # newest first
    for status in SHOWN:
        rows = [o for o in found if o.pay_status == status]
        if status == PayStatus.PAID:
            rows.sort(key=lambda o: (o.pay_time, o.id))
        order = rows[0] if rows else None
        if order is not None:
            return answer(application, order)
    return None


def detail(application: Application) -> dict:
    return {**certificates.detail_dict(application), "payment": payment_of(application)}


# ---- billing tells us --------------------------------------------------------------------------------


def _record(application: Application, event: str, order: Order, actor_id: int | None, note: str | None = None):
    application.history.append(
        StatusHistory(
            from_status=application.status,
            to_status=application.status,
            actor_account_id=actor_id,
            note=note,
            payment=event,
            pay_type=order.pay_type.value if order.pay_type else None,
            order_code=order.order_code,
        )
    )


def on_paid(order: Order, now: datetime) -> None:
    """A verified payment (or the lab's offline confirmation) of an application's order: called once
    per order by billing's settlement, in its transaction."""
    application = _locked(order.subject_id)
    if application is None:
        log.warning("calibration order %s paid for a missing application %s", order.order_code, order.subject_id)
        return
    offline = order.pay_type == PayType.OFFLINE
    if application.status != states.SUBMITTED:
        # Paid twice (another order, or the lab confirmed a transfer first) or after a cancellation.
        log.warning("calibration order %s paid again for application %s", order.order_code, application.id)
        _record(application, EXTRA, order, order.confirmed_by if offline else order.owner_account_id)
        return
    actor, action = (Actor.LAB, Action.STATUS) if offline else (Actor.PAYMENT, Action.PAID)
    row = services.move(
        application,
        states.CONFIRMED,
        actor,
        action,
        actor_id=order.confirmed_by if offline else order.owner_account_id,
    )
    row.payment, row.order_code = PAID, order.order_code
    row.pay_type = order.pay_type.value if order.pay_type else None


def on_refunded(order: Order, now: datetime) -> None:
    application = db.session.get(Application, order.subject_id)
    if application is not None:
        _record(application, REFUNDED, order, _who())


def _who() -> int | None:
    account = g.get("account") if has_request_context() else None  # the signed-in refunder, if any
    return account.id if account is not None else None


# ---- the lab -----------------------------------------------------------------------------------------


def set_status(args: dict) -> Application:
    """The lab's status call: confirming a submitted order records its offline payment (a bank
    transfer) in the payment area, so an application paid online cannot be confirmed again."""
    if args["status"] != states.CONFIRMED:
        return services.set_status(args)
    application = services.any_of_site(args["applicationId"])
    open_orders = orders.orders_of(PURPOSE, application.id, PayStatus.UNPAID, lock=True)
    _locked(application.id)
    if not states.allowed(application.status, states.CONFIRMED, Actor.LAB, Action.STATUS):
        services.move(application, states.CONFIRMED, Actor.LAB, Action.STATUS)  # refused as any other move
    order = open_orders[0] if open_orders else None
    if order is None:
        order = _new_order(application)
    lab = require_account()
    order.confirmed_by = lab.id
    db.session.flush()
    orders.settle(order, PayType.OFFLINE, (args.get("note") or "")[:64] or None, utcnow())
    if application.status != states.CONFIRMED:  # cannot happen under the row locks; never half-confirm
        raise not_payable(N_("This order is already paid."))
    if args.get("note"):
        application.history[-1].note = args["note"]
    db.session.commit()
    return application


def cancel_check(args: dict) -> Application:
    """The lab answers a cancellation request; approved, a paid application's money goes back."""
    return services.cancel_check(args, on_cancelled=refund_all)


def refund_all(application: Application) -> None:
    """Give back every payment of a cancelled application: online ones through their provider (a
    refusal there refuses the cancellation: nothing changes), bank transfers by the lab (recorded)."""
    for order in orders.orders_of(PURPOSE, application.id, PayStatus.PAID, lock=True):
        if order.pay_type == PayType.OFFLINE:
            _record(application, REFUND_BY_LAB, order, _who())
        elif operator.refundable(order):
            operator.refund_order(order, gettext("Calibration order %(no)s cancelled", no=application.order_no))
