"""Jobs of the download centre: they take ids, wrap api.report.generate / services and enqueue."""

from __future__ import annotations

from rq import Retry
from sqlalchemy.orm import Session

from api.extensions.db import db, utcnow
from api.jobs import DEFAULT, EXPORTS, REPORTS, job, redis_connection
from api.report import backup, services
from api.report import generate as work
from api.report.models import ExportFile, FileType


@job(EXPORTS, retry=Retry(max=2, interval=[10, 60]), timeout=3600)
def generate_file(file_id: int) -> str:
    """A CSV or XLSX export."""
    return work.generate(file_id)


@job(REPORTS, retry=Retry(max=2, interval=[10, 60]), timeout=1800)
def generate_report(file_id: int) -> str:
    """A PDF report."""
    return work.generate(file_id)


def enqueue_generation(export: ExportFile) -> None:
    job_func = generate_report if export.file_type == FileType.PDF else generate_file
    job_func.enqueue(export.id, job_id=f"export-file-{export.id}-{export.attempts}")


AFTER_COMMIT = "report_files_after_commit"


def generate_after_commit(export: ExportFile) -> None:
    """Queue a (flushed) file's generation once the current transaction commits (dropped if it rolls
    back): for files written deep inside another area's transaction (a waybill completed on ingest).
    Without Redis the stale-file sweeper queues it later (it sweeps files never started)."""
    db.session.info.setdefault(AFTER_COMMIT, []).append((export.id, export.file_type))


def queue_committed_files(session: Session) -> None:
    files = session.info.pop(AFTER_COMMIT, None)
    if not files or redis_connection() is None:
        return
    for file_id, file_type in files:  # enqueueing talks to Redis only, never to this session
        job_func = generate_report if file_type == FileType.PDF else generate_file
        job_func.enqueue(file_id, job_id=f"export-file-{file_id}-0")


def forget_rolled_back_files(session: Session) -> None:
    session.info.pop(AFTER_COMMIT, None)


@job(DEFAULT, timeout=300)
def sweep_stale_files() -> dict:
    """Files whose worker died are queued again (or failed after EXPORT_MAX_ATTEMPTS runs)."""
    requeued, failed = work.stale_files()
    for export in requeued:
        enqueue_generation(export)
    return {"requeued": [e.id for e in requeued], "failed": failed}


@job(DEFAULT, timeout=600)
def purge_expired_files() -> int:
    return work.purge_expired()


@job(DEFAULT, timeout=300)
def run_due_reports() -> list[int]:
    """Start every scheduled report whose nextReportTime has come, and move it to its next run."""
    files = services.start_due_reports(utcnow())
    for export in files:
        enqueue_generation(export)
    return [f.id for f in files]


@job(DEFAULT, timeout=300)
def run_due_backups() -> list[int]:
    """Start every enabled scheduled backup whose time has come, and move it to its next run."""
    files = backup.start_due_backups(utcnow())
    for export in files:
        enqueue_generation(export)
    return [f.id for f in files]
