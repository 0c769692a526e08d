"""Upkeep of sign-in records: counts and codes outlive their use by a day at most."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import and_, delete, or_

from api.extensions.db import db, utcnow
from api.identity import throttle
from api.identity.models import SignInThrottle
from api.jobs import DEFAULT, job
from api.notify.models import DeliveryStatus, OutboundMessage
from api.verification.models import VerificationCode

CODES_KEPT = timedelta(days=2)


@job(DEFAULT, timeout=300)
def purge_sign_in_records() -> dict:
    """Throttle rows past their window and lock (unless they mark a known requester), codes older
    than the daily counts look back, and the never-sent messages of codes for unknown addresses."""
    now = utcnow()
    counts = db.session.execute(
        delete(SignInThrottle).where(
            SignInThrottle.window_start < now - throttle.GLOBAL_WINDOW,
            or_(SignInThrottle.locked_until.is_(None), SignInThrottle.locked_until < now),
            or_(
                SignInThrottle.succeeded_at.is_(None),
                SignInThrottle.succeeded_at < now - throttle.KNOWN_REQUESTER,
            ),
        )
    ).rowcount
    codes = db.session.execute(delete(VerificationCode).where(VerificationCode.created_at < now - CODES_KEPT)).rowcount
    suppressed = db.session.execute(
        delete(OutboundMessage).where(
            and_(OutboundMessage.status == DeliveryStatus.SUPPRESSED, OutboundMessage.created_at < now - CODES_KEPT)
        )
    ).rowcount
    db.session.commit()
    return {"throttle": counts, "codes": codes, "suppressed": suppressed}
