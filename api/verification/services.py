"""Image captchas and one-time codes.

Codes: six digits, kept as an HMAC, valid 10 minutes. Counted in the database (so it holds with or
without Redis), on top of the per-IP limit on the route, and built so that nobody can use the
limits to keep an address's owner from signing in or recovering (issue 15):

- per address and requester (client address): one code a minute, 5 a day. Only this requester's
  own requests count, so another requester cannot use them up.
- per address, all requesters together: once 3 codes went to it within an hour, or 10 within a day,
  the address is "hot" and a request must carry a solved image captcha (`verifyKey` and
  `verifyCode`, answer code 1014 until it does). A solved captcha passes whatever the address's
  totals, so the owner always has a way that an attacker cannot exhaust: one captcha per code, at
  most 5 a day from each requester.
- guessing: every live code of the address and purpose is accepted (a newer request by someone else
  does not void the owner's code); each code allows 5 wrong guesses from the requester that asked
  for it and 5 from all others together, so a stranger cannot burn the owner's guesses.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from datetime import timedelta

from captcha.image import ImageCaptcha
from flask import current_app
from flask_babel import gettext
from sqlalchemy import delete, func, select

from api.extensions.db import db, utcnow
from api.extensions.ratelimit import client_address
from api.extensions.smorest import ApiError
from api.notify.models import Channel, DeliveryStatus
from api.notify.services import add_message
from api.platform.models import Platform
from api.verification.models import CaptchaChallenge, CodeChannel, CodePurpose, VerificationCode

CAPTCHA_TTL = timedelta(minutes=5)
CAPTCHA_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXY3456789"  # no 0/O, 1/I, 2/Z look-alikes
CODE_TTL = timedelta(minutes=10)
CODE_RESEND_AFTER = timedelta(seconds=60)
CODE_REQUESTER_DAILY_LIMIT = 5
CODE_HOT_PER_HOUR = 3
CODE_HOT_PER_DAY = 10
CODE_MAX_ATTEMPTS = 5
LIVE_CODES_CHECKED = 10

_captcha_images = ImageCaptcha(width=120, height=44, font_sizes=(32, 36, 38))


def _digest(*parts: str) -> str:
    key = current_app.config["SECRET_KEY"].encode()
    return hmac.new(key, "\x1f".join(parts).encode(), hashlib.sha256).hexdigest()


def new_captcha() -> tuple[str, bytes]:
    """A fresh challenge: its key (sent back with the answer) and the PNG to show."""
    text = "".join(secrets.choice(CAPTCHA_ALPHABET) for _ in range(4))
    key = secrets.token_hex(16)
    db.session.execute(delete(CaptchaChallenge).where(CaptchaChallenge.expires_at < utcnow()))
    db.session.add(CaptchaChallenge(key=key, answer_hash=_digest(key, text), expires_at=utcnow() + CAPTCHA_TTL))
    db.session.commit()
    return key, _captcha_images.generate(text).getvalue()


def check_captcha(key: str | None, answer: str | None) -> None:
    """Raise unless the answer is right. A challenge is used up by any attempt, right or wrong."""
    if not current_app.config["CAPTCHA_REQUIRED"]:
        return
    challenge = db.session.get(CaptchaChallenge, key) if key else None
    if challenge is not None:
        db.session.delete(challenge)
        db.session.commit()
    if (
        challenge is None
        or challenge.expires_at < utcnow()
        or not answer
        or not hmac.compare_digest(challenge.answer_hash, _digest(challenge.key, answer.strip().upper()))
    ):
        raise ApiError(gettext("The verification code is wrong or has expired, please refresh it."), code=1002)


CHANNEL_OF = {CodeChannel.PHONE: Channel.SMS, CodeChannel.EMAIL: Channel.EMAIL}


def _too_many(message: str) -> ApiError:
    return ApiError(message, code=429, http_status=429)


def send_code(
    platform: Platform,
    channel: CodeChannel,
    target: str,
    purpose: CodePurpose,
    client_ip: str,
    *,
    deliver=True,
    captcha: tuple[str | None, str | None] = (None, None),
) -> None:
    """Issue a code for `target` and queue its message. When not `deliver` (sign-in and recovery for
    an address no account has) the same rows are written and the same job queued, but the message
    is stored as suppressed with the code blanked: the answer and the work do not tell."""
    now = utcnow()
    recent = select(VerificationCode).where(
        VerificationCode.platform_id == platform.id,
        VerificationCode.channel == channel,
        VerificationCode.target == target,
        VerificationCode.created_at > now - timedelta(days=1),
    )
    mine = recent.where(VerificationCode.client_ip == client_ip)
    last = db.session.scalar(mine.order_by(VerificationCode.created_at.desc()).limit(1))
    if last is not None and now - last.created_at < CODE_RESEND_AFTER:
        wait = int((CODE_RESEND_AFTER - (now - last.created_at)).total_seconds()) + 1
        raise _too_many(gettext("Please wait %(seconds)s seconds before asking for another code.", seconds=wait))
    if _count(mine) >= CODE_REQUESTER_DAILY_LIMIT:
        raise _too_many(gettext("Too many codes were sent to this address today, please try again tomorrow."))
    key, answer = captcha
    if key is None and answer is None:
        hot = _count(recent.where(VerificationCode.created_at > now - timedelta(hours=1))) >= CODE_HOT_PER_HOUR
        if hot or _count(recent) >= CODE_HOT_PER_DAY:
            raise ApiError(
                gettext("Many codes were asked for this address: enter the image verification code first."),
                code=1014,
            )
    else:
        check_captcha(key, answer)
    code = f"{secrets.randbelow(10**6):06d}"
    row = VerificationCode(
        platform_id=platform.id,
        channel=channel,
        target=target,
        purpose=purpose,
        code_hash="",
        client_ip=client_ip,
        created_at=now,
        expires_at=now + CODE_TTL,
    )
    db.session.add(row)
    db.session.flush()
    row.code_hash = _digest(str(row.id), code)
    site = platform.title_for("zh-CN")
    text = gettext(
        "[%(site)s] Your verification code is %(code)s, valid for 10 minutes. Do not share it.",
        site=site,
        code=code if deliver else "*" * len(code),
    )
    # An undelivered code (a throttled or unknown address) is recorded the same way, suppressed, so
    # that the answer and the work are the same whether or not the address belongs to an account.
    add_message(
        platform.id,
        CHANNEL_OF[channel],
        target,
        text,
        subject=gettext("%(site)s verification code", site=site),
        dedupe_key=f"code:{row.id}",
        sensitive=True,
        status=DeliveryStatus.PENDING if deliver else DeliveryStatus.SUPPRESSED,
    )
    db.session.commit()


def _count(stmt) -> int:
    return db.session.scalar(select(func.count()).select_from(stmt.subquery()))


def verify_code(platform: Platform, channel: CodeChannel, target: str, purpose: CodePurpose, code: str) -> None:
    """Consume the live codes of this address and purpose if `code` is one of them, or raise."""
    now, requester = utcnow(), client_address()
    rows = db.session.scalars(
        select(VerificationCode)
        .where(
            VerificationCode.platform_id == platform.id,
            VerificationCode.channel == channel,
            VerificationCode.target == target,
            VerificationCode.purpose == purpose,
            VerificationCode.consumed_at.is_(None),
            VerificationCode.expires_at > now,
        )
        .order_by(VerificationCode.created_at.desc())
        .limit(LIVE_CODES_CHECKED)
        .with_for_update()
    ).all()
    wrong = gettext("The code is wrong or has expired, please get a new one.")
    usable = [row for row in rows if _guesses(row, requester) < CODE_MAX_ATTEMPTS]
    if not usable:
        db.session.rollback()
        raise ApiError(wrong, code=1003)
    for row in usable:
        if row.client_ip == requester:
            row.attempts += 1
        else:
            row.foreign_attempts += 1
    if not any(hmac.compare_digest(row.code_hash, _digest(str(row.id), code.strip())) for row in usable):
        db.session.commit()
        raise ApiError(wrong, code=1003)
    for row in rows:
        row.consumed_at = now
    db.session.flush()


def _guesses(row: VerificationCode, requester: str) -> int:
    return row.attempts if row.client_ip == requester else row.foreign_attempts
