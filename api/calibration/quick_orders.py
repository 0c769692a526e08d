"""Quick calibration orders: a contact asks, the lab handles it once."""

from __future__ import annotations

from flask_babel import gettext
from sqlalchemy import or_, select

from api.calibration.models import (
    QuickOrder,
    QuickOrderStatus,
)
from api.calibration.services import MAX_ITEMS, TOO_MANY, new_order_no, not_found, refuse
from api.extensions.db import db, paginate
from api.extensions.i18n import N_
from api.extensions.smorest import ApiError
from api.identity.auth import require_account
from api.tenancy import data_platform_id


def apply_quick(args: dict) -> QuickOrder:
    order = QuickOrder(
        platform_id=data_platform_id(),
        owner_account_id=require_account().id,
        order_no=new_order_no("CQ"),
        company=args.get("company"),
        contact=args["contact"],
        phone=args["phone"],
        device_model=args.get("deviceModel"),
        quantity=args["quantity"],
        remark=args.get("remark"),
    )
    if order.quantity > MAX_ITEMS:
        raise ApiError(gettext(TOO_MANY), code=4001, data={"maxItems": MAX_ITEMS})
    db.session.add(order)
    db.session.commit()
    return order


def quick_page(args: dict) -> dict:
    stmt = select(QuickOrder).where(QuickOrder.platform_id == data_platform_id())
    if args.get("status"):
        stmt = stmt.where(QuickOrder.status == args["status"])
    if args.get("keyword"):
        word = args["keyword"]
        stmt = stmt.where(
            or_(
                QuickOrder.contact.icontains(word, autoescape=True),
                QuickOrder.phone.icontains(word, autoescape=True),
                QuickOrder.order_no.icontains(word, autoescape=True),
            )
        )
    return paginate(stmt, args, QuickOrder.id.desc())


def handle_quick(args: dict) -> QuickOrder:
    order = db.session.scalar(
        select(QuickOrder)
        .where(QuickOrder.id == args["quickOrderId"], QuickOrder.platform_id == data_platform_id())
        .with_for_update()  # handled once: a second handler waits, then finds it handled
        .execution_options(populate_existing=True)
    )
    if order is None:
        raise not_found()
    if order.status != QuickOrderStatus.PENDING:
        raise refuse(N_("This quick order has already been handled."))
    order.status = QuickOrderStatus(args["status"])
    order.handle_note = args.get("note")
    order.handled_by = require_account().id
    db.session.commit()
    return order
