from __future__ import annotations

import enum
from datetime import datetime

from sqlalchemy import ForeignKey, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from api.extensions.db import Model, str_enum, utcnow


class Channel(enum.StrEnum):
    SMS = "sms"
    VOICE = "voice"
    EMAIL = "email"
    WEBHOOK = "webhook"


class DeliveryStatus(enum.StrEnum):
    PENDING = "pending"
    SENT = "sent"
    # No provider is configured (development): the message was written to the log, nobody got it.
    LOGGED = "logged"
    FAILED = "failed"
    # Never sent: a sign-in or recovery code for an address no account has, written and queued
    # like a real one so that the answer and its cost do not tell (api/verification/services.py).
    SUPPRESSED = "suppressed"
    # The provider's delivery receipt said it reached the phone (api/notify/inbound.py).
    DELIVERED = "delivered"


class OutboundMessage(Model):
    """One message to one recipient. Written in the transaction that decided to send it; the
    delivery job only ever moves it from pending to sent or failed, so a re-run never sends twice."""

    __tablename__ = "outbound_message"

    id: Mapped[int] = mapped_column(primary_key=True)
    platform_id: Mapped[int] = mapped_column(ForeignKey("platform.id", ondelete="CASCADE"), index=True)
    channel: Mapped[Channel] = mapped_column(str_enum(Channel))
    recipient: Mapped[str] = mapped_column(String(254))
    subject: Mapped[str | None] = mapped_column(String(200))
    body: Mapped[str] = mapped_column(Text)
    # Secrets (verification codes) are wiped from the row once delivered.
    sensitive: Mapped[bool] = mapped_column(default=False)
    status: Mapped[DeliveryStatus] = mapped_column(str_enum(DeliveryStatus), default=DeliveryStatus.PENDING, index=True)
    attempts: Mapped[int] = mapped_column(default=0)
    last_error: Mapped[str | None] = mapped_column(String(500))
    provider_ref: Mapped[str | None] = mapped_column(String(100))
    # Alarm notifications: one row per (alarm, level, channel, recipient, repeat), unique, so a job
    # that runs twice writes (and sends) nothing twice. Also sent to the provider as idempotency key.
    dedupe_key: Mapped[str | None] = mapped_column(String(200), unique=True)
    alarm_id: Mapped[int | None] = mapped_column(ForeignKey("alarm.id", ondelete="SET NULL"), index=True)
    lang: Mapped[str | None] = mapped_column(String(10))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    sent_at: Mapped[datetime | None] = mapped_column()
    # When the provider's receipt said delivered (or failed: status failed, last_error its reason).
    delivered_at: Mapped[datetime | None] = mapped_column()
    # A file to attach (email only): scheduled reports send their PDF (migration 0008, issue 8).
    attachment_path: Mapped[str | None] = mapped_column(String(500))
    # Where the delivery job finds the signing secret (webhooks), e.g. "push_setting:12": a resolver
    # registered by the owning area turns it into the secret; the secret itself is never stored here.
    secret_ref: Mapped[str | None] = mapped_column(String(100))


class ProviderEvent(Model):
    """A provider callback already handled (api/notify/inbound.py): the same event id again is ignored."""

    __tablename__ = "provider_event"

    event_id: Mapped[str] = mapped_column(String(100), primary_key=True)
    kind: Mapped[str] = mapped_column(String(20))
    received_at: Mapped[datetime] = mapped_column(default=utcnow)
