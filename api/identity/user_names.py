"""User names are never re-used (21 CFR 11.100(a)): a cancelled account keeps its name, so a trail or
signature naming it can only mean that account."""

from __future__ import annotations

from flask_babel import gettext
from sqlalchemy import and_, or_, select

from api.extensions.db import db, escape_like
from api.extensions.smorest import ApiError
from api.identity.models import Account
from api.tenancy import data_platform_id


def user_name_holder(platform_id: int, user_name: str) -> Account | None:
    """The account that holds or held this user name in a data space (None: never used). Accounts
    cancelled before names were kept carry theirs with a "#cancelled<id>" suffix: they hold it too."""
    held_before = and_(
        Account.cancelled.is_(True), Account.user_name.like(f"{escape_like(user_name)}#cancelled%", escape="/")
    )
    return db.session.scalar(
        select(Account)
        .where(Account.platform_id == platform_id, or_(Account.user_name == user_name, held_before))
        .order_by(Account.cancelled, Account.id)
        .limit(1)
    )


def used_user_name_message(holder: Account) -> str:
    if holder.cancelled:
        return gettext("This user name belonged to a cancelled account and can never be used again.")
    return gettext("The user already exists")


def refuse_a_used_user_name(user_name: str) -> None:
    holder = user_name_holder(data_platform_id(), user_name)
    if holder is not None:
        message = used_user_name_message(holder)
        raise ApiError(message, code=1004, data={"errors": {"userName": [message]}})
