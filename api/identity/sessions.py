"""Bearer tokens: opaque, random, stored as SHA-256, seven days, revocable. Every sign-in path (password,
email code, social, binding, the old platform, registration) ends in `issue_token`, which first
admits the account: a password it did not set itself (a staff reset) and the rules areas register
(FDA mode's password age) refuse it there, whatever the path."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from datetime import timedelta

from flask import request
from flask_babel import gettext
from sqlalchemy import select, update
from sqlalchemy.orm import joinedload

from api.extensions.db import db, utcnow
from api.extensions.smorest import ApiError
from api.identity.models import Account, AccountSession, PasswordOrigin
from api.platform.models import Platform

TOKEN_LIFETIME = timedelta(milliseconds=604_800_000)  # spec: 7 days


# The account's password is not the user's own (api/identity/models.PasswordOrigin): after a staff
# reset it signs in and signs records again only once the user set their own ("Forgot password"); one
# chosen by staff when they added the account signs in but signs no record until changed.
PASSWORD_NOT_OWN = 4607

# Rules an area adds to every sign-in, given the account the credentials opened (FDA mode's password
# ageing); each raises its refusal.
_sign_in_policies: list[Callable[[Account], None]] = []


def register_sign_in_policy(policy: Callable[[Account], None]) -> None:
    if policy not in _sign_in_policies:
        _sign_in_policies.append(policy)


def not_own_password_error(account: Account) -> ApiError | None:
    """Why the account's password is not its user's own (None: it is)."""
    if account.password_origin == PasswordOrigin.RESET:
        message = gettext(
            "Platform staff reset this account's password. Set your own password with "
            '"Forgot password" before signing in or signing records.'
        )
    elif account.password_origin == PasswordOrigin.STAFF:
        message = gettext(
            "This account's password was chosen by platform staff. Change it to your own "
            "(account settings, change password) before signing records."
        )
    else:
        return None
    return ApiError(message, code=PASSWORD_NOT_OWN)


def admit(account: Account) -> Account:
    """Raises the refusal of a sign-in these credentials would open, if any."""
    if account.password_origin == PasswordOrigin.RESET:
        raise not_own_password_error(account)
    for policy in _sign_in_policies:
        policy(account)
    return account


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def issue_token(account: Account, platform: Platform) -> str:
    admit(account)
    token = secrets.token_urlsafe(32)
    now = utcnow()
    db.session.add(
        AccountSession(
            account_id=account.id,
            platform_id=platform.id,
            token_hash=token_digest(token),
            created_at=now,
            expires_at=now + TOKEN_LIFETIME,
            client_ip=request.remote_addr,
            user_agent=(request.user_agent.string or "")[:255],
        )
    )
    db.session.commit()
    return token


def find_session(token: str) -> AccountSession | None:
    return db.session.scalar(
        select(AccountSession)
        .options(joinedload(AccountSession.account))
        .where(AccountSession.token_hash == token_digest(token))
    )


def is_live(session: AccountSession | None, platform: Platform) -> bool:
    return (
        session is not None
        and session.revoked_at is None
        and session.expires_at > utcnow()
        and session.platform_id == platform.id
        and session.account.is_active
    )


def revoke(session: AccountSession) -> None:
    if session.revoked_at is None:
        session.revoked_at = utcnow()


def revoke_all(account: Account) -> None:
    db.session.execute(
        update(AccountSession)
        .where(AccountSession.account_id == account.id, AccountSession.revoked_at.is_(None))
        .values(revoked_at=utcnow())
    )
