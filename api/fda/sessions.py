"""FDA mode's password and session rules (21 CFR 11.300(b), 11.10(d); EU GMP Annex 11 §12): a
password older than its lifetime no longer signs in, and a session idle for the account's set minutes
is signed out. Registered with the account layer (api/fda/access_rules), which names no area.
"""

from __future__ import annotations

from datetime import timedelta

from flask import after_this_request
from flask_babel import gettext
from sqlalchemy import exists, update

from api.account.auth import register_participation, register_session_policy, takes_part
from api.account.models import Account, AccountSession
from api.account.services import register_sign_in_policy
from api.extensions.db import db, utcnow
from api.extensions.field_rules import field_rules
from api.extensions.smorest import SESSION_EXPIRED, ApiError
from api.fda.models import FdaSetting
from api.fda.services import is_enabled, setting_of

FDA_MODE = "fda_mode"
# Tells the web how long it may stay idle (seconds), so it signs out on time without asking.
IDLE_HEADER = "X-Idle-Timeout"
# A session's last call is written at most this often (one small UPDATE, not one per call).
TOUCH_EVERY = timedelta(seconds=30)
PASSWORD_EXPIRED = 4605


def password_lifetime() -> timedelta:
    return timedelta(days=field_rules()["password"]["lifetimeDays"])


def refuse_an_expired_password(account: Account) -> None:
    if not is_enabled(account.id):
        return
    if utcnow() - account.prev_reset_at > password_lifetime():
        raise ApiError(
            gettext(
                "Your password is older than %(days)s days and no longer signs in (FDA mode). "
                'Set a new one with "Forgot password".',
                days=password_lifetime().days,
            ),
            code=PASSWORD_EXPIRED,
        )


def sign_out_when_idle(session: AccountSession) -> None:
    if not takes_part(session.account_id, FDA_MODE):
        return
    setting = setting_of(session.account_id)
    if setting is None or not setting.enabled:
        return
    now, idle = utcnow(), timedelta(minutes=setting.idle_minutes)
    seen = session.last_seen_at or session.created_at
    if now - seen > idle:
        _write(session.id, revoked_at=now)
        raise ApiError(
            gettext("Signed out after %(minutes)s minutes without activity (FDA mode).", minutes=setting.idle_minutes),
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
    register_participation(
        FDA_MODE, lambda me: exists().where(FdaSetting.account_id == me, FdaSetting.enabled.is_(True))
    )
    register_session_policy(sign_out_when_idle)
    register_sign_in_policy(refuse_an_expired_password)
