from __future__ import annotations

from api.extensions.db import db
from api.notify.models import Channel, OutboundMessage
from api.platform.models import Platform


def queue_message(
    platform: Platform, channel: Channel, recipient: str, body: str, *, subject: str | None = None, sensitive=False
) -> OutboundMessage:
    """Add the message to the outbox in the caller's transaction; call `dispatch` after commit."""
    message = OutboundMessage(
        platform_id=platform.id, channel=channel, recipient=recipient, subject=subject, body=body, sensitive=sensitive
    )
    db.session.add(message)
    db.session.flush()
    return message


def dispatch(message: OutboundMessage) -> None:
    from api.notify.jobs import deliver_message

    deliver_message.enqueue(message.id, job_id=f"outbound-{message.id}")
