"""The threshold check on ingest: an upload of a device carrying goods under a stability profile whose
alarm is not raised yet queues that waybill's check (the same one the 5-minute job runs), after the
upload commits. Every other upload pays one indexed lookup, sent with the batch's other lookups
(api/telemetry/ingest.BatchLookup). Lots are left to the periodic job: a storage's lots are reached
through its probes, and `storage_lot.storage_id` has no index to make that lookup cheap."""

from __future__ import annotations

from rq.exceptions import NoSuchJobError
from rq.job import Job, JobStatus
from sqlalchemy import Select, select
from sqlalchemy.orm import Session

from api.budget.jobs import check_waybill_budget
from api.budget.models import WaybillBudget
from api.extensions.db import db, one_of_param, per_dialect
from api.extensions.redis import redis_connection
from api.telemetry.device_auth import IngestedDevice
from api.telemetry.ingest import REPLAY, BatchLookup, batch_context
from api.telemetry.records import Record
from api.waybill.models import Waybill, WaybillState

OPEN = "budget.open"  # batch context: device id -> ids of its un-alerted waybill budgets
PENDING = "budget_pending"  # session info: assignment ids to check once the upload commits
WAITING = (JobStatus.QUEUED, JobStatus.SCHEDULED, JobStatus.DEFERRED)


@per_dialect
def _open_budgets() -> Select:
    # ix_waybill_device_state picks the device's running trips; waybill_budget.waybill_id is unique.
    return (
        select(Waybill.device_id, WaybillBudget.id)
        .join(WaybillBudget, WaybillBudget.waybill_id == Waybill.id)
        .where(
            one_of_param(Waybill.device_id, "ids"),
            Waybill.state == WaybillState.IN_PROGRESS,
            WaybillBudget.alerted_at.is_(None),
        )
    )


def _take_open_budgets(rows: list, devices: list[IngestedDevice]) -> None:
    found: dict[int, list[int]] = {}
    for device_id, assignment_id in rows:
        found.setdefault(device_id, []).append(assignment_id)
    batch_context()[OPEN] = found


OPEN_BUDGETS = BatchLookup(_open_budgets, _take_open_budgets)


def on_readings(ingested: IngestedDevice, records: list[Record]) -> None:
    """Queue the check of the device's un-alerted budgets (none: nothing more is asked)."""
    context = batch_context() or {}
    if not records or context.get(REPLAY):
        return  # a replayed history is judged by the periodic job, as of now
    ids = context.get(OPEN, {}).get(ingested.id)
    if ids:
        db.session.info.setdefault(PENDING, set()).update(ids)


def queue_after_commit(session: Session) -> None:
    """Enqueue (Redis only, never this session) the checks of what committed. Without Redis the
    5-minute job raises the alarm; the check is idempotent either way (row lock, `alerted_at`)."""
    ids = session.info.pop(PENDING, None)
    connection = redis_connection() if ids else None
    if connection is None:
        return
    for assignment_id in sorted(ids):
        job_id = f"budget-waybill-{assignment_id}"
        if _waiting(job_id, connection):
            continue  # an upload every minute queues one check, not one per upload
        check_waybill_budget.enqueue(assignment_id, job_id=job_id)


def _waiting(job_id: str, connection) -> bool:
    try:
        return Job.fetch(job_id, connection=connection).get_status() in WAITING
    except NoSuchJobError:
        return False


def forget_after_rollback(session: Session) -> None:
    session.info.pop(PENDING, None)
