"""Generating a download-centre file: claim it, write it (CSV, XLSX, PDF), hash it, finish the row,
mail a scheduled report's file through the outbox; plus the upkeep of files (stale runs, expired
files). This is the work; api/report/jobs.py only wraps it and enqueues."""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import secrets
import time
from datetime import timedelta
from zoneinfo import ZoneInfo

from flask import current_app
from flask_babel import force_locale, gettext
from sqlalchemy import or_, select, update

from api.extensions.db import db, utcnow
from api.identity.models import Account
from api.notify.models import Channel
from api.notify.services import add_message
from api.platform.models import Platform
from api.report.archive import write_backup
from api.report.formats import CancelledError, Presentation, Progress, estimate, write_csv, write_xlsx
from api.report.kinds import REPORT_KINDS
from api.report.models import ExportFile, FileStatus, FileType, ScheduledReport
from api.report.pdf import write_pdf
from api.report.present import Units
from api.report.services import ensure_downloadable, files_dir, remove_stored

log = logging.getLogger(__name__)
# How long a queued (never started) file may wait before the sweeper queues it again.
QUEUE_WAIT = timedelta(hours=1)
WRITERS = {FileType.CSV: write_csv, FileType.XLSX: write_xlsx, FileType.PDF: write_pdf, FileType.ZIP: write_backup}


def claim(file_id: int) -> bool:
    """Take the file for this run: still generating, and no other run beating for it. Atomic, so a
    run re-queued by the sweeper and one retried by RQ never write the same file at once. A file
    once generated is never claimed again: it is not regenerated in place."""
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


def sha256_of(path: str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


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
            kind = REPORT_KINDS[export.kind]
            if kind.stored is not None:  # a record frozen at signing: its stored bytes, never rendered again
                with open(partial, "wb") as out:
                    out.write(kind.stored(params))
            elif kind.write is not None:
                kind.write(partial, export, Progress(export.id, 1, time.monotonic))
            else:
                _write_subjects(export, kind, partial)
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
    return _generated(export, kind, stored, final)


def _write_subjects(export: ExportFile, kind, partial: str) -> None:
    """A file about devices: its kind's subjects written by the file type's writer."""
    params = export.params
    subjects = kind.subjects(params, export.owner_account_id)
    if not subjects and not kind.archive:
        raise ValueError(gettext("None of the devices of this file can be exported any more."))
    for subject in subjects:  # a scheduled report too: no data past service expiry + 3 months
        ensure_downloadable(subject.device)
    presentation = Presentation(
        zone=ZoneInfo(params["timeZone"]),
        units=Units(params.get("unit", "C")),
        locale=params.get("locale", "zh-CN"),
        platform=db.session.get(Platform, export.platform_id),
        requester=db.session.get(Account, export.owner_account_id),
        generated_at=export.created_at,
    )
    progress = Progress(export.id, estimate(subjects), time.monotonic)
    WRITERS[export.file_type](partial, subjects, presentation, progress)
    if kind.seal is not None:  # before hashing: the stored hash is the sealed file's
        kind.seal(partial, params)


def _generated(export: ExportFile, kind, stored: str, final: str) -> str:
    file_id = export.id
    db.session.rollback()  # end the streaming transaction
    done = _finish(
        file_id,
        FileStatus.GENERATED,
        stored=stored,
        size=os.path.getsize(final),
        digest=sha256_of(final),
        expires=not kind.archive,
    )
    if not done:
        _unlink(final)  # deleted by its owner meanwhile
        return "cancelled"
    if export.scheduled_report_id:
        mail_report(file_id)
    if kind.finished is not None:
        kind.finished(file_id)
    return "generated"


def _unlink(path: str) -> None:
    """Remove a file and its run's folder."""
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)
    with contextlib.suppress(OSError):
        os.rmdir(os.path.dirname(path))


def _finish(
    file_id: int, status: FileStatus, *, reason=None, stored=None, size=None, digest=None, expires=True
) -> bool:
    now = utcnow()
    values = {"status": status, "reason": reason, "finished_at": now, "heartbeat_at": now}
    if status == FileStatus.GENERATED:
        values |= {
            "stored_name": stored,
            "size": size,
            "content_hash": digest,
            "progress": 100,
            "expires_at": now + timedelta(days=current_app.config["FILE_RETENTION_DAYS"]) if expires else None,
        }
    with db.engine.begin() as connection:
        done = connection.execute(
            update(ExportFile)
            .where(ExportFile.id == file_id, ExportFile.status == FileStatus.GENERATING)
            .values(**values)
        ).rowcount
    return done == 1


def mail_report(file_id: int) -> None:
    """The outbox rows of a scheduled report's file: email with the file attached to each email
    receiver, a short SMS to each phone. Each row's dedupe key names the file, so a run repeated
    after a crash writes (and sends) nothing twice."""
    export = db.session.get(ExportFile, file_id)
    report = db.session.get(ScheduledReport, export.scheduled_report_id) if export else None
    if report is None:
        return
    path = os.path.join(current_app.config["FILES_DIR"], export.stored_name)
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
            add_message(
                report.platform_id,
                Channel.EMAIL,
                receiver["email"],
                body,
                subject=subject,
                attachment_path=path,
                dedupe_key=f"report-file:{export.id}:email:{receiver['email']}",
                lang=report.locale,
            )
        if receiver.get("phone"):
            add_message(
                report.platform_id,
                Channel.SMS,
                receiver["phone"],
                sms,
                dedupe_key=f"report-file:{export.id}:sms:{receiver['phone']}",
                lang=report.locale,
            )
    db.session.commit()


def stale_files() -> tuple[list[ExportFile], list[int]]:
    """Generating files whose job stopped beating (its worker was killed): failed with a reason after
    EXPORT_MAX_ATTEMPTS runs, else returned to be queued again (requeued, failed ids). A file never
    stays generating."""
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
    return requeued, failed


def purge_expired() -> int:
    """Remove files past their retention (row and storage) and partial files left by dead jobs."""
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
