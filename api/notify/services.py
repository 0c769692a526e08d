"""The outbox: the one place that writes `outbound_message`.

`add_message` adds a row (unique on its dedupe key: a second call with the same key writes nothing)
in the caller's transaction and sends it once that transaction commits. Sending is
api.notify.delivery (wrapped by the job in api.notify.jobs); areas plug into it there.
"""

from __future__ import annotations

import logging

from flask import Flask
from sqlalchemy import update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from api.extensions.db import db, utcnow
from api.jobs import redis_connection
from api.notify.jobs import enqueue_delivery
from api.notify.models import Channel, DeliveryStatus, OutboundMessage

log = logging.getLogger(__name__)
PENDING, READY = "outbox_pending", "outbox_ready"


def add_message(
    platform_id: int,
    channel: Channel,
    recipient: str,
    body: str,
    *,
    subject: str | None = None,
    dedupe_key: str | None = None,
    sensitive: bool = False,
    alarm_id: int | None = None,
    lang: str | None = None,
    attachment_path: str | None = None,
    secret_ref: str | None = None,
    dispatch: bool = True,
    status: DeliveryStatus = DeliveryStatus.PENDING,
) -> int | None:
    """Add one outbox row in the caller's transaction; it is sent after that transaction commits
    (`dispatch=False`: the caller decides with `send_after_commit` or `give_up`). Returns the new
    row's id, or None when a row with this dedupe key exists already (nothing is written or sent twice)."""
    dialect = postgresql if db.session.get_bind().dialect.name == "postgresql" else sqlite
    table = OutboundMessage.__table__
    row = {
        "platform_id": platform_id,
        "channel": Channel(channel).value,
        "recipient": recipient[:254],
        "subject": subject[:200] if subject else subject,
        "body": body,
        "sensitive": sensitive,
        "status": DeliveryStatus(status).value,
        "attempts": 0,
        "dedupe_key": dedupe_key[:200] if dedupe_key else None,
        "alarm_id": alarm_id,
        "lang": lang,
        "attachment_path": attachment_path,
        "secret_ref": secret_ref,
        "created_at": utcnow(),
    }
    stmt = dialect.insert(table).values(**row).returning(table.c.id)
    if dedupe_key:
        stmt = stmt.on_conflict_do_nothing(index_elements=["dedupe_key"])
    new_id = db.session.execute(stmt).scalar()
    if new_id is not None and dispatch and status == DeliveryStatus.PENDING:
        send_after_commit(new_id)
    return new_id


def give_up(message_id: int, reason: str) -> None:
    """Fail a row that must not be sent (a spent SMS balance): kept as the record of why."""
    db.session.execute(
        update(OutboundMessage)
        .where(OutboundMessage.id == message_id)
        .values(status=DeliveryStatus.FAILED, last_error=reason[:500])
    )


def send_after_commit(message_id: int) -> None:
    """Send this outbox row once the current transaction commits (dropped if it rolls back): code
    that writes rows deep inside another area's transaction (alarms on ingest) cannot dispatch."""
    db.session.info.setdefault(PENDING, []).append(message_id)


def dispatch_after_commit(session: Session) -> None:
    ids = session.info.pop(PENDING, None)
    if not ids:
        return
    if redis_connection() is not None:
        for message_id in ids:  # enqueueing talks to Redis only, never to this session
            enqueue_delivery(message_id)
    else:
        # In-process fallback: the session cannot run SQL inside after_commit; send at teardown.
        session.info.setdefault(READY, []).extend(ids)


def forget_after_rollback(session: Session) -> None:
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
        # Only a session the request opened can hold ready rows: asking `db.session` would open one
        # for every request that had none (a session built and closed: 30 us of a device upload).
        if exc is None and db.session.registry.has() and db.session.info.get(READY):
            flush_ready()
