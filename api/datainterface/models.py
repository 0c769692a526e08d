"""Connectors, their equipment-code mappings and the delivery log (one row per interval)."""

from __future__ import annotations

import enum
from datetime import datetime

from sqlalchemy import ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from api.extensions.db import Model, TimestampMixin, str_enum
from api.tenancy import TenantOwned


class DeliveryStatus(enum.StrEnum):
    PENDING = "pending"  # waiting for its (next) attempt
    SENDING = "sending"  # claimed by a worker until lease_until
    ACCEPTED = "accepted"  # the province answered code 0 (also for a batch it already had)
    REFUSED = "refused"  # the province answered an error: final, its message is kept
    FAILED = "failed"  # unreachable or a server error on every attempt


class Connector(TenantOwned, TimestampMixin, Model):
    """The secret signs every request, so it is kept (never answered: write-only in the api)."""

    __tablename__ = "data_connector"

    id: Mapped[int] = mapped_column(primary_key=True)
    owner_account_id: Mapped[int] = mapped_column(ForeignKey("account.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(50))
    endpoint: Mapped[str] = mapped_column(String(255))
    app_id: Mapped[str] = mapped_column(String(64))
    secret: Mapped[str] = mapped_column(String(128))
    interval_minutes: Mapped[int] = mapped_column(default=5)
    enabled: Mapped[bool] = mapped_column(default=False)
    # End of the last interval put in the log; intervals after it are scheduled once they are over.
    cursor: Mapped[datetime | None] = mapped_column()

    mappings: Mapped[list[ConnectorMapping]] = relationship(
        back_populates="connector", cascade="all, delete-orphan", passive_deletes=True, order_by="ConnectorMapping.id"
    )


class ConnectorMapping(Model):
    """One of the account's devices or storages and the equipment code the province gave it."""

    __tablename__ = "data_connector_mapping"
    __table_args__ = (
        UniqueConstraint("connector_id", "equipment_code"),
        UniqueConstraint("connector_id", "device_id"),
        UniqueConstraint("connector_id", "storage_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    connector_id: Mapped[int] = mapped_column(ForeignKey("data_connector.id", ondelete="CASCADE"))
    device_id: Mapped[int | None] = mapped_column(ForeignKey("device.id", ondelete="CASCADE"))
    storage_id: Mapped[int | None] = mapped_column(ForeignKey("cold_storage.id", ondelete="CASCADE"))
    equipment_code: Mapped[str] = mapped_column(String(64))

    connector: Mapped[Connector] = relationship(back_populates="mappings")


class ConnectorDelivery(Model):
    """One interval of one connector: created once (unique window), sent under a lease, logged.
    batch_no is the idempotency key the province sees: a resend after a crash carries the same one."""

    __tablename__ = "data_connector_delivery"
    __table_args__ = (
        UniqueConstraint("connector_id", "window_start"),
        Index("ix_data_connector_delivery_due", "status", "next_attempt_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    connector_id: Mapped[int] = mapped_column(ForeignKey("data_connector.id", ondelete="CASCADE"), index=True)
    window_start: Mapped[datetime] = mapped_column()
    window_end: Mapped[datetime] = mapped_column()
    batch_no: Mapped[str] = mapped_column(String(64), unique=True)
    status: Mapped[DeliveryStatus] = mapped_column(str_enum(DeliveryStatus), default=DeliveryStatus.PENDING)
    attempts: Mapped[int] = mapped_column(default=0)
    next_attempt_at: Mapped[datetime] = mapped_column()
    lease_until: Mapped[datetime | None] = mapped_column()
    record_count: Mapped[int | None] = mapped_column()
    remote_code: Mapped[str | None] = mapped_column(String(32))
    remote_message: Mapped[str | None] = mapped_column(String(500))
    created_at: Mapped[datetime] = mapped_column()
    sent_at: Mapped[datetime | None] = mapped_column()
    finished_at: Mapped[datetime | None] = mapped_column()
