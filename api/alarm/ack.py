"""Acknowledging an alarm where it reached you (issue 48): a reply to its SMS carrying the alarm's code
from the phone it was sent to, a key press during its call, the signed link of its email (a public
page of the web), or the console. The first acknowledgement is recorded (who, how, when) and stops the
alarm's repeats and escalation; any later one, however many arrive at once, records nothing
(one conditional UPDATE: the row lock makes the others find it acknowledged).

Each acknowledgement also goes on the audit trail of the alarm's platform."""

from __future__ import annotations

import hashlib
import hmac
import re
from datetime import datetime, timedelta

from flask import current_app, has_request_context
from flask_babel import force_locale, gettext
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer
from sqlalchemy import select, update

from api.alarm.models import AckVia, Alarm, AlarmStatus
from api.extensions.db import db, utcnow
from api.extensions.trail import record_event
from api.notify.models import Channel, OutboundMessage
from api.platform.links import public_url
from api.platform.models import Platform

LINK_SALT = "alarm.ack-link"
LINK_LIFETIME = timedelta(hours=72)
KEY_TO_ACK = "1"  # the key a voice call asks to press
ACK_PAGE = "/alarm/ack"


def ack_code(alarm_id: int) -> str:
    """The alarm's 4-digit acknowledgement code (derived with the app's secret, so nothing is stored
    and nobody can compute another alarm's code)."""
    digest = hmac.new(current_app.config["SECRET_KEY"].encode(), f"alarm-ack:{alarm_id}".encode(), hashlib.sha256)
    return f"{int(digest.hexdigest()[:8], 16) % 10000:04d}"


def _serializer() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(current_app.config["SECRET_KEY"], salt=LINK_SALT)


def link_token(alarm_id: int, email: str) -> str:
    return _serializer().dumps({"a": alarm_id, "e": email})


class LinkError(Exception):
    """Why an acknowledgement link cannot be used: `expired` or `invalid` (forged, altered)."""

    def __init__(self, kind: str):
        super().__init__(kind)
        self.kind = kind


def read_token(token: str) -> tuple[int, str]:
    """(alarm id, email) of a link token; LinkError when forged or expired."""
    try:
        payload = _serializer().loads(token, max_age=int(LINK_LIFETIME.total_seconds()))
    except SignatureExpired:
        raise LinkError("expired") from None
    except BadSignature:
        raise LinkError("invalid") from None
    if not isinstance(payload, dict) or not isinstance(payload.get("a"), int) or not payload.get("e"):
        raise LinkError("invalid")
    return payload["a"], str(payload["e"])


def _locale(lang: str | None) -> str:
    return "en_US" if (lang or "").lower().startswith("en") else "zh_CN"


def with_ack(alarm: Alarm, channel: Channel, body: str, address: str, lang: str | None) -> str:
    """The alarm's text with how to acknowledge it, in the recipient's language."""
    with force_locale(_locale(lang)):
        if channel == Channel.SMS:
            return body + " " + gettext("Reply %(code)s to acknowledge.", code=ack_code(alarm.id))
        if channel == Channel.VOICE:
            return body + " " + gettext("Press %(key)s to acknowledge.", key=KEY_TO_ACK)
        if channel == Channel.EMAIL:
            platform = db.session.get(Platform, alarm.platform_id)
            link = public_url(platform, f"{ACK_PAGE}?code={link_token(alarm.id, address)}")
            return body + "\n\n" + gettext("Acknowledge this alarm: %(link)s", link=link)
    return body


def acknowledge(alarm: Alarm, via: AckVia, *, account=None, by: str | None = None, at: datetime | None = None) -> bool:
    """Record the first acknowledgement of an open alarm and put it on the audit trail; True when this
    call recorded it, False when the alarm was acknowledged already (or is not open). The caller commits."""
    at = at or utcnow()
    who = by or (account.real_name or account.user_name if account is not None else None)
    done = db.session.execute(
        update(Alarm)
        .where(Alarm.id == alarm.id, Alarm.acknowledged_at.is_(None), Alarm.status == AlarmStatus.OPEN)
        .values(
            acknowledged_at=at,
            ack_via=AckVia(via).value,
            ack_account_id=account.id if account is not None else None,
            ack_by=(who or "")[:254] or None,
        )
        .execution_options(synchronize_session=False)
    ).rowcount
    db.session.expire(alarm, ["acknowledged_at", "ack_via", "ack_account_id", "ack_by"])
    if done and has_request_context():
        record_event(
            account,
            f"Alarm acknowledged ({AckVia(via).value})",
            target=f"alarm#{alarm.id}",
            details={"alarmId": alarm.id, "via": AckVia(via).value, "by": who},
            platform_id=alarm.platform_id,
        )
    return bool(done)


def _alarms_sent_to(phone: str, channel: Channel) -> list[Alarm]:
    """Open, unacknowledged alarms that sent `channel` to this phone, newest first."""
    return list(
        db.session.scalars(
            select(Alarm)
            .where(
                Alarm.status == AlarmStatus.OPEN,
                Alarm.acknowledged_at.is_(None),
                Alarm.id.in_(
                    select(OutboundMessage.alarm_id).where(
                        OutboundMessage.channel == channel, OutboundMessage.recipient == phone
                    )
                ),
            )
            .order_by(Alarm.id.desc())
        )
    )


def by_reply(phone: str, text: str) -> Alarm | None:
    """An SMS reply: acknowledges the alarm sent to this phone whose code the text contains."""
    codes = set(re.findall(r"\d{4}", text or ""))
    if not phone or not codes:
        return None
    for alarm in _alarms_sent_to(phone, Channel.SMS):
        if ack_code(alarm.id) in codes:
            return alarm if acknowledge(alarm, AckVia.SMS, by=phone) else None
    return None


def by_key_press(message: OutboundMessage, digits: str) -> Alarm | None:
    """A key press during an alarm's call: the acknowledging key acknowledges it, by the phone called."""
    if message.alarm_id is None or message.channel != Channel.VOICE or (digits or "").strip() != KEY_TO_ACK:
        return None
    alarm = db.session.get(Alarm, message.alarm_id)
    return alarm if alarm is not None and acknowledge(alarm, AckVia.VOICE, by=message.recipient) else None


def on_provider_event(event: dict, message: OutboundMessage | None) -> str | None:
    """Handler of the provider's callbacks (api/notify/inbound.py, registered in the manifest)."""
    if event.get("type") == "reply":
        return "acknowledged" if by_reply(str(event.get("from") or ""), str(event.get("text") or "")) else None
    if event.get("type") == "keypress" and message is not None:
        return "acknowledged" if by_key_press(message, str(event.get("digits") or "")) else None
    return None
