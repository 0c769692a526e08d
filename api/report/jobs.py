"""Jobs of the download centre: generating a file, sweeping files whose worker died, removing
expired files, and running scheduled reports. All take ids and are safe to run again."""

from __future__ import annotations

import contextlib
import logging
import os
import secrets
import time
from datetime import timedelta
from zoneinfo import ZoneInfo

from flask import current_app
from flask_babel import force_locale, gettext
from rq import Retry
from sqlalchemy import or_, select, update

from api.account.models import Account
from api.extensions.db import db, utcnow
from api.jobs import DEFAULT, EXPORTS, REPORTS, job
from api.notify.models import Channel, OutboundMessage
from api.platform.models import Platform
from api.report.formats import CancelledError, Presentation, Progress, estimate, write_csv, write_xlsx
from api.report.kinds import REPORT_KINDS
from api.report.models import ExportFile, FileStatus, FileType, ScheduledReport
from api.report.present import Units
from api.report.services import ensure_downloadable

log = logging.getLogger(__name__)
# How long a queued (never started) file may wait before the sweeper queues it again.
QUEUE_WAIT = timedelta(hours=1)


def _writers():
    from api.report.pdf import write_pdf

    return {FileType.CSV: write_csv, FileType.XLSX: write_xlsx, FileType.PDF: write_pdf}


def claim(file_id: int) -> bool:
    """Take the file for this run: still generating, and no other run beating for it. Atomic, so a
    run re-queued by the sweeper and one retried by RQ never write the same file at once."""
    stale = utcnow() - timedelta(seconds=current_app.config["EXPORT_STALE_SECONDS"])
    with db.engine.begin() as connection:
        return (
            connection.execute(
                update(ExportFile)
                .where(
                    ExportFile.id == file_id,
                    ExportFile.status == FileStatus.GENERATING,
                    or_(ExportFile.heartbeat_at.is_(None), ExportFile.heartbeat_at < stale),
                )
                .values(attempts=ExportFile.attempts + 1, heartbeat_at=utcnow(), progress=0)
            ).rowcount
            == 1
        )


def generate(file_id: int) -> str:
    if not claim(file_id):
        return "skipped"
    export = db.session.get(ExportFile, file_id)
    params = export.params
    directory = current_app.config["FILES_DIR"]
    os.makedirs(directory, exist_ok=True)
    # A folder with an unguessable name per run, the file inside under its display name (so an
    # emailed report arrives as "Weekly fridge_20261101-20261107.pdf").
    folder = secrets.token_urlsafe(18)
    stored = f"{folder}/{export.name}"
    os.makedirs(os.path.join(directory, folder))
    final = os.path.join(directory, stored)
    partial = final + ".part"
    try:
        with force_locale(params.get("locale", "zh-CN").replace("-", "_")):
            subjects = REPORT_KINDS[export.kind].subjects(params, export.owner_account_id)
            if not subjects:
                raise ValueError(gettext("None of the devices of this file can be exported any more."))
            for subject in subjects:  # a scheduled report too: no data past service expiry + 3 months
                ensure_downloadable(subject.device)
            presentation = Presentation(
                zone=ZoneInfo(params["timeZone"]),
                units=Units(params.get("unit", "C")),
                locale=params.get("locale", "zh-CN"),
                platform=db.session.get(Platform, export.platform_id),
                requester=db.session.get(Account, export.owner_account_id),
            )
            progress = Progress(export.id, estimate(subjects), time.monotonic)
            _writers()[export.file_type](partial, subjects, presentation, progress)
        os.replace(partial, final)
    except CancelledError:
        db.session.rollback()
        _unlink(partial)
        return "cancelled"
    except Exception as exc:
        db.session.rollback()
        _unlink(partial)
        log.exception("file %s failed", file_id)
        _finish(file_id, FileStatus.FAILED, reason=str(exc)[:500] or type(exc).__name__)
        return "failed"
    db.session.rollback()  # end the streaming transaction
    if not _finish(file_id, FileStatus.GENERATED, stored=stored, size=os.path.getsize(final)):
        _unlink(final)  # deleted by its owner meanwhile
        return "cancelled"
    if export.scheduled_report_id:
        mail_report(file_id)
    return "generated"


def _unlink(path: str) -> None:
    """Remove a file and its run's folder."""
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)
    with contextlib.suppress(OSError):
        os.rmdir(os.path.dirname(path))


def _finish(file_id: int, status: FileStatus, *, reason=None, stored=None, size=None) -> bool:
    now = utcnow()
    values = {"status": status, "reason": reason, "finished_at": now, "heartbeat_at": now}
    if status == FileStatus.GENERATED:
        values |= {
            "stored_name": stored,
            "size": size,
            "progress": 100,
            "expires_at": now + timedelta(days=current_app.config["FILE_RETENTION_DAYS"]),
        }
    with db.engine.begin() as connection:
        done = connection.execute(
            update(ExportFile)
            .where(ExportFile.id == file_id, ExportFile.status == FileStatus.GENERATING)
            .values(**values)
        ).rowcount
    return done == 1


@job(EXPORTS, retry=Retry(max=2, interval=[10, 60]), timeout=3600)
def generate_file(file_id: int) -> str:
    """A CSV or XLSX export."""
    return generate(file_id)


@job(REPORTS, retry=Retry(max=2, interval=[10, 60]), timeout=1800)
def generate_report(file_id: int) -> str:
    """A PDF report."""
    return generate(file_id)


def mail_report(file_id: int) -> None:
    """The outbox rows of a scheduled report's file: email with the file attached to each email
    receiver, a short SMS to each phone. Written once per file (the report's last_file_id guard)."""
    from api.notify.jobs import deliver_message

    export = db.session.get(ExportFile, file_id)
    report = db.session.get(ScheduledReport, export.scheduled_report_id) if export else None
    if report is None:
        return
    already = db.session.scalar(
        select(OutboundMessage.id).where(OutboundMessage.attachment_path.like(f"%{export.stored_name}"))
    )
    if already:
        return
    path = os.path.join(current_app.config["FILES_DIR"], export.stored_name)
    messages = []
    with force_locale(report.locale.replace("-", "_")):
        subject = gettext("Scheduled report: %(name)s", name=report.report_name)
        body = gettext(
            "The report %(name)s (%(file)s) is attached; it is also in the download centre.",
            name=report.report_name,
            file=export.name,
        )
        sms = gettext("The report %(name)s is ready in the download centre.", name=report.report_name)
    for receiver in report.receivers:
        if receiver.get("email"):
            messages.append(
                OutboundMessage(
                    platform_id=report.platform_id,
                    channel=Channel.EMAIL,
                    recipient=receiver["email"],
                    subject=subject,
                    body=body,
                    attachment_path=path,
                )
            )
        if receiver.get("phone"):
            messages.append(
                OutboundMessage(
                    platform_id=report.platform_id, channel=Channel.SMS, recipient=receiver["phone"], body=sms
                )
            )
    db.session.add_all(messages)
    db.session.commit()
    for message in messages:
        deliver_message.enqueue(message.id, job_id=f"message-{message.id}")


@job(DEFAULT, timeout=300)
def sweep_stale_files() -> dict:
    """Generating files whose job stopped beating (its worker was killed) are queued again, up to
    EXPORT_MAX_ATTEMPTS runs, then failed with a reason: a file never stays generating."""
    config = current_app.config
    now = utcnow()
    stale = now - timedelta(seconds=config["EXPORT_STALE_SECONDS"])
    rows = db.session.scalars(
        select(ExportFile)
        .where(
            ExportFile.status == FileStatus.GENERATING,
            or_(
                ExportFile.heartbeat_at < stale,
                ExportFile.heartbeat_at.is_(None) & (ExportFile.created_at < now - QUEUE_WAIT),
            ),
        )
        .with_for_update(skip_locked=True)
    ).all()
    requeued, failed = [], []
    for export in rows:
        if export.attempts >= config["EXPORT_MAX_ATTEMPTS"]:
            export.status = FileStatus.FAILED
            with force_locale(export.params.get("locale", "zh-CN").replace("-", "_")):
                export.reason = gettext(
                    "The file could not be generated: the job was interrupted %(n)s times.", n=export.attempts
                )
            export.finished_at = now
            failed.append(export.id)
        else:
            requeued.append(export)
    db.session.commit()
    from api.report.services import enqueue_generation

    for export in requeued:
        enqueue_generation(export)
    return {"requeued": [e.id for e in requeued], "failed": failed}


@job(DEFAULT, timeout=600)
def purge_expired_files() -> int:
    """Remove files past their retention (row and storage) and partial files left by dead jobs."""
    from api.report.services import files_dir, remove_stored

    now = utcnow()
    expired = db.session.scalars(select(ExportFile).where(ExportFile.expires_at < now)).all()
    for export in expired:
        remove_stored(export)
        db.session.delete(export)
    db.session.commit()
    cutoff = time.time() - 86_400
    for leftover in files_dir().glob("*/*.part"):
        if leftover.stat().st_mtime < cutoff:
            leftover.unlink(missing_ok=True)
            with contextlib.suppress(OSError):
                leftover.parent.rmdir()
    return len(expired)


@job(DEFAULT, timeout=300)
def run_due_reports() -> list[int]:
    """Start every scheduled report whose nextReportTime has come, and move it to its next run."""
    from api.report.services import advance, enqueue_generation, start_report_run

    now = utcnow()
    due = db.session.scalars(
        select(ScheduledReport)
        .where(ScheduledReport.next_report_time <= now)
        .order_by(ScheduledReport.id)
        .with_for_update(skip_locked=True)
    ).all()
    files = []
    for report in due:
        files.append(start_report_run(report, report.next_report_time))
        zone = ZoneInfo(report.time_zone)
        while report.next_report_time <= now:
            report.next_report_time = advance(report.next_report_time, report.frequency, zone)
    db.session.commit()
    for export in files:
        enqueue_generation(export)
    return [f.id for f in files]
