"""The receipt of a paid order (/receipt): the order, its seller (the site's company: name, address,
tax id from the customization form), its buyer (the account, with its default invoice details' tax id
when it has some) and its tax. The platform keeps no tax rate, so the receipt says the amounts include
tax rather than inventing a rate; every amount is integer cents in the order's currency."""

from __future__ import annotations

from sqlalchemy import select

from api.billing import orders
from api.billing.models import BillMode, InvoiceInfo, Order
from api.extensions.db import db
from api.identity.auth import require_account
from api.platform.models import Platform


def seller_of(order: Order) -> dict:
    platform = db.session.get(Platform, order.platform_id)
    return {
        "name": platform.enterprise_name,
        "address": platform.company_address,
        "taxId": platform.tax_id,
    }


def _invoice_details(account_id: int) -> InvoiceInfo | None:
    """The buyer's invoice details: the default ones, else the first saved."""
    stmt = select(InvoiceInfo).where(InvoiceInfo.owner_account_id == account_id)
    return db.session.scalars(stmt.order_by(InvoiceInfo.is_default.desc(), InvoiceInfo.id)).first()


def buyer_of() -> dict:
    account = require_account()
    info = _invoice_details(account.id)
    enterprise = info is not None and info.bill_mode == BillMode.ENTERPRISE
    return {
        "name": account.real_name or account.user_name,
        "company": (info.company_name if enterprise else None) or account.company_name,
        "taxId": info.tax_number if enterprise else None,
        "invoiceTitle": info.bill_name if info is not None else None,
    }


def tax_of(order: Order) -> dict:
    """No tax setting on the platform: the total as paid, tax included (no rate, no split)."""
    return {"included": True, "currency": order.currency, "total": order.pay_fee}


def receipt(order_code: str) -> dict:
    order = orders.my_order(code=order_code)
    return {"order": order, "seller": seller_of(order), "buyer": buyer_of(), "tax": tax_of(order)}
