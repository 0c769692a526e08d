from __future__ import annotations

import enum
from datetime import datetime

from sqlalchemy import JSON, Float, ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from api.extensions.db import Model, TimestampMixin, str_enum, utcnow
from api.tenancy import TenantOwned


class StorageKind(enum.StrEnum):
    STORAGE = "storage"  # a cold room with its refrigeration controller
    FREEZER = "freezer"
    VIRTUAL = "virtual"  # a named group of probes from several devices


class Zone(enum.StrEnum):
    """Where in the room a probe measures."""

    DOOR = "door"
    MIDDLE = "middle"
    EVAPORATOR = "evaporator"
    RETURN_AIR = "return_air"
    OTHER = "other"


class ColdStorage(TenantOwned, TimestampMixin, Model):
    """A cold storage, freezer or virtual storage (business-domain section 3); field limits of section 5."""

    __tablename__ = "cold_storage"
    __table_args__ = (Index("ix_cold_storage_owner_kind", "owner_account_id", "kind"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    owner_account_id: Mapped[int] = mapped_column(ForeignKey("account.id", ondelete="CASCADE"))
    kind: Mapped[StorageKind] = mapped_column(str_enum(StorageKind))
    name: Mapped[str] = mapped_column(String(50))
    volume: Mapped[str | None] = mapped_column(String(50))
    area: Mapped[str | None] = mapped_column(String(50))
    compressor: Mapped[str | None] = mapped_column(String(100))
    air_cooler: Mapped[str | None] = mapped_column(String(100))
    electric_box: Mapped[str | None] = mapped_column(String(100))
    brand: Mapped[str | None] = mapped_column(String(50))
    model: Mapped[str | None] = mapped_column(String(50))
    address: Mapped[str | None] = mapped_column(String(200))
    lat: Mapped[float | None] = mapped_column(Float)
    lng: Mapped[float | None] = mapped_column(Float)
    images: Mapped[list[str]] = mapped_column(JSON, default=list)  # generated upload names
    time_zone: Mapped[str] = mapped_column(String(64), default="Asia/Shanghai")
    # The refrigeration controller (cold storage) or the monitor (freezer): cloud control goes to it.
    controller_device_id: Mapped[int | None] = mapped_column(ForeignKey("device.id", ondelete="SET NULL"))
    remark: Mapped[str | None] = mapped_column(String(200))
    # The rolling mean-kinetic-temperature alarm (optional).
    mkt_enabled: Mapped[bool] = mapped_column(default=False)
    mkt_window_hours: Mapped[int] = mapped_column(default=24)
    mkt_limit: Mapped[float | None] = mapped_column(Float)
    # Alarm holds of a room with a controller (api/storage/holds.py): minutes a defrost or an open door
    # holds the affected probes' limit alarms (0: off), and the end of the window in force.
    defrost_hold_minutes: Mapped[int] = mapped_column(default=30, server_default="30")
    door_hold_minutes: Mapped[int] = mapped_column(default=5, server_default="5")
    defrost_hold_until: Mapped[datetime | None] = mapped_column()
    door_hold_until: Mapped[datetime | None] = mapped_column()

    probes: Mapped[list[StorageProbe]] = relationship(
        order_by="StorageProbe.id", cascade="all, delete-orphan", back_populates="storage"
    )


class StorageProbe(Model):
    """One probe (a device's sensor) placed in a storage's zone; a probe may belong to several storages."""

    __tablename__ = "storage_probe"
    __table_args__ = (UniqueConstraint("storage_id", "device_id", "sensor"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    storage_id: Mapped[int] = mapped_column(ForeignKey("cold_storage.id", ondelete="CASCADE"), index=True)
    device_id: Mapped[int] = mapped_column(ForeignKey("device.id", ondelete="CASCADE"), index=True)
    sensor: Mapped[int] = mapped_column()
    zone: Mapped[Zone] = mapped_column(str_enum(Zone), default=Zone.MIDDLE)
    name: Mapped[str | None] = mapped_column(String(50))

    storage: Mapped[ColdStorage] = relationship(back_populates="probes")


class StorageCommand(Model):
    """A cloud-control command on a storage: the device command it became (status from its ack)."""

    __tablename__ = "storage_command"

    id: Mapped[int] = mapped_column(primary_key=True)
    storage_id: Mapped[int] = mapped_column(ForeignKey("cold_storage.id", ondelete="CASCADE"), index=True)
    command_id: Mapped[int] = mapped_column(ForeignKey("device_command.id", ondelete="CASCADE"))
    action: Mapped[str] = mapped_column(String(20))
    value: Mapped[float | None] = mapped_column(Float)
    created_by: Mapped[int | None] = mapped_column(ForeignKey("account.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class StorageAlarmStatus(enum.StrEnum):
    OPEN = "open"
    CLOSED = "closed"


class StorageAlarm(Model):
    """A storage-level alarm: the rolling MKT over the storage's window passed its limit."""

    __tablename__ = "storage_alarm"
    __table_args__ = (Index("ix_storage_alarm_storage_status", "storage_id", "status"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    storage_id: Mapped[int] = mapped_column(ForeignKey("cold_storage.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(20), default="mkt")
    status: Mapped[StorageAlarmStatus] = mapped_column(str_enum(StorageAlarmStatus), default=StorageAlarmStatus.OPEN)
    opened_at: Mapped[datetime] = mapped_column(default=utcnow)
    closed_at: Mapped[datetime | None] = mapped_column()
    window_hours: Mapped[int] = mapped_column()
    limit_value: Mapped[float] = mapped_column(Float)
    first_value: Mapped[float] = mapped_column(Float)
    peak_value: Mapped[float] = mapped_column(Float)
    last_value: Mapped[float] = mapped_column(Float)
