"""The threshold check on ingest (api/budget/ingest.py): an upload of a device whose running trip has
an un-alerted budget queues that waybill's check after the upload commits; the check raises the alarm
once (the job run again, or the periodic pass, raises nothing); a device without one queues nothing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from rq import Queue
from rq.job import Job
from sqlalchemy import select

from api.alarm.models import Alarm, AlarmKind
from api.budget.jobs import check_waybill_budget
from api.budget.models import WaybillBudget
from api.budget.services import check_budgets
from api.device.models import Device
from api.extensions.db import db
from api.extensions.redis import redis_connection
from api.jobs import DEFAULT
from api.waybill.models import Waybill
from tests.api.budget_helpers import B, ok, profile_body, send_minutes
from tests.api.waybill_helpers import W, create, device, shipper, trackers

__all__ = ["shipper", "trackers"]


def budget_jobs(app) -> list[str]:
    """The budget checks waiting in the queue (each listed as often as it is queued)."""
    with app.app_context():
        queue = Queue(DEFAULT, connection=redis_connection())
        return [job_id for job_id in queue.job_ids if job_id.startswith("budget-waybill-")]


def drop_budget_jobs(app) -> None:
    with app.app_context():
        for job_id in set(budget_jobs(app)):
            Job.fetch(job_id, connection=redis_connection()).delete()


def test_an_upload_queues_the_check_of_its_running_trips_budget_once(app, client, shipper, trackers):
    idle = device(client, shipper, trackers, "gt_b")  # no waybill, no budget
    device_id = device(client, shipper, trackers)
    waybill = create(client, shipper, device_id, ignoreMinutes=0)
    ok(client.put(f"{W}/Waybill/start/{waybill['id']}", json={"confirm": True}, headers=shipper))
    start = (datetime.now(UTC) - timedelta(hours=2)).replace(second=0, microsecond=0)
    with app.app_context():  # the trip began two hours ago, logging every 5 minutes
        db.session.get(Waybill, waybill["id"]).started_at = start
        db.session.get(Device, device_id).interval_s = 300
        db.session.commit()
    profile = ok(
        client.post(
            f"{B}/StabilityProfile/insert",
            json=profile_body(mktLimit=None, bands=[{"low": 8, "high": None, "hours": 1}]),
            headers=shipper,
        )
    )
    ok(
        client.put(
            f"{B}/WaybillBudget/assign", json={"waybillId": waybill["id"], "profileId": profile["id"]}, headers=shipper
        )
    )
    with app.app_context():
        assignment_id = db.session.scalar(select(WaybillBudget.id).where(WaybillBudget.waybill_id == waybill["id"]))
    drop_budget_jobs(app)

    send_minutes(client, trackers["gt_b"], start, [(0, 30.0)])
    assert budget_jobs(app) == [], "a device without a budget queues nothing"
    assert idle

    send_minutes(client, trackers["gt_a"], start, [(minute, 30.0) for minute in range(0, 70, 10)])
    assert budget_jobs(app) == [f"budget-waybill-{assignment_id}"]  # queued once for seven uploads
    drop_budget_jobs(app)
    with app.app_context():
        assert check_waybill_budget(assignment_id) == 1  # 65 min of the hour above 8 °C: over 80 %
        assert check_waybill_budget(assignment_id) == 0  # run again (RQ may): raised already
        assert check_budgets() == 0  # nor does the periodic pass raise it again
        [alarm] = db.session.scalars(select(Alarm).where(Alarm.kind == AlarmKind.BUDGET)).all()
        assert alarm.device_id == device_id and alarm.status == "open"

    send_minutes(client, trackers["gt_a"], start, [(80, 31.0)])
    assert budget_jobs(app) == [], "an alerted budget is not looked at again"


def test_a_budget_below_its_threshold_is_checked_and_raises_nothing(app, client, shipper, trackers):
    device_id = device(client, shipper, trackers)
    waybill = create(client, shipper, device_id, ignoreMinutes=0)
    ok(client.put(f"{W}/Waybill/start/{waybill['id']}", json={"confirm": True}, headers=shipper))
    start = (datetime.now(UTC) - timedelta(minutes=30)).replace(second=0, microsecond=0)
    with app.app_context():
        db.session.get(Waybill, waybill["id"]).started_at = start
        db.session.get(Device, device_id).interval_s = 300
        db.session.commit()
    profile = ok(client.post(f"{B}/StabilityProfile/insert", json=profile_body(mktLimit=None), headers=shipper))
    ok(
        client.put(
            f"{B}/WaybillBudget/assign", json={"waybillId": waybill["id"], "profileId": profile["id"]}, headers=shipper
        )
    )
    with app.app_context():
        assignment_id = db.session.scalar(select(WaybillBudget.id).where(WaybillBudget.waybill_id == waybill["id"]))
    drop_budget_jobs(app)
    send_minutes(client, trackers["gt_a"], start, [(0, 30.0)])
    assert budget_jobs(app) == [f"budget-waybill-{assignment_id}"]
    drop_budget_jobs(app)
    with app.app_context():
        assert check_waybill_budget(assignment_id) == 0  # 10 min of 6 h: far below 80 %
        assert db.session.get(WaybillBudget, assignment_id).alerted_at is None
    send_minutes(client, trackers["gt_a"], start, [(10, 5.0)])
    assert budget_jobs(app) == [f"budget-waybill-{assignment_id}"], "still armed: checked again on the next upload"
    drop_budget_jobs(app)
