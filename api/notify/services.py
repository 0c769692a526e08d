from __future__ import annotations

import logging

from flask import Flask
from sqlalchemy import event
from sqlalchemy.orm import Session

from api.extensions.db import db
from api.notify.models import Channel, OutboundMessage
from api.platform.models import Platform

log = logging.getLogger(__name__)
PENDING, READY = "outbox_pending", "outbox_ready"


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
    enqueue_delivery(message.id)


def enqueue_delivery(message_id: int) -> None:
    from api.notify.jobs import deliver_message

    deliver_message.enqueue(message_id, job_id=f"outbound-{message_id}")


def schedule_dispatch(message_id: int) -> None:
    """Send this outbox row once the current transaction commits (dropped if it rolls back): code
    that writes rows deep inside another area's transaction (alarms on ingest) cannot dispatch."""
    db.session.info.setdefault(PENDING, []).append(message_id)


@event.listens_for(Session, "after_commit")
def _after_commit(session: Session) -> None:
    ids = session.info.pop(PENDING, None)
    if not ids:
        return
    from api.jobs import redis_connection

    if redis_connection() is not None:
        for message_id in ids:  # enqueueing talks to Redis only, never to this session
            enqueue_delivery(message_id)
    else:
        # In-process fallback: the session cannot run SQL inside after_commit; send at teardown.
        session.info.setdefault(READY, []).extend(ids)


@event.listens_for(Session, "after_rollback")
def _after_rollback(session: Session) -> None:
    session.info.pop(PENDING, None)


def flush_ready() -> None:
    """Send what committed while Redis was unreachable (app-context teardown, and jobs at their end)."""
    ids = db.session.info.pop(READY, None)
    for message_id in ids or ():
        try:
            enqueue_delivery(message_id)
        except Exception:  # pragma: no cover - enqueue_job already logs in-process failures
            log.exception("delivery of outbox row %s failed", message_id)


def init_app(app: Flask) -> None:
    @app.teardown_appcontext
    def _send_ready(exc) -> None:  # runs before Flask-SQLAlchemy removes the session
        if exc is None and db.session.info.get(READY):
            flush_ready()
