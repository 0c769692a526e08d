"""Coupons: batches of codes worth `fee` cents off one order, each redeemed once within its validity.
A coupon is reserved by the order that names it and released if that order closes unpaid."""

from __future__ import annotations

import secrets

from flask_babel import gettext
from sqlalchemy import select, update

from api.billing.models import Coupon
from api.extensions.db import db, paginate, utcnow
from api.extensions.smorest import ApiError
from api.tenancy import current_platform

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud and typed by hand


def new_code(prefix: str, length: int = 12) -> str:
    return prefix + "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))


def generate(args: dict) -> list[Coupon]:
    made = [
        Coupon(
            platform_id=current_platform().id,
            prefix=args["prefix"],
            code=new_code(args["prefix"]),
            fee=args["fee"],
            valid_from=args["validFrom"],
            valid_to=args["validTo"],
            remark=args.get("remark"),
        )
        for _ in range(args["count"])
    ]
    db.session.add_all(made)
    db.session.commit()
    return made


def page_of(model, args: dict) -> dict:
    """Coupons or recharge cards of this site, by batch prefix and used or not, newest first."""
    stmt = select(model).where(model.platform_id == current_platform().id)
    if args.get("prefix"):
        stmt = stmt.where(model.prefix == args["prefix"])
    if args.get("used") is not None:
        stmt = stmt.where(model.used_at.is_not(None) if args["used"] else model.used_at.is_(None))
    return paginate(stmt, args, model.id.desc())


def page(args: dict) -> dict:
    return page_of(Coupon, args)


def invalid() -> ApiError:
    return ApiError(gettext("This coupon cannot be used."), code=3201)


def reserve(code: str, account_id: int) -> Coupon:
    """Take a coupon for an order (exactly once: a conditional update, so two orders cannot share it)."""
    now = utcnow()
    coupon = db.session.scalar(
        select(Coupon).where(Coupon.code == code.strip().upper(), Coupon.platform_id == current_platform().id)
    )
    if coupon is None or not coupon.valid_from <= now < coupon.valid_to:
        raise invalid()
    taken = db.session.execute(
        update(Coupon).where(Coupon.id == coupon.id, Coupon.used_at.is_(None)).values(used_by=account_id, used_at=now)
    )
    if taken.rowcount != 1:
        raise invalid()
    return coupon


def release(coupon_id: int) -> None:
    db.session.execute(update(Coupon).where(Coupon.id == coupon_id).values(used_by=None, used_at=None))
