"""Scheduled backups (issue 26, /service/scheduledBackup): the rules. A schedule belongs to its
account; each run is a zip archive in the download centre (api/report/archive.py writes it), and only
the schedule's newest `keep_count` archives are kept. Callers queue a run's generation after these
functions commit it."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from flask import current_app
from sqlalchemy import select, update

from api.extensions.db import db, paginate, utcnow
from api.extensions.i18n import caller_zone
from api.identity.auth import owned, require_account
from api.report.archive import backup_devices, prune
from api.report.models import BackupSchedule, ExportFile, FileType, Frequency
from api.report.services import advance, missing, next_version, request_locale
from api.tenancy import data_platform_id


def schedule_page(args: dict) -> dict:
    stmt = owned(select(BackupSchedule), BackupSchedule)
    if args.get("name"):
        stmt = stmt.where(BackupSchedule.name.icontains(args["name"], autoescape=True))
    return paginate(stmt, args, BackupSchedule.id.desc())


def owned_schedule(schedule_id: int) -> BackupSchedule:
    schedule = db.session.scalar(owned(select(BackupSchedule), BackupSchedule).where(BackupSchedule.id == schedule_id))
    if schedule is None:
        raise missing()
    return schedule


def _apply(schedule: BackupSchedule, args: dict) -> None:
    schedule.name = args["name"]
    schedule.frequency = Frequency(args["frequency"])
    schedule.range_days = args["rangeDays"]
    schedule.keep_count = args["keepCount"]
    schedule.enabled = args["enabled"]
    schedule.next_run_at = args["nextRunTime"]
    schedule.time_zone = caller_zone().key
    schedule.locale = request_locale()


def create_schedule(args: dict) -> BackupSchedule:
    account = require_account()
    schedule = BackupSchedule(platform_id=data_platform_id(), owner_account_id=account.id)
    _apply(schedule, args)
    db.session.add(schedule)
    db.session.commit()
    return schedule


def update_schedule(args: dict) -> BackupSchedule:
    schedule = owned_schedule(args["id"])
    _apply(schedule, args)
    db.session.commit()
    prune_to(schedule)  # a smaller keepCount applies at once
    return schedule


def prune_to(schedule: BackupSchedule) -> None:
    last = db.session.scalar(
        select(ExportFile.id).where(ExportFile.backup_schedule_id == schedule.id).order_by(ExportFile.id.desc())
    )
    if last is not None:
        prune(last)


def delete_schedule(schedule_id: int) -> None:
    """Delete a schedule; its archives stay in the download centre and expire like other files."""
    schedule = owned_schedule(schedule_id)
    expires = utcnow() + timedelta(days=current_app.config["FILE_RETENTION_DAYS"])
    db.session.execute(
        update(ExportFile)
        .where(ExportFile.backup_schedule_id == schedule.id, ExportFile.expires_at.is_(None))
        .values(expires_at=expires)
    )
    db.session.delete(schedule)
    db.session.commit()


def archive_page(args: dict) -> dict:
    """The archives of one of the account's schedules, newest first."""
    schedule = owned_schedule(args["id"])
    stmt = owned(select(ExportFile), ExportFile).where(ExportFile.backup_schedule_id == schedule.id)
    return paginate(stmt, args, ExportFile.id.desc())


def start_run(schedule: BackupSchedule, moment: datetime) -> ExportFile:
    """A file for one run (the readings of the `range_days` days before `moment`), not yet queued."""
    zone = ZoneInfo(schedule.time_zone)
    start, end = moment - timedelta(days=schedule.range_days), moment
    devices = backup_devices(schedule.owner_account_id, schedule.platform_id)
    name = f"{schedule.name}_{moment.astimezone(zone):%Y%m%d-%H%M}.zip"
    export = ExportFile(
        platform_id=schedule.platform_id,
        owner_account_id=schedule.owner_account_id,
        backup_schedule_id=schedule.id,
        name="".join("_" if ch in '/\\:*?"<>|' else ch for ch in name)[:120],
        file_type=FileType.ZIP,
        kind="backup",
        params={
            "deviceIds": [device.id for device in devices],
            "sensors": None,
            "start": start.isoformat(),
            "end": end.isoformat(),
            "timeZone": schedule.time_zone,
            "unit": "C",
            "locale": schedule.locale,
        },
    )
    export.version = next_version(export)
    db.session.add(export)
    db.session.flush()
    schedule.last_file_id = export.id
    return export


def run_now(schedule_id: int) -> ExportFile:
    """Back up at once (the schedule is unchanged)."""
    export = start_run(owned_schedule(schedule_id), utcnow())
    db.session.commit()
    return export


def start_due_backups(now: datetime) -> list[ExportFile]:
    """A run for every enabled schedule whose time has come; each moves to its next run."""
    due = db.session.scalars(
        select(BackupSchedule)
        .where(BackupSchedule.next_run_at <= now, BackupSchedule.enabled.is_(True))
        .order_by(BackupSchedule.id)
        .with_for_update(skip_locked=True)
    ).all()
    files = []
    for schedule in due:
        files.append(start_run(schedule, schedule.next_run_at))
        zone = ZoneInfo(schedule.time_zone)
        while schedule.next_run_at <= now:
            schedule.next_run_at = advance(schedule.next_run_at, schedule.frequency, zone)
    db.session.commit()
    return files
