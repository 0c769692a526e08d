"""Sending one outbox row: the work of the delivery job (api.notify.jobs only wraps it).

Other areas plug in here without notify importing them: `SECRET_RESOLVERS` turn a row's
`secret_ref` ("push_setting:12") into its webhook secret, `SEND_GUARDS` may withhold a row when it
is due, `FAILURE_HOOKS` run when a row is
given up for good (the alarm area gives the SMS / voice unit back), and provider-settings resolvers
give a platform's own SMS / voice / email provider (the operation area's system settings).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime

from sqlalchemy import select

from api.extensions.db import db, utcnow
from api.notify.adapters import ADAPTERS, NOT_CONFIGURED, DeliveryError, Outgoing, UnsafeTargetError
from api.notify.models import Channel, DeliveryStatus, OutboundMessage
from api.platform.models import Platform

log = logging.getLogger(__name__)
MAX_ATTEMPTS = 4
WIPED = "[delivered; content removed]"

# The part of a secret_ref before ":" -> function(the part after it) -> the secret, or None.
SECRET_RESOLVERS: dict[str, Callable[[str], str | None]] = {}
# Called with the row when it is given up for good, inside the delivery job's transaction.
FAILURE_HOOKS: list[Callable[[OutboundMessage], None]] = []
# Called with the row before it is sent: a reason (text) withholds it for good (given up, failure hooks
# run), None lets it go. The alarm area withholds sends for a disabled or scrapped device.
SEND_GUARDS: list[Callable[[OutboundMessage], str | None]] = []
# (platform id, channel) -> that platform's own provider settings for the adapter, or None (the app's).
_provider_settings: list[Callable[[int, Channel], dict | None]] = []


def register_provider_settings(resolver: Callable[[int, Channel], dict | None]) -> None:
    if resolver not in _provider_settings:
        _provider_settings.append(resolver)


def provider_settings(platform_id: int, channel: Channel) -> dict | None:
    for resolver in _provider_settings:
        settings = resolver(platform_id, channel)
        if settings is not None:
            return settings
    return None


def idempotency_key(message: OutboundMessage) -> str:
    """What providers receive as idempotency key (the email adapter derives the Message-ID from it)."""
    return message.dedupe_key or f"outbound-{message.id}"


def secret_of(message: OutboundMessage) -> str | None:
    if not message.secret_ref:
        return None
    kind, _, ref = message.secret_ref.partition(":")
    resolver = SECRET_RESOLVERS.get(kind)
    return resolver(ref) if resolver else None


def _given_up(message: OutboundMessage) -> None:
    message.status = DeliveryStatus.FAILED
    for hook in FAILURE_HOOKS:
        hook(message)


def deliver(message_id: int) -> str:
    """Send one outbox row. Idempotent: a row already sent (or given up) is left alone, the row lock
    keeps two workers from sending it at once, and the provider gets the row's key as idempotency
    key, so a send repeated after a crash between provider and commit is recognised there."""
    message = db.session.scalar(
        select(OutboundMessage).where(OutboundMessage.id == message_id).with_for_update(skip_locked=True)
    )
    if message is None or message.status != DeliveryStatus.PENDING:
        db.session.rollback()
        return "skipped"
    withheld = next((reason for guard in SEND_GUARDS if (reason := guard(message))), None)
    if withheld:
        message.last_error = withheld[:500]
        _given_up(message)
        db.session.commit()
        return "failed"
    platform = db.session.get(Platform, message.platform_id)
    outgoing = Outgoing(
        message.channel,
        message.recipient,
        message.subject,
        message.body,
        platform.title_for(message.lang or "zh-CN"),
        idempotency_key=idempotency_key(message),
        secret=secret_of(message),
        attachment=message.attachment_path,
    )
    message.attempts += 1
    try:
        ref = ADAPTERS[message.channel](outgoing, provider_settings(message.platform_id, message.channel))
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
    # No provider configured (development): written to the log, which is not "sent".
    logged = ref == NOT_CONFIGURED
    message.provider_ref = None if logged else ref
    message.status = DeliveryStatus.LOGGED if logged else DeliveryStatus.SENT
    message.sent_at = utcnow()
    message.last_error = None
    if message.sensitive:
        message.body = WIPED
    db.session.commit()
    return message.status.value


def stale_ids(cutoff: datetime, limit: int = 500) -> list[int]:
    """Pending rows created before `cutoff`: nobody is working on them any more."""
    ids = db.session.scalars(
        select(OutboundMessage.id)
        .where(OutboundMessage.status == DeliveryStatus.PENDING, OutboundMessage.created_at < cutoff)
        .order_by(OutboundMessage.id)
        .limit(limit)
    ).all()
    db.session.rollback()
    return list(ids)
