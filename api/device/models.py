from __future__ import annotations

import enum
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Float, ForeignKey, Index, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from api.extensions.db import Model, TimestampMixin, str_enum, utcnow
from api.tenancy import TenantOwned

# ---- catalogue ----------------------------------------------------------------------------------------


class TypeStatus(enum.StrEnum):
    TO_TEST = "to_test"
    TESTING = "testing"
    PUBLISHED = "published"


class Category(enum.StrEnum):
    """The device list's categories."""

    COLD_CHAIN = "cold_chain"  # loggers and trackers
    COLD_STORAGE = "cold_storage"
    FREEZER = "freezer"


class ParamUnit(Model):
    """A unit and how to convert to and from its class's basic unit (formulas in X)."""

    __tablename__ = "param_unit"

    id: Mapped[int] = mapped_column(primary_key=True)
    unit_name: Mapped[str] = mapped_column(String(30))
    unit_code: Mapped[str] = mapped_column(String(30), unique=True)
    unit_classify: Mapped[str] = mapped_column(String(30))
    basic_unit: Mapped[bool] = mapped_column(default=False)
    to_basic_formula: Mapped[str] = mapped_column(String(100), default="X")
    from_basic_formula: Mapped[str] = mapped_column(String(100), default="X")


class DeviceType(TimestampMixin, Model):
    __tablename__ = "device_type"

    id: Mapped[int] = mapped_column(primary_key=True)
    type_name: Mapped[str] = mapped_column(String(50))
    type_code: Mapped[int] = mapped_column(unique=True)  # hexadecimal in the UI, >= 0x8000
    type_series: Mapped[str] = mapped_column(String(50))
    category: Mapped[Category] = mapped_column(str_enum(Category))
    net_type: Mapped[str] = mapped_column(String(20))
    type_status: Mapped[TypeStatus] = mapped_column(str_enum(TypeStatus), default=TypeStatus.PUBLISHED)
    supports_waybill: Mapped[bool] = mapped_column(default=False)
    supports_energy: Mapped[bool] = mapped_column(default=False)
    supports_gps: Mapped[bool] = mapped_column(default=False)
    # The logging interval a new device of this type starts with, and how many missed intervals
    # make it offline.
    default_interval_s: Mapped[int] = mapped_column(default=300)
    offline_after_intervals: Mapped[int] = mapped_column(default=3)

    params: Mapped[list[DeviceParam]] = relationship(
        back_populates="device_type", order_by="DeviceParam.sort_no", cascade="all, delete-orphan"
    )


class ReadWrite(enum.StrEnum):
    READ = "R"
    WRITE = "W"
    READ_WRITE = "RW"


class DeviceParam(Model):
    """A parameter of a device type: a sensor channel (probeId set) or a setting."""

    __tablename__ = "device_param"
    __table_args__ = (UniqueConstraint("device_type_id", "param_key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    device_type_id: Mapped[int] = mapped_column(ForeignKey("device_type.id", ondelete="CASCADE"), index=True)
    param_key: Mapped[int] = mapped_column()  # up to four hex digits
    param_name: Mapped[str] = mapped_column(String(40))
    param_type: Mapped[str] = mapped_column(String(20))  # sensor, setting, energy
    probe_id: Mapped[int | None] = mapped_column()  # the sensor number readings carry
    unit_id: Mapped[int | None] = mapped_column(ForeignKey("param_unit.id"))
    precision: Mapped[int] = mapped_column(default=1)  # 0-4 decimals
    param_min: Mapped[float | None] = mapped_column(Float)
    param_max: Mapped[float | None] = mapped_column(Float)
    read_write: Mapped[ReadWrite] = mapped_column(str_enum(ReadWrite, length=2), default=ReadWrite.READ)
    sort_no: Mapped[int] = mapped_column(default=1)
    default_value: Mapped[str | None] = mapped_column(String(40))

    device_type: Mapped[DeviceType] = relationship(back_populates="params")
    unit: Mapped[ParamUnit | None] = relationship()


# ---- GUID issuance and the registry -------------------------------------------------------------------


class GuidBatch(Model):
    __tablename__ = "guid_batch"

    id: Mapped[int] = mapped_column(primary_key=True)
    order_code: Mapped[str] = mapped_column(String(20))
    num: Mapped[int] = mapped_column()
    device_type_id: Mapped[int] = mapped_column(ForeignKey("device_type.id"))
    device_tag: Mapped[str | None] = mapped_column(String(50))
    platform_id: Mapped[int] = mapped_column(ForeignKey("platform.id"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Device(TenantOwned, TimestampMixin, Model):
    """A device from issuance on. Unclaimed until an account adds it by its complete GUID."""

    __tablename__ = "device"
    # Lists walk an owner's devices in display order (pinned first, newest first) and stop early.
    __table_args__ = (Index("ix_device_owner_order", "owner_account_id", "focus", "id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    guid: Mapped[str] = mapped_column(String(20), unique=True)
    device_type_id: Mapped[int] = mapped_column(ForeignKey("device_type.id"), index=True)
    batch_id: Mapped[int | None] = mapped_column(ForeignKey("guid_batch.id"))
    # Bumped to rotate the device credential (the secret is derived from GUID and version).
    credential_version: Mapped[int] = mapped_column(default=1)
    owner_account_id: Mapped[int | None] = mapped_column(ForeignKey("account.id"))
    name: Mapped[str | None] = mapped_column(String(15))
    time_zone: Mapped[str] = mapped_column(String(64), default="Asia/Shanghai")
    remark: Mapped[str | None] = mapped_column(String(120))
    interval_s: Mapped[int] = mapped_column(default=300)
    enabled: Mapped[bool] = mapped_column(default=True)
    scrapped_at: Mapped[datetime | None] = mapped_column()
    deleted: Mapped[bool] = mapped_column(default=False)
    focus: Mapped[bool] = mapped_column(default=False)
    claimed_at: Mapped[datetime | None] = mapped_column()
    service_expires_at: Mapped[datetime | None] = mapped_column(index=True)
    data_expires_at: Mapped[datetime | None] = mapped_column()
    # Per-sensor names and limits the owner sets ({"1": {"name": ..., "upper": ..., "lower": ...}}).
    sensor_settings: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    # Alarm SMS and voice calls left (each send spends one; at zero nothing is sent).
    sms_count: Mapped[int] = mapped_column(default=0, server_default="0")
    voice_count: Mapped[int] = mapped_column(default=0, server_default="0")

    device_type: Mapped[DeviceType] = relationship()
    state: Mapped[DeviceState | None] = relationship(uselist=False, viewonly=True)


class DeviceState(Model):
    """The latest of everything a device reported: lists and counts read this, never history."""

    __tablename__ = "device_state"
    __table_args__ = (Index("ix_device_state_offline_at", "offline_at"),)

    device_id: Mapped[int] = mapped_column(ForeignKey("device.id", ondelete="CASCADE"), primary_key=True)
    last_data_at: Mapped[datetime | None] = mapped_column()
    # When the device counts as offline unless it reports again (last data + interval x N).
    offline_at: Mapped[datetime | None] = mapped_column()
    values: Mapped[dict[str, float]] = mapped_column(JSON, default=dict)
    battery: Mapped[float | None] = mapped_column(Float)
    signal: Mapped[float | None] = mapped_column(Float)
    lat: Mapped[float | None] = mapped_column(Float)
    lng: Mapped[float | None] = mapped_column(Float)
    alarm_active: Mapped[bool] = mapped_column(default=False)
    fault: Mapped[bool] = mapped_column(default=False)


class CommandStatus(enum.StrEnum):
    PENDING = "pending"
    APPLIED = "applied"
    FAILED = "failed"


class DeviceCommand(Model):
    """A parameter change sent down to a device on devices/{guid}/commands."""

    __tablename__ = "device_command"

    id: Mapped[int] = mapped_column(primary_key=True)
    device_id: Mapped[int] = mapped_column(ForeignKey("device.id", ondelete="CASCADE"), index=True)
    params: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[CommandStatus] = mapped_column(str_enum(CommandStatus), default=CommandStatus.PENDING)
    created_by: Mapped[int | None] = mapped_column(ForeignKey("account.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    acked_at: Mapped[datetime | None] = mapped_column()
    error: Mapped[str | None] = mapped_column(String(200))


class DeviceEvent(Model):
    """The device's operation log: who did what to it, when."""

    __tablename__ = "device_event"

    id: Mapped[int] = mapped_column(primary_key=True)
    device_id: Mapped[int] = mapped_column(ForeignKey("device.id", ondelete="CASCADE"), index=True)
    account_id: Mapped[int | None] = mapped_column(ForeignKey("account.id", ondelete="SET NULL"))
    action: Mapped[str] = mapped_column(String(40))
    detail: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class RecordKind(enum.StrEnum):
    MAINTENANCE = "maintenance"
    WARRANTY = "warranty"


class MaintenanceRecord(TimestampMixin, Model):
    __tablename__ = "maintenance_record"

    id: Mapped[int] = mapped_column(primary_key=True)
    device_id: Mapped[int] = mapped_column(ForeignKey("device.id", ondelete="CASCADE"), index=True)
    kind: Mapped[RecordKind] = mapped_column(str_enum(RecordKind))
    report_time: Mapped[datetime] = mapped_column()
    start_time: Mapped[datetime] = mapped_column()
    end_time: Mapped[datetime] = mapped_column()
    person: Mapped[str] = mapped_column(String(50))
    approver: Mapped[str | None] = mapped_column(String(20))
    repairer: Mapped[str | None] = mapped_column(String(50))
    reason: Mapped[str | None] = mapped_column(Text)
    content: Mapped[str | None] = mapped_column(Text)
    standard: Mapped[str | None] = mapped_column(Text)
    result: Mapped[str | None] = mapped_column(Text)
    created_by: Mapped[int | None] = mapped_column(ForeignKey("account.id", ondelete="SET NULL"))
