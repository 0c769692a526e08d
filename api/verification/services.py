"""Image captchas and one-time codes.

Codes: six digits, kept as an HMAC, valid 10 minutes, 5 guesses, one resend a minute and 10 a day
per address (counted in the database, so it holds with or without Redis), on top of the per-IP
limit on the route.
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
from api.extensions.smorest import ApiError
from api.notify.models import Channel
from api.notify.services import dispatch, queue_message
from api.platform.models import Platform
from api.verification.models import CaptchaChallenge, CodeChannel, CodePurpose, VerificationCode

CAPTCHA_TTL = timedelta(minutes=5)
CAPTCHA_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXY3456789"  # no 0/O, 1/I, 2/Z look-alikes
CODE_TTL = timedelta(minutes=10)
CODE_RESEND_AFTER = timedelta(seconds=60)
CODE_DAILY_LIMIT = 10
CODE_MAX_ATTEMPTS = 5

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


def send_code(
    platform: Platform, channel: CodeChannel, target: str, purpose: CodePurpose, client_ip: str, *, deliver=True
) -> None:
    """Issue a code for `target` and queue its message (only when `deliver`, see the callers)."""
    now = utcnow()
    recent = select(VerificationCode).where(
        VerificationCode.platform_id == platform.id,
        VerificationCode.channel == channel,
        VerificationCode.target == target,
    )
    last = db.session.scalar(recent.order_by(VerificationCode.created_at.desc()).limit(1))
    if last is not None and now - last.created_at < CODE_RESEND_AFTER:
        wait = int((CODE_RESEND_AFTER - (now - last.created_at)).total_seconds()) + 1
        raise ApiError(
            gettext("Please wait %(seconds)s seconds before asking for another code.", seconds=wait),
            code=429,
            http_status=429,
        )
    today = db.session.scalar(
        select(func.count()).select_from(recent.where(VerificationCode.created_at > now - timedelta(days=1)).subquery())
    )
    if today >= CODE_DAILY_LIMIT:
        raise ApiError(
            gettext("Too many codes were sent to this address today, please try again tomorrow."),
            code=429,
            http_status=429,
        )
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
    message = None
    if deliver:
        site = platform.title_for("zh-CN")
        text = gettext(
            "[%(site)s] Your verification code is %(code)s, valid for 10 minutes. Do not share it.",
            site=site,
            code=code,
        )
        message = queue_message(
            platform,
            CHANNEL_OF[channel],
            target,
            text,
            subject=gettext("%(site)s verification code", site=site),
            sensitive=True,
        )
    db.session.commit()
    if message is not None:
        dispatch(message)


def verify_code(platform: Platform, channel: CodeChannel, target: str, purpose: CodePurpose, code: str) -> None:
    """Consume the latest live code for this address and purpose, or raise."""
    row = db.session.scalar(
        select(VerificationCode)
        .where(
            VerificationCode.platform_id == platform.id,
            VerificationCode.channel == channel,
            VerificationCode.target == target,
            VerificationCode.purpose == purpose,
            VerificationCode.consumed_at.is_(None),
        )
        .order_by(VerificationCode.created_at.desc())
        .limit(1)
        .with_for_update()
    )
    wrong = gettext("The code is wrong or has expired, please get a new one.")
    if row is None or row.expires_at < utcnow() or row.attempts >= CODE_MAX_ATTEMPTS:
        db.session.rollback()
        raise ApiError(wrong, code=1003)
    row.attempts += 1
    if not hmac.compare_digest(row.code_hash, _digest(str(row.id), code.strip())):
        db.session.commit()
        raise ApiError(wrong, code=1003)
    row.consumed_at = utcnow()
    db.session.flush()
