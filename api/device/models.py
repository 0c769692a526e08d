from __future__ import annotations

import enum
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Float, ForeignKey, Index, String, Text, UniqueConstraint, select, text
from sqlalchemy import false as sa_false
from sqlalchemy.orm import Mapped, mapped_column, relationship

from api.extensions.db import Model, TimestampMixin, str_enum, utcnow
from api.tenancy import TenantOwned

# ---- catalogue ----------------------------------------------------------------------------------------


class TypeStatus(enum.StrEnum):
    TO_TEST = "to_test"
    TESTING = "testing"
    PUBLISHED = "published"


# Included alarm SMS / voice calls of a new device until billing sells plans (per type, see DeviceType).
INCLUDED_SMS = 50
INCLUDED_VOICE = 10


def _included(context, column: str) -> int:
    """Insert default of a device's balance: its type's included count."""
    type_id = context.get_current_parameters().get("device_type_id")
    table = DeviceType.__table__
    found = context.connection.execute(select(table.c[column]).where(table.c.id == type_id)).scalar()
    return found if found is not None else (INCLUDED_SMS if column == "included_sms" else INCLUDED_VOICE)


class AddType(enum.IntEnum):
    """Where a user may add a device of a type (business-domain section 3)."""

    UNLIMITED = 0
    APP_ONLY = 1
    PLATFORM_ONLY = 2


class Category(enum.StrEnum):
    """The device list's categories."""

    COLD_CHAIN = "cold_chain"  # loggers and trackers
    COLD_STORAGE = "cold_storage"
    FREEZER = "freezer"


class ParamUnit(Model):
    """A unit and how to convert to and from its class's basic unit (formulas in X, evaluated by
    api/product/formula.py, never by eval)."""

    __tablename__ = "param_unit"

    id: Mapped[int] = mapped_column(primary_key=True)
    unit_name: Mapped[str] = mapped_column(String(30))
    unit_code: Mapped[str] = mapped_column(String(30), unique=True)
    unit_classify: Mapped[str] = mapped_column(String(30))
    locale_code: Mapped[str] = mapped_column(String(10), default="en-US", server_default="en-US")
    basic_unit: Mapped[bool] = mapped_column(default=False)
    unit_pic: Mapped[str | None] = mapped_column(String(255))
    alarm_pic: Mapped[str | None] = mapped_column(String(255))
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
    # Alarm SMS and voice calls a new device of this type starts with (the plan's included counts;
    # a per-type default until billing sells packages).
    included_sms: Mapped[int] = mapped_column(default=INCLUDED_SMS, server_default=str(INCLUDED_SMS))
    included_voice: Mapped[int] = mapped_column(default=INCLUDED_VOICE, server_default=str(INCLUDED_VOICE))
    # The back-office's fields (business-domain section 3; api/product edits them).
    map_mode: Mapped[str | None] = mapped_column(String(20))
    connect_type: Mapped[str | None] = mapped_column(String(20))
    wifi_type: Mapped[str | None] = mapped_column(String(20))
    node_type: Mapped[str | None] = mapped_column(String(20))
    supports_phone: Mapped[bool] = mapped_column(default=False, server_default=sa_false())
    auto_push: Mapped[bool] = mapped_column(default=False, server_default=sa_false())
    batch_param: Mapped[bool] = mapped_column(default=False, server_default=sa_false())
    online_upgrade: Mapped[bool] = mapped_column(default=False, server_default=sa_false())
    cf_mode: Mapped[str] = mapped_column(String(20), default="none", server_default="none")
    manual_url: Mapped[str | None] = mapped_column(String(255))
    add_type: Mapped[int] = mapped_column(default=AddType.UNLIMITED, server_default="0")  # AddType
    type_scenes: Mapped[list[str]] = mapped_column(JSON, default=list)
    explanation: Mapped[str | None] = mapped_column(String(200))

    params: Mapped[list[DeviceParam]] = relationship(
        back_populates="device_type", order_by="DeviceParam.sort_no", cascade="all, delete-orphan"
    )
    models: Mapped[list[DeviceModelCode]] = relationship(
        back_populates="device_type", order_by="DeviceModelCode.model_code", cascade="all, delete-orphan"
    )


class DeviceModelCode(Model):
    """A model of a device type (its hardware variant), keyed by a code of up to four hex digits."""

    __tablename__ = "device_model_code"
    __table_args__ = (UniqueConstraint("device_type_id", "model_code"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    device_type_id: Mapped[int] = mapped_column(ForeignKey("device_type.id", ondelete="CASCADE"), index=True)
    model_name: Mapped[str] = mapped_column(String(50))
    model_code: Mapped[int] = mapped_column()
    model_type: Mapped[str | None] = mapped_column(String(30))
    model_volume: Mapped[str | None] = mapped_column(String(30))
    temperature_range: Mapped[str | None] = mapped_column(String(50))
    voltage: Mapped[str | None] = mapped_column(String(30))
    refrigeration_power: Mapped[str | None] = mapped_column(String(30))
    defrost_power: Mapped[str | None] = mapped_column(String(30))
    model_flag: Mapped[bool] = mapped_column(default=True)

    device_type: Mapped[DeviceType] = relationship(back_populates="models")


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
    # The back-office's fields (business-domain section 3; api/product edits them).
    param_classify: Mapped[str] = mapped_column(String(20), default="basic", server_default="basic")
    param_code: Mapped[int | None] = mapped_column()  # up to six hex digits
    data_type: Mapped[str] = mapped_column(String(20), default="number", server_default="number")
    view_precision: Mapped[int | None] = mapped_column()  # display decimals, not above `precision`
    # A bound may be another parameter of the type (its key) instead of a fixed value.
    min_param_key: Mapped[int | None] = mapped_column()
    max_param_key: Mapped[int | None] = mapped_column()
    step_length: Mapped[float | None] = mapped_column(Float)
    enforce_send: Mapped[bool] = mapped_column(default=False, server_default=sa_false())
    ref_param_expression: Mapped[str | None] = mapped_column(String(100))
    bit_length: Mapped[int | None] = mapped_column()
    bit_list: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=list)
    reg_exp: Mapped[str | None] = mapped_column(String(200))
    reg_exp_tip: Mapped[str | None] = mapped_column(String(100))
    # Sensor parameters merged into one displayed group share a group number.
    merge_group: Mapped[int | None] = mapped_column()

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


LIVE = "NOT deleted"


class Device(TenantOwned, TimestampMixin, Model):
    """A device from issuance on. Unclaimed until an account adds it by its complete GUID."""

    __tablename__ = "device"
    # Lists walk an owner's devices in display order (pinned first, newest first) and stop early.
    __table_args__ = (
        Index("ix_device_owner_order", "owner_account_id", "focus", "id"),
        # A GUID names one live device; a deleted device keeps its record (and history) beside the one
        # that added the GUID again (api/device/services.add_device).
        Index("uq_device_guid_live", "guid", unique=True, postgresql_where=text(LIVE), sqlite_where=text(LIVE)),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    guid: Mapped[str] = mapped_column(String(20), index=True)
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
    # An issued GUID the operator voided before anyone added it (api/product/guid_void.py): it can no
    # longer be added and its uploads are refused.
    voided_at: Mapped[datetime | None] = mapped_column()
    void_reason: Mapped[str | None] = mapped_column(String(200))
    voided_by: Mapped[int | None] = mapped_column()
    focus: Mapped[bool] = mapped_column(default=False)
    # Quick-search flag (business-domain section 3): the public quick query answers for this device
    # only when its owner turned it on; off by default, so a GUID alone reveals nothing.
    quick_search: Mapped[bool] = mapped_column(default=False, server_default=sa_false())
    # Show and export this device's readings corrected by each probe's valid calibration certificate
    # (issue 48; raw values stay stored and are exported beside; api/telemetry/calibration.Corrections).
    calibration_correction: Mapped[bool] = mapped_column(default=False, server_default=sa_false())
    claimed_at: Mapped[datetime | None] = mapped_column()
    service_expires_at: Mapped[datetime | None] = mapped_column(index=True)
    data_expires_at: Mapped[datetime | None] = mapped_column()
    # Per-sensor names the owner sets ({"1": {"name": ...}}). Limits live in the alarm area only
    # (alarm.models.SensorLimit); migration 0010 moved any limits kept here over there.
    sensor_settings: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    # Alarm SMS and voice calls left (each send spends one; at zero nothing is sent). A new device
    # starts with its type's included counts.
    sms_count: Mapped[int] = mapped_column(default=lambda ctx: _included(ctx, "included_sms"), server_default="0")
    voice_count: Mapped[int] = mapped_column(default=lambda ctx: _included(ctx, "included_voice"), server_default="0")
    # The firmware version the device last reported (an over-the-air upgrade ending installed).
    firmware_version: Mapped[str | None] = mapped_column(String(50))

    device_type: Mapped[DeviceType] = relationship()
    state: Mapped[DeviceState | None] = relationship(uselist=False, viewonly=True)


class DeviceState(Model):
    """The latest of everything a device reported: lists and counts read this, never history.
    Rewritten by every upload, so it is updated in place: no index on a column an upload changes,
    and half of each page free for the new row versions (migration 0029)."""

    __tablename__ = "device_state"
    __table_args__ = {"postgresql_with": {"fillfactor": 50}}

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


class DeviceHistory(Model):
    """A device's name and time zone over time (valid from, to; who changed them and why): a report
    prints the name and zone in force over its period and each change inside it. Written with every
    change of either (api/device/history.py), never edited afterwards."""

    __tablename__ = "device_history"
    __table_args__ = (Index("ix_device_history_device", "device_id", "valid_from"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    device_id: Mapped[int] = mapped_column(ForeignKey("device.id", ondelete="CASCADE"))
    name: Mapped[str | None] = mapped_column(String(15))
    time_zone: Mapped[str] = mapped_column(String(64))
    valid_from: Mapped[datetime] = mapped_column(default=utcnow)
    valid_to: Mapped[datetime | None] = mapped_column()
    changed_by: Mapped[int | None] = mapped_column(ForeignKey("account.id", ondelete="SET NULL"))
    reason: Mapped[str | None] = mapped_column(String(200))
