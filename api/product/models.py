from __future__ import annotations

import enum
from datetime import datetime

from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column, relationship

from api.device.models import Device
from api.extensions.db import Model, TimestampMixin, str_enum, utcnow


class SimUseState(enum.StrEnum):
    UNUSED = "unused"
    IN_USE = "in_use"
    SUSPENDED = "suspended"
    CANCELLED = "cancelled"


class SimRechargeState(enum.StrEnum):
    NOT_RECHARGED = "not_recharged"
    RECHARGED = "recharged"
    FAILED = "failed"


class SimCard(TimestampMixin, Model):
    """A data SIM card of the fleet, optionally bound to one device."""

    __tablename__ = "sim_card"

    id: Mapped[int] = mapped_column(primary_key=True)
    card_num: Mapped[str] = mapped_column(String(15))
    icc_id: Mapped[str] = mapped_column(String(30), unique=True)
    operator: Mapped[str | None] = mapped_column(String(30))
    open_time: Mapped[datetime | None] = mapped_column()
    active_time: Mapped[datetime | None] = mapped_column()
    expired_time: Mapped[datetime | None] = mapped_column()
    balance: Mapped[int] = mapped_column(default=0)  # cents
    last_online: Mapped[datetime | None] = mapped_column()
    use_state: Mapped[SimUseState] = mapped_column(str_enum(SimUseState), default=SimUseState.UNUSED)
    recharge_state: Mapped[SimRechargeState] = mapped_column(
        str_enum(SimRechargeState), default=SimRechargeState.NOT_RECHARGED
    )
    remark: Mapped[str | None] = mapped_column(String(100))
    device_id: Mapped[int | None] = mapped_column(ForeignKey("device.id", ondelete="SET NULL"), unique=True)

    device: Mapped[Device | None] = relationship()


class GuidExport(Model):
    """Who downloaded a GUID batch's GUIDs and credentials, when, in which format."""

    __tablename__ = "guid_export"

    id: Mapped[int] = mapped_column(primary_key=True)
    batch_id: Mapped[int] = mapped_column(ForeignKey("guid_batch.id", ondelete="CASCADE"), index=True)
    account_id: Mapped[int | None] = mapped_column(ForeignKey("account.id", ondelete="SET NULL"))
    file_format: Mapped[str] = mapped_column(String(10))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class DataApiKey(Model):
    """A key a customer's own system reads its account's devices with (/operation/dataApi). Only its
    SHA-256 is stored; the key itself is shown once, when it is created."""

    __tablename__ = "data_api_key"

    id: Mapped[int] = mapped_column(primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("account.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(50))
    key_prefix: Mapped[str] = mapped_column(String(12))
    key_hash: Mapped[str] = mapped_column(String(64), unique=True)
    rate_per_minute: Mapped[int] = mapped_column(default=60)
    created_by: Mapped[int | None] = mapped_column(ForeignKey("account.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    last_used_at: Mapped[datetime | None] = mapped_column()
    revoked_at: Mapped[datetime | None] = mapped_column()
