"""FDA mode's password and session rules (21 CFR 11.300(b), 11.10(d); EU GMP Annex 11 §12) for every
account FDA mode governs: the owner and the members of its organisations, who can sign its records
(api/fda/signers.py). A password older than its lifetime signs in on no path and ends open sessions;
a session idle for the strictest governing owner's minutes is signed out. Registered with the account
layer (api/fda/access_rules), which names no area.
"""

from __future__ import annotations

from datetime import timedelta

from flask import after_this_request
from flask_babel import gettext
from sqlalchemy import update

from api.extensions.db import db, utcnow
from api.extensions.smorest import SESSION_EXPIRED, ApiError
from api.fda.signers import (
    PASSWORD_EXPIRED,
    expired_password_error,
    governed_condition,
    governing_settings,
    is_governed,
    password_expired,
    password_lifetime,
)
from api.identity.auth import register_participation, register_session_policy, takes_part
from api.identity.models import Account, AccountSession
from api.identity.sessions import register_sign_in_policy

FDA_MODE = "fda_mode"
# Tells the web how long it may stay idle (seconds), so it signs out on time without asking.
IDLE_HEADER = "X-Idle-Timeout"
# A session's last call is written at most this often (one small UPDATE, not one per call).
TOUCH_EVERY = timedelta(seconds=30)

__all__ = ["FDA_MODE", "IDLE_HEADER", "PASSWORD_EXPIRED", "password_lifetime", "register"]


def refuse_an_expired_password(account: Account) -> None:
    if password_expired(account) and is_governed(account.id):
        raise expired_password_error()


def sign_out_when_idle(session: AccountSession) -> None:
    if not takes_part(session.account_id, FDA_MODE):
        return
    settings = governing_settings(session.account_id)
    if not settings:
        return
    now = utcnow()
    if password_expired(session.account):
        _write(session.id, revoked_at=now)
        raise expired_password_error(http_status=401)
    minutes = min(setting.idle_minutes for setting in settings)
    idle = timedelta(minutes=minutes)
    seen = session.last_seen_at or session.created_at
    if now - seen > idle:
        _write(session.id, revoked_at=now)
        raise ApiError(
            gettext("Signed out after %(minutes)s minutes without activity (FDA mode).", minutes=minutes),
            code=SESSION_EXPIRED,
            http_status=401,
        )
    if session.last_seen_at is None or now - session.last_seen_at > TOUCH_EVERY:
        _write(session.id, last_seen_at=now)

    @after_this_request
    def tell_the_idle_limit(response):
        response.headers[IDLE_HEADER] = str(int(idle.total_seconds()))
        return response


def _write(session_id: int, **values) -> None:
    # Its own short transaction: the call's unit of work is not committed early, nor is this lost
    # when a read-only call never commits.
    with db.engine.begin() as connection:
        connection.execute(update(AccountSession).where(AccountSession.id == session_id).values(**values))


def register() -> None:
    register_participation(FDA_MODE, governed_condition)
    register_session_policy(sign_out_when_idle)
    register_sign_in_policy(refuse_an_expired_password)
