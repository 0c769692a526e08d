from __future__ import annotations

import logging

from rq import Retry
from sqlalchemy import select

from api.extensions.db import db, utcnow
from api.jobs import NOTIFICATIONS, job
from api.notify.adapters import ADAPTERS, DeliveryError, Outgoing
from api.notify.models import DeliveryStatus, OutboundMessage
from api.platform.models import Platform

log = logging.getLogger(__name__)
MAX_ATTEMPTS = 4
WIPED = "[delivered; content removed]"


@job(NOTIFICATIONS, retry=Retry(max=MAX_ATTEMPTS - 1, interval=[10, 60, 300]), timeout=60)
def deliver_message(message_id: int) -> str:
    """Send one outbox row. Idempotent: a row already sent (or given up) is left alone."""
    message = db.session.scalar(
        select(OutboundMessage).where(OutboundMessage.id == message_id).with_for_update(skip_locked=True)
    )
    if message is None or message.status != DeliveryStatus.PENDING:
        db.session.rollback()
        return "skipped"
    platform = db.session.get(Platform, message.platform_id)
    outgoing = Outgoing(
        message.channel,
        message.recipient,
        message.subject,
        message.body,
        platform.title_for("zh-CN"),
        key=f"outbound-{message.id}",
    )
    message.attempts += 1
    try:
        message.provider_ref = ADAPTERS[message.channel](outgoing)
    except DeliveryError as exc:
        message.last_error = str(exc)[:500]
        if message.attempts >= MAX_ATTEMPTS:
            message.status = DeliveryStatus.FAILED
        db.session.commit()
        if message.status == DeliveryStatus.FAILED:
            return "failed"
        raise
    message.status = DeliveryStatus.SENT
    message.sent_at = utcnow()
    if message.sensitive:
        message.body = WIPED
    db.session.commit()
    return "sent"
