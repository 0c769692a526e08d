"""Callbacks of the SMS / voice provider (`POST /api/notify/provider/inbound`): delivery receipts, SMS
replies and a call's key presses, one JSON event a call:

    {"id": "evt-1", "type": "receipt" | "reply" | "keypress", "idempotencyKey": "<our key>",
     "ref": "<provider message id>", "status": "delivered" | "failed", "error": "...",
     "from": "<phone>", "text": "<reply>", "digits": "1"}

signed as the provider signs: `X-Timestamp` (unix seconds) and `X-Signature` = hex HMAC-SHA256 of
"timestamp.body" with the provider secret (`SMS_API_SECRET`), the same scheme as our requests to it
(api/notify/adapters.sign). A callback whose signature is missing or wrong, or whose timestamp is more
than 5 minutes away, is refused (401) and changes nothing; an event id seen before is ignored (a
provider retries). Receipts move the outbox row to delivered / failed; replies and key presses go to
the handlers other areas register (the alarm area acknowledges its alarms), in the same transaction
as the event's record."""

from __future__ import annotations

import hmac
import json
import time
from collections.abc import Callable
from typing import Any

from flask import current_app
from flask_babel import gettext
from sqlalchemy import select
from sqlalchemy.dialects import postgresql, sqlite

from api.extensions.db import db, utcnow
from api.extensions.smorest import ApiError, field_error
from api.notify.adapters import sign
from api.notify.models import DeliveryStatus, OutboundMessage, ProviderEvent

MAX_SKEW_S = 300
KINDS = ("receipt", "reply", "keypress")
# (event, the outbox row it names or None) -> a short outcome text, or None when not theirs.
HANDLERS: list[Callable[[dict, OutboundMessage | None], str | None]] = []


def unauthorized() -> ApiError:
    return ApiError(gettext("The callback's signature is not valid."), code=401, http_status=401)


def verify(body: bytes, timestamp: str, signature: str, now: float | None = None) -> None:
    """The provider's signature over "timestamp.body", within 5 minutes; else 401."""
    secret = current_app.config.get("SMS_API_SECRET") or ""
    if not secret or not timestamp or not signature:
        raise unauthorized()
    try:
        stamp = int(timestamp)
    except ValueError:
        raise unauthorized() from None
    if abs((time.time() if now is None else now) - stamp) > MAX_SKEW_S:
        raise unauthorized()
    if not hmac.compare_digest(sign(secret, timestamp, body), signature.removeprefix("sha256=")):
        raise unauthorized()


def parse(body: bytes) -> dict:
    try:
        event = json.loads(body)
    except ValueError:
        raise field_error("body", gettext("Not valid JSON.")) from None
    if not isinstance(event, dict):
        raise field_error("body", gettext("Not valid JSON."))
    if not isinstance(event.get("id"), str) or not event["id"].strip() or len(event["id"]) > 100:
        raise field_error("id", gettext("This field is required."))
    if event.get("type") not in KINDS:
        raise field_error("type", gettext("Must be one of: %(choices)s.", choices=", ".join(KINDS)))
    return event


def _first_time(event_id: str, kind: str) -> bool:
    dialect = postgresql if db.session.get_bind().dialect.name == "postgresql" else sqlite
    table = ProviderEvent.__table__
    stmt = (
        dialect.insert(table)
        .values(event_id=event_id, kind=kind, received_at=utcnow())
        .on_conflict_do_nothing(index_elements=["event_id"])
        .returning(table.c.event_id)
    )
    return db.session.execute(stmt).scalar() is not None


def message_of(event: dict) -> OutboundMessage | None:
    """The outbox row the event names: by our idempotency key (unique), else the provider's id."""
    key, ref = event.get("idempotencyKey"), event.get("ref")
    if key:
        row = db.session.scalar(select(OutboundMessage).where(OutboundMessage.dedupe_key == str(key)))
        if row is not None:
            return row
    if ref:
        return db.session.scalar(
            select(OutboundMessage).where(OutboundMessage.provider_ref == str(ref)).order_by(OutboundMessage.id.desc())
        )
    return None


def _receipt(event: dict, message: OutboundMessage | None) -> str:
    if message is None:
        return "unknown message"
    if event.get("status") == "delivered":
        message.status, message.delivered_at = DeliveryStatus.DELIVERED, utcnow()
        return "delivered"
    if event.get("status") == "failed":
        message.status = DeliveryStatus.FAILED
        message.last_error = str(event.get("error") or "provider: not delivered")[:500]
        return "failed"
    raise field_error("status", gettext("Must be one of: %(choices)s.", choices="delivered, failed"))


def receive(body: bytes, timestamp: str, signature: str) -> dict[str, Any]:
    """Verify, record and handle one callback (see the module's text); the caller commits nothing."""
    verify(body, timestamp, signature)
    event = parse(body)
    if not _first_time(event["id"], event["type"]):
        db.session.rollback()
        return {"outcome": "duplicate"}
    message = message_of(event)
    outcome = None
    if event["type"] == "receipt":
        outcome = _receipt(event, message)
    else:
        outcome = next((done for handler in HANDLERS if (done := handler(event, message))), None)
    db.session.commit()
    return {"outcome": outcome or "ignored"}
