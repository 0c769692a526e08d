from __future__ import annotations

import enum
from datetime import datetime

from sqlalchemy import JSON, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from api.device.models import Device, DeviceType
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


# ---- series, firmware and over-the-air upgrades -------------------------------------------------------


class DeviceSeries(Model):
    """A product series a device type belongs to (/operation/device/series). A type names its series
    by its name (DeviceType.type_series), which must be one of these."""

    __tablename__ = "device_series"
    __table_args__ = (UniqueConstraint("platform_id", "series_name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    platform_id: Mapped[int] = mapped_column(ForeignKey("platform.id", ondelete="CASCADE"), index=True)
    series_name: Mapped[str] = mapped_column(String(50))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class FirmwareVersion(Model):
    """A firmware file for one device model (type), stored through api/extensions/uploads.py."""

    __tablename__ = "firmware_version"
    __table_args__ = (UniqueConstraint("device_type_id", "version_value"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    device_type_id: Mapped[int] = mapped_column(ForeignKey("device_type.id", ondelete="CASCADE"), index=True)
    version_value: Mapped[str] = mapped_column(String(50))
    version_label: Mapped[str] = mapped_column(String(50))
    version_descrip: Mapped[str | None] = mapped_column(String(500))
    file_name: Mapped[str] = mapped_column(String(64))  # the generated name in the upload folder
    original_name: Mapped[str | None] = mapped_column(String(255))
    file_size: Mapped[int] = mapped_column()
    sha256: Mapped[str] = mapped_column(String(64))
    created_by: Mapped[int | None] = mapped_column(ForeignKey("account.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    device_type: Mapped[DeviceType] = relationship()


class RolloutStatus(enum.StrEnum):
    RUNNING = "running"
    COMPLETED = "completed"
    STOPPED = "stopped"  # failures passed the threshold
    CANCELLED = "cancelled"


class TargetState(enum.StrEnum):
    WAITING = "waiting"  # in a later group, or held back by the rate
    QUEUED = "queued"  # the command is on the downlink
    DOWNLOADING = "downloading"
    INSTALLING = "installing"
    INSTALLED = "installed"
    FAILED = "failed"


class UpgradeRollout(Model):
    """An upgrade issued to one device, a selection or a whole model in groups (stages: cumulative
    percentages, e.g. [5, 25, 100]); api/product/rollouts.py drives it."""

    __tablename__ = "upgrade_rollout"

    id: Mapped[int] = mapped_column(primary_key=True)
    firmware_id: Mapped[int] = mapped_column(ForeignKey("firmware_version.id"), index=True)
    stages: Mapped[list[int]] = mapped_column(JSON)
    current_stage: Mapped[int] = mapped_column(default=0)
    failure_threshold: Mapped[int] = mapped_column()  # percent of the devices sent so far
    rate_per_minute: Mapped[int] = mapped_column()
    status: Mapped[RolloutStatus] = mapped_column(str_enum(RolloutStatus), default=RolloutStatus.RUNNING, index=True)
    stop_reason: Mapped[str | None] = mapped_column(String(200))  # "failed/sent" when it stopped
    created_by: Mapped[int | None] = mapped_column(ForeignKey("account.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column()

    firmware: Mapped[FirmwareVersion] = relationship()
    targets: Mapped[list[UpgradeTarget]] = relationship(
        back_populates="rollout", order_by="UpgradeTarget.id", cascade="all, delete-orphan"
    )


class UpgradeTarget(Model):
    """One device of a rollout and where its upgrade stands."""

    __tablename__ = "upgrade_target"
    __table_args__ = (UniqueConstraint("rollout_id", "device_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    rollout_id: Mapped[int] = mapped_column(ForeignKey("upgrade_rollout.id", ondelete="CASCADE"), index=True)
    device_id: Mapped[int] = mapped_column(ForeignKey("device.id", ondelete="CASCADE"), index=True)
    stage: Mapped[int] = mapped_column()
    state: Mapped[TargetState] = mapped_column(str_enum(TargetState), default=TargetState.WAITING)
    command_id: Mapped[int | None] = mapped_column(
        ForeignKey("device_command.id", ondelete="SET NULL"), index=True, unique=True
    )
    from_version: Mapped[str | None] = mapped_column(String(50))
    attempts: Mapped[int] = mapped_column(default=0)
    sent_at: Mapped[datetime | None] = mapped_column()
    updated_at: Mapped[datetime | None] = mapped_column()
    error: Mapped[str | None] = mapped_column(String(200))  # the device's reason, or a platform token

    rollout: Mapped[UpgradeRollout] = relationship(back_populates="targets")
    device: Mapped[Device] = relationship()
