from __future__ import annotations

import enum
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, String, UniqueConstraint, text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from api.extensions.db import Model, TimestampMixin, str_enum, utcnow
from api.tenancy import TenantOwned


class PermissionTemplate(TenantOwned, TimestampMixin, Model):
    """What a shared user may see and do, per parameter (its hex key) or block (a detail tab):
    items = [{"permissionCode": "0001", "viewStatus": 1, "setStatus": 0}, ...]."""

    __tablename__ = "permission_template"

    id: Mapped[int] = mapped_column(primary_key=True)
    owner_account_id: Mapped[int] = mapped_column(ForeignKey("account.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(10))
    items: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=list)


class DeviceShare(TenantOwned, Model):
    """A device shared by its owner with another account (or a phone / email not registered yet)
    until `expires_at`."""

    __tablename__ = "device_share"
    __table_args__ = (UniqueConstraint("device_id", "recipient_account_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    device_id: Mapped[int] = mapped_column(ForeignKey("device.id", ondelete="CASCADE"), index=True)
    owner_account_id: Mapped[int] = mapped_column(ForeignKey("account.id", ondelete="CASCADE"), index=True)
    recipient_account_id: Mapped[int | None] = mapped_column(ForeignKey("account.id", ondelete="CASCADE"), index=True)
    recipient_phone: Mapped[str | None] = mapped_column(String(20))
    recipient_email: Mapped[str | None] = mapped_column(String(254))
    sharer_name: Mapped[str] = mapped_column(String(20))
    template_id: Mapped[int] = mapped_column(ForeignKey("permission_template.id", ondelete="CASCADE"), index=True)
    expires_at: Mapped[datetime] = mapped_column(index=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    template: Mapped[PermissionTemplate] = relationship()


class TransferStatus(enum.StrEnum):
    PENDING = "pending"
    ACCEPTED = "accepted"
    REJECTED = "rejected"
    CANCELLED = "cancelled"


class DeviceTransfer(TenantOwned, Model):
    """A device offered to another account; ownership moves only when the recipient consents."""

    __tablename__ = "device_transfer"
    # One pending offer per device, held by the index (two offers racing: one insert fails).
    __table_args__ = (
        Index(
            "uq_device_transfer_pending",
            "device_id",
            unique=True,
            postgresql_where=text("status = 'pending'"),
            sqlite_where=text("status = 'pending'"),
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    device_id: Mapped[int] = mapped_column(ForeignKey("device.id", ondelete="CASCADE"), index=True)
    from_account_id: Mapped[int] = mapped_column(ForeignKey("account.id", ondelete="CASCADE"), index=True)
    to_account_id: Mapped[int] = mapped_column(ForeignKey("account.id", ondelete="CASCADE"), index=True)
    status: Mapped[TransferStatus] = mapped_column(str_enum(TransferStatus), default=TransferStatus.PENDING)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    decided_at: Mapped[datetime | None] = mapped_column()
