from __future__ import annotations

import logging
from datetime import timedelta

from rq import Retry
from sqlalchemy import select

from api.extensions.db import db, utcnow
from api.jobs import NOTIFICATIONS, job
from api.notify.adapters import ADAPTERS, DeliveryError, Outgoing, UnsafeTargetError
from api.notify.models import Channel, DeliveryStatus, OutboundMessage
from api.platform.models import Platform

log = logging.getLogger(__name__)
MAX_ATTEMPTS = 4
WIPED = "[delivered; content removed]"
# A pending row older than this was never delivered (enqueue lost, worker killed): send it again.
STALE_AFTER = timedelta(minutes=10)


def _webhook_secret(message: OutboundMessage) -> str | None:
    if message.channel != Channel.WEBHOOK or message.alarm_id is None:
        return None
    from api.alarm.models import Alarm, PushSetting

    alarm = db.session.get(Alarm, message.alarm_id)
    setting = db.session.get(PushSetting, alarm.device_id) if alarm else None
    return setting.webhook_secret if setting else None


def _given_up(message: OutboundMessage) -> None:
    message.status = DeliveryStatus.FAILED
    if message.alarm_id is not None:
        from api.alarm.escalation import refund
        from api.alarm.models import Alarm

        alarm = db.session.get(Alarm, message.alarm_id)
        if alarm is not None:
            refund(alarm.device_id, message.channel)


@job(NOTIFICATIONS, retry=Retry(max=MAX_ATTEMPTS - 1, interval=[10, 60, 300]), timeout=60)
def deliver_message(message_id: int) -> str:
    """Send one outbox row. Idempotent: a row already sent (or given up) is left alone, the row lock
    keeps two workers from sending it at once, and the provider gets the row's key as idempotency
    key, so a send repeated after a crash between provider and commit is recognised there."""
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
        platform.title_for(message.lang or "zh-CN"),
        idempotency_key=message.dedupe_key or f"outbound-{message.id}",
        secret=_webhook_secret(message),
        attachment=message.attachment_path,
    )
    message.attempts += 1
    try:
        message.provider_ref = ADAPTERS[message.channel](outgoing)
    except UnsafeTargetError as exc:
        message.last_error = str(exc)[:500]
        _given_up(message)  # never retried: the target will not become safe
        db.session.commit()
        return "failed"
    except DeliveryError as exc:
        message.last_error = str(exc)[:500]
        if message.attempts >= MAX_ATTEMPTS:
            _given_up(message)
        db.session.commit()
        if message.status == DeliveryStatus.FAILED:
            return "failed"
        raise
    message.status = DeliveryStatus.SENT
    message.sent_at = utcnow()
    message.last_error = None
    if message.sensitive:
        message.body = WIPED
    db.session.commit()
    return "sent"


@job(NOTIFICATIONS, timeout=120)
def redeliver_stale(older_than_s: float | None = None) -> int:
    """Periodic: pending rows nobody is working on any more go back on the queue (a re-run of a
    row already being sent or already sent is a no-op)."""
    from api.notify.services import enqueue_delivery

    cutoff = utcnow() - (STALE_AFTER if older_than_s is None else timedelta(seconds=older_than_s))
    ids = db.session.scalars(
        select(OutboundMessage.id)
        .where(OutboundMessage.status == DeliveryStatus.PENDING, OutboundMessage.created_at < cutoff)
        .order_by(OutboundMessage.id)
        .limit(500)
    ).all()
    db.session.rollback()
    for message_id in ids:
        enqueue_delivery(message_id)
    return len(ids)
