"""Files of the download centre and scheduled reports."""

from __future__ import annotations

import enum
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from api.extensions.db import Model, TimestampMixin, str_enum, utcnow
from api.tenancy import TenantOwned


class FileStatus(enum.StrEnum):
    GENERATING = "generating"
    GENERATED = "generated"
    FAILED = "failed"


class FileType(enum.StrEnum):
    CSV = "csv"
    XLSX = "xlsx"
    PDF = "pdf"
    ZIP = "zip"  # a scheduled backup's archive


class ExportFile(TenantOwned, Model):
    """One row of the download centre: a file being generated, generated, or failed with a reason.

    `params` is everything the job needs to (re)generate it: devices, sensors, range, the requester's
    time zone, temperature unit and language, the report kind. The file lives under FILES_DIR in a folder with
    a generated name (`stored_name` = folder/name); `name` is what the user sees and downloads it as."""

    __tablename__ = "export_file"
    __table_args__ = (Index("ix_export_file_owner", "owner_account_id", "id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    owner_account_id: Mapped[int] = mapped_column(ForeignKey("account.id", ondelete="CASCADE"))
    scheduled_report_id: Mapped[int | None] = mapped_column(
        ForeignKey("scheduled_report.id", ondelete="SET NULL"), index=True
    )
    # The scheduled backup this archive is a run of (only its last `keep_count` are kept).
    backup_schedule_id: Mapped[int | None] = mapped_column(
        ForeignKey("backup_schedule.id", ondelete="SET NULL"), index=True
    )
    name: Mapped[str] = mapped_column(String(120))
    file_type: Mapped[FileType] = mapped_column(str_enum(FileType, length=8))
    kind: Mapped[str] = mapped_column(String(20), default="device")  # a key of report.kinds.REPORT_KINDS
    params: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[FileStatus] = mapped_column(str_enum(FileStatus), default=FileStatus.GENERATING, index=True)
    reason: Mapped[str | None] = mapped_column(String(500))
    progress: Mapped[int] = mapped_column(default=0)  # percent
    size: Mapped[int | None] = mapped_column(BigInteger)
    stored_name: Mapped[str | None] = mapped_column(String(200))
    attempts: Mapped[int] = mapped_column(default=0)
    # Written by the running job every few seconds; a generating row whose heartbeat stops (a worker
    # killed mid-job) is picked up again by the stale-file sweeper.
    heartbeat_at: Mapped[datetime | None] = mapped_column()
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column()
    expires_at: Mapped[datetime | None] = mapped_column(index=True)
    # SHA-256 of the generated file, written once when it is generated: a file is never regenerated
    # in place (a run for the same report and range is a new row, with the next version number).
    content_hash: Mapped[str | None] = mapped_column(String(64))
    version: Mapped[int] = mapped_column(default=1, server_default="1")


class Frequency(enum.StrEnum):
    DAILY = "daily"
    WEEKLY = "weekly"
    MONTHLY = "monthly"


class ScheduledReport(TenantOwned, TimestampMixin, Model):
    """A report generated on a schedule (business-domain section 3), emailed to its receivers and
    listed in the owner's download centre."""

    __tablename__ = "scheduled_report"

    id: Mapped[int] = mapped_column(primary_key=True)
    owner_account_id: Mapped[int] = mapped_column(ForeignKey("account.id", ondelete="CASCADE"), index=True)
    report_name: Mapped[str] = mapped_column(String(20))
    report_type: Mapped[str] = mapped_column(String(20), default="device")
    file_type: Mapped[FileType] = mapped_column(str_enum(FileType, length=8), default=FileType.PDF)
    frequency: Mapped[Frequency] = mapped_column(str_enum(Frequency))
    # [{"name": ..., "phone": ..., "email": ...}]
    receivers: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=list)
    # What the report covers, as its type says (api/report/kinds): the devices of a device report, the
    # one subject a kind with a ScheduleTarget names (the storage of a storage report). The column
    # keeps its first name, device_ids (no migration).
    subject_ids: Mapped[list[int]] = mapped_column("device_ids", JSON, default=list)
    next_report_time: Mapped[datetime] = mapped_column(index=True)
    time_zone: Mapped[str] = mapped_column(String(64))
    temperature_unit: Mapped[str] = mapped_column(String(1), default="C")
    locale: Mapped[str] = mapped_column(String(5), default="zh-CN")
    last_file_id: Mapped[int | None] = mapped_column()


class BackupSchedule(TenantOwned, TimestampMixin, Model):
    """A periodic full backup of an account (issue 26, /service/scheduledBackup): its devices, their
    settings and the readings of the last `range_days` days as one zip archive in the download centre
    (a CSV per device, settings.json, manifest.json with SHA-256 checksums); only the newest
    `keep_count` archives of a schedule are kept."""

    __tablename__ = "backup_schedule"

    id: Mapped[int] = mapped_column(primary_key=True)
    owner_account_id: Mapped[int] = mapped_column(ForeignKey("account.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(20))
    frequency: Mapped[Frequency] = mapped_column(str_enum(Frequency))
    range_days: Mapped[int] = mapped_column(default=7)
    keep_count: Mapped[int] = mapped_column(default=4)
    enabled: Mapped[bool] = mapped_column(default=True)
    next_run_at: Mapped[datetime] = mapped_column(index=True)
    time_zone: Mapped[str] = mapped_column(String(64))
    locale: Mapped[str] = mapped_column(String(5), default="zh-CN")
    last_file_id: Mapped[int | None] = mapped_column()
