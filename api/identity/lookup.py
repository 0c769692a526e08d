"""Finding an account of this data space by its contact, for invitations and shares."""

from __future__ import annotations

from sqlalchemy import or_, select

from api.extensions.db import db
from api.identity.models import Account
from api.tenancy import scoped


def contact_account(
    *, phone: str | None = None, email: str | None = None, keyword: str | None = None
) -> Account | None:
    """A registered, active account of this data space by phone, email or user name (exact)."""
    stmt = scoped(select(Account), Account).where(Account.cancelled.is_(False))
    if phone:
        stmt = stmt.where(Account.phone == phone)
    elif email:
        stmt = stmt.where(Account.email == email.lower())
    else:
        stmt = stmt.where(or_(Account.user_name == keyword, Account.email == keyword.lower(), Account.phone == keyword))
    return db.session.scalar(stmt.limit(1))
