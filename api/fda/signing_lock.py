"""Wrong electronic-signature attempts (21 CFR 11.300(d): attempted unauthorized use is detected and
reported). An attempt that fails (a wrong password, someone else's user name) counts for the signed-in
account; FDA_SIGNING_TRIES of them within FDA_SIGNING_WINDOW_MINUTES lock its signing for
FDA_SIGNING_LOCK_MINUTES, end every session of it (signed out), go on the trail, and tell the owners
whose records it signs (and their FDA contacts, api/fda/contacts.py) through the outbox, once per lock.
Every answer words the lock's end the same way: in the account's time zone, with its offset.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from flask import current_app
from flask_babel import gettext
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from api.audit.recorder import record_event
from api.extensions.db import db, utcnow
from api.extensions.i18n import locale_tag, lock_end_text, zone_named
from api.extensions.smorest import SESSION_EXPIRED, ApiError
from api.fda.contacts import fda_contacts
from api.fda.models import SigningThrottle
from api.fda.signers import governing_settings
from api.identity.models import Account
from api.identity.sessions import revoke_all
from api.notify.models import Channel
from api.notify.services import add_message
from api.platform.models import Platform

SIGNING_LOCKED = 4608


def _config() -> tuple[int, timedelta, timedelta]:
    config = current_app.config
    return (
        config["FDA_SIGNING_TRIES"],
        timedelta(minutes=config["FDA_SIGNING_WINDOW_MINUTES"]),
        timedelta(minutes=config["FDA_SIGNING_LOCK_MINUTES"]),
    )


def locked_until(account: Account) -> datetime | None:
    """When the account may sign again (None: it may now)."""
    row = db.session.get(SigningThrottle, account.id)
    if row is not None and row.locked_until is not None and row.locked_until > utcnow():
        return row.locked_until
    return None


def locked_error(account: Account, until: datetime, *, signed_out: bool = False) -> ApiError:
    """The lock's one wording. The attempt that locks also signs the account out (HTTP 401, the web
    ends the session and shows this message)."""
    when = lock_end_text(until, zone_named(account.time_zone))
    if signed_out:
        message = gettext(
            "Too many wrong signature passwords: signing is locked until %(time)s and you have been signed "
            "out. The account's FDA contacts have been told.",
            time=when,
        )
        return ApiError(message, code=SESSION_EXPIRED, http_status=401, data={"lockedUntil": until.isoformat()})
    message = gettext("Too many wrong signature passwords: signing is locked until %(time)s.", time=when)
    return ApiError(message, code=SIGNING_LOCKED, data={"lockedUntil": until.isoformat()})


def _row(account: Account) -> SigningThrottle:
    stmt = select(SigningThrottle).where(SigningThrottle.account_id == account.id).with_for_update()
    row = db.session.scalar(stmt)
    if row is not None:
        return row
    row = SigningThrottle(account_id=account.id, platform_id=account.platform_id, failures=0, window_start=utcnow())
    try:
        with db.session.begin_nested():
            db.session.add(row)
    except IntegrityError:  # a concurrent first failure created it
        return db.session.scalar(stmt)
    return row


def failed(account: Account) -> ApiError | None:
    """Count one failed attempt and commit it (with the caller's pending trail entries). Returns the
    lock's error when this attempt locks."""
    tries, window, lock = _config()
    now = utcnow()
    row = _row(account)
    if row.window_start < now - window or row.locked_until is not None:
        row.failures, row.window_start, row.locked_until = 0, now, None
    row.failures += 1
    if row.failures < tries:
        db.session.commit()
        return None
    row.failures, row.locked_until = 0, now + lock
    revoke_all(account)
    told = _tell_the_contacts(account, row.locked_until, tries)
    record_event(
        account,
        "Electronic signing locked after wrong signature passwords",
        target=f"account#{account.id}",
        details={"lockedUntil": row.locked_until.isoformat(), "tries": tries, "told": told},
    )
    db.session.commit()
    return locked_error(account, row.locked_until, signed_out=True)


def succeeded(account: Account) -> None:
    """A signature made: the count starts again (part of the caller's transaction)."""
    row = db.session.get(SigningThrottle, account.id)
    if row is not None and row.failures:
        row.failures = 0


def _tell_the_contacts(account: Account, until: datetime, tries: int) -> list[int]:
    """One message per contact per lock (the outbox's dedupe key names the lock); the account ids told."""
    owners = [setting.account_id for setting in governing_settings(account.id)] or [account.id]
    recipients = {contact.id: contact for owner in owners for contact in fda_contacts(owner)}
    platform = db.session.get(Platform, account.platform_id)
    site = platform.title_for(platform.default_locale)
    for contact in recipients.values():
        text = gettext(
            "Electronic signing of %(user)s (account %(id)s) on %(site)s is locked until %(time)s after "
            "%(tries)s wrong signature passwords, and the user was signed out. If it was not them, review "
            "the account.",
            user=account.user_name,
            id=account.id,
            site=site,
            time=lock_end_text(until, zone_named(contact.time_zone)),
            tries=tries,
        )
        channel, address = (Channel.EMAIL, contact.email) if contact.email else (Channel.SMS, contact.phone)
        if not address:
            continue
        add_message(
            platform.id,
            channel,
            address,
            text,
            subject=gettext("Electronic signing locked") if channel == Channel.EMAIL else None,
            dedupe_key=f"fda-signing-lock:{account.id}:{int(until.timestamp())}:{contact.id}",
            lang=locale_tag(),
        )
    return sorted(recipients)
