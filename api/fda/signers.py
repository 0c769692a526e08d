"""Who FDA mode governs (21 CFR 11.10(d), 11.300(b); EU GMP Annex 11 §12): an account with FDA mode on,
and every account that can sign its records, i.e. the members of the organisations it created. Their
sessions, password age and signatures follow the strictest owner's rules (the shortest idle limit).

Used by the session rules (api/fda/sessions.py) and at signing (api/fda/services.confirm_signer).
"""

from __future__ import annotations

from datetime import timedelta

from flask_babel import gettext
from sqlalchemy import ColumnElement, exists, or_, select

from api.extensions.db import db, utcnow
from api.extensions.field_rules import field_rules
from api.extensions.smorest import ApiError
from api.fda.models import FdaSetting
from api.identity.models import Account
from api.identity.sessions import not_own_password_error
from api.organization.models import Organization, OrganizationMember

PASSWORD_EXPIRED = 4605


def _owners_of(account_id) -> ColumnElement:
    """The accounts whose records this one can sign: itself and the creators of its organisations."""
    creators = (
        select(Organization.owner_account_id)
        .join(OrganizationMember, OrganizationMember.organization_id == Organization.id)
        .where(OrganizationMember.account_id == account_id)
    )
    return or_(FdaSetting.account_id == account_id, FdaSetting.account_id.in_(creators))


def governed_condition(account_id: ColumnElement) -> ColumnElement:
    """An EXISTS on an account id column: FDA mode governs that account (the sign-in lookup's column)."""
    return exists().where(FdaSetting.enabled.is_(True), _owners_of(account_id))


def governing_settings(account_id: int) -> list[FdaSetting]:
    """The FDA settings (switched on) that govern the account: its own and its organisations' creators'."""
    return list(db.session.scalars(select(FdaSetting).where(FdaSetting.enabled.is_(True), _owners_of(account_id))))


def is_governed(account_id: int) -> bool:
    return bool(db.session.scalar(select(governed_condition(account_id))))


def password_lifetime() -> timedelta:
    return timedelta(days=field_rules()["password"]["lifetimeDays"])


def password_expired(account: Account) -> bool:
    return utcnow() - account.prev_reset_at > password_lifetime()


def expired_password_error(http_status: int = 200) -> ApiError:
    return ApiError(
        gettext(
            "Your password is older than %(days)s days and no longer signs in (FDA mode). "
            'Set a new one with "Forgot password".',
            days=password_lifetime().days,
        ),
        code=PASSWORD_EXPIRED,
        http_status=http_status,
    )


def signing_refusal(account: Account) -> ApiError | None:
    """Why this account may not sign now (None: it may): a password it did not set itself, or, under
    FDA mode, one older than its lifetime."""
    not_own = not_own_password_error(account)
    if not_own is not None:
        return not_own
    if password_expired(account) and is_governed(account.id):
        return expired_password_error()
    return None
