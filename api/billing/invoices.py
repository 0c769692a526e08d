"""Invoice info (personal ordinary or enterprise ordinary) and invoice requests for paid orders;
operators mark requests issued."""

from __future__ import annotations

from flask_babel import gettext
from sqlalchemy import select, update

from api.billing.models import BillMode, InvoiceInfo, InvoiceRequest, InvoiceStatus, Order, PayStatus
from api.extensions.db import db, paginate, utcnow
from api.extensions.smorest import ApiError
from api.identity.auth import require_account
from api.tenancy import current_platform

INFO_FIELDS = {
    "billName": "bill_name",
    "companyName": "company_name",
    "taxNumber": "tax_number",
    "personalName": "personal_name",
    "address": "address",
    "bankDeposit": "bank_deposit",
    "receiver": "receiver",
}


def missing() -> ApiError:
    return ApiError(gettext("The requested resource does not exist."), code=404, http_status=404)


def load_info(info_id: int) -> InvoiceInfo | None:
    return db.session.get(InvoiceInfo, info_id)


def load_request(request_id: int) -> InvoiceRequest | None:
    found = db.session.get(InvoiceRequest, request_id)
    return found if found is not None and found.platform_id == current_platform().id else None


def infos() -> list[InvoiceInfo]:
    stmt = select(InvoiceInfo).where(InvoiceInfo.owner_account_id == require_account().id)
    return list(db.session.scalars(stmt.order_by(InvoiceInfo.is_default.desc(), InvoiceInfo.id)))


def my_info(info_id: int) -> InvoiceInfo:
    info = load_info(info_id)
    if info is None or info.owner_account_id != require_account().id:
        raise missing()
    return info


def save_info(args: dict) -> InvoiceInfo:
    me = require_account().id
    info = my_info(args["id"]) if "id" in args else InvoiceInfo(owner_account_id=me)
    info.bill_mode = BillMode(args["billMode"])
    for field, column in INFO_FIELDS.items():
        setattr(info, column, args.get(field))
    if args["isDefault"]:
        db.session.execute(update(InvoiceInfo).where(InvoiceInfo.owner_account_id == me).values(is_default=False))
    info.is_default = args["isDefault"]
    db.session.add(info)
    db.session.commit()
    return info


def delete_info(info_id: int) -> None:
    db.session.delete(my_info(info_id))
    db.session.commit()


def snapshot(info: InvoiceInfo) -> dict:
    return {"billMode": info.bill_mode.value, **{field: getattr(info, column) for field, column in INFO_FIELDS.items()}}


def request_invoice(args: dict) -> InvoiceRequest:
    """One invoice for the chosen paid orders of the account that no invoice covers yet."""
    if not args["orderIds"]:
        raise ApiError(gettext("no orders selected for invoicing"), code=3301)
    me = require_account().id
    info = my_info(args["infoId"])
    chosen = db.session.scalars(
        select(Order)
        .where(
            Order.id.in_(set(args["orderIds"])),
            Order.owner_account_id == me,
            Order.platform_id == current_platform().id,
        )
        .with_for_update()
    ).all()
    if len(chosen) != len(set(args["orderIds"])):
        raise missing()
    if any(o.pay_status != PayStatus.PAID or o.invoice_status != InvoiceStatus.NONE or o.pay_fee <= 0 for o in chosen):
        raise ApiError(gettext("Only paid orders not yet invoiced can be invoiced."), code=3302)
    for order in chosen:
        order.invoice_status, order.apply_flag = InvoiceStatus.REQUESTED, True
    made = InvoiceRequest(
        platform_id=current_platform().id,
        owner_account_id=me,
        info=snapshot(info),
        order_ids=sorted(o.id for o in chosen),
        amount=sum(o.pay_fee for o in chosen),
    )
    db.session.add(made)
    db.session.commit()
    return made


def my_requests(args: dict) -> dict:
    stmt = select(InvoiceRequest).where(
        InvoiceRequest.owner_account_id == require_account().id, InvoiceRequest.platform_id == current_platform().id
    )
    return paginate(stmt, args, InvoiceRequest.id.desc())


def all_requests(args: dict) -> dict:
    stmt = select(InvoiceRequest).where(InvoiceRequest.platform_id == current_platform().id)
    if args.get("status"):
        stmt = stmt.where(InvoiceRequest.status == args["status"])
    return paginate(stmt, args, InvoiceRequest.id.desc())


def issue(request_id: int) -> InvoiceRequest:
    """Mark a request issued, unless one of its orders was refunded meanwhile (then nothing is issued:
    the request must be dealt with first). The orders are locked, so a refund racing waits."""
    found = db.session.scalar(
        select(InvoiceRequest)
        .where(InvoiceRequest.id == request_id, InvoiceRequest.platform_id == current_platform().id)
        .with_for_update()
        .execution_options(populate_existing=True)
    )
    if found is None:
        raise missing()
    # Every order of the request locked (a refund locks its order too: the two take turns), then judged.
    chosen = db.session.execute(
        select(Order.order_code, Order.pay_status)
        .where(Order.id.in_(found.order_ids))
        .order_by(Order.id)
        .with_for_update()
    ).all()
    refunded = [code for code, status in chosen if status != PayStatus.PAID]
    if refunded:
        raise ApiError(
            gettext(
                "No invoice can be issued for refunded orders (%(orders)s).",
                orders=", ".join(refunded),
            ),
            code=3303,
        )
    if found.status != InvoiceStatus.ISSUED:
        found.status, found.issued_at, found.issued_by = InvoiceStatus.ISSUED, utcnow(), require_account().id
        db.session.execute(
            update(Order).where(Order.id.in_(found.order_ids)).values(invoice_status=InvoiceStatus.ISSUED)
        )
    db.session.commit()
    return found
