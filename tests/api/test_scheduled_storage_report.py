"""Issue 47: a scheduled report can target a storage as it can devices: checked as the on-demand
storage report (the storage area's gate rule), generated through the same storage report kind, and
delivered (download centre, email with the file, SMS) as a device schedule is."""

from __future__ import annotations

from datetime import timedelta

import pytest

from api.extensions.db import utcnow
from tests.api import account_helpers, report_helpers
from tests.api.device_helpers import add, guids, owner, stranger
from tests.api.report_helpers import REPORT, files, pdf_text
from tests.api.test_storage import create, ok, room

__all__ = ["guids", "owner", "room", "stranger"]
providers, files_dir = account_helpers.providers, report_helpers.files_dir

RECEIVERS = [{"name": "QA", "email": "qa@example.com"}, {"name": "Ops", "phone": "13800138000"}]


def schedule(client, headers, **changes):
    body = {
        "reportName": "Room daily",
        "reportType": "storage",
        "frequency": "daily",
        "receivers": RECEIVERS,
        "nextReportTime": (utcnow() + timedelta(hours=1)).isoformat(),
        **changes,
    }
    return client.post(f"{REPORT}/ScheduledReport/insert", json=body, headers=headers)


def errors(response) -> dict:
    body = response.get_json()
    assert response.status_code == 422 and body["code"] == 422, body
    return body["data"]["errors"]


def test_storage_is_a_scheduled_report_type(client, owner):
    kinds = ok(client.get(f"{REPORT}/ScheduledReport/kinds", headers={**owner, "Accept-Language": "en-US"}))
    assert {"key": "storage", "label": "Storage report"} in kinds


def test_a_storage_schedule_runs_the_storage_report_and_delivers_it(
    app, client, owner, room, files_dir, run_jobs, providers, monkeypatch
):
    from api.report import jobs

    inbox, sms = providers
    storage = create(client, owner, room["guid"])
    en = {**owner, "Accept-Language": "en-US"}
    first_run = utcnow() + timedelta(hours=1)
    created = ok(schedule(client, en, storageId=storage["id"], nextReportTime=first_run.isoformat()))
    assert created["reportType"] == "storage" and created["storageId"] == storage["id"]
    assert created["deviceIds"] == []
    listed = ok(client.post(f"{REPORT}/ScheduledReport/page", json={}, headers=owner))["list"]
    assert [(r["id"], r["storageId"]) for r in listed] == [(created["id"], storage["id"])]

    clock = [first_run - timedelta(minutes=1)]  # the job's clock, injected
    monkeypatch.setattr(jobs, "utcnow", lambda: clock[0])
    with app.app_context():
        assert jobs.run_due_reports() == []  # not due yet
        clock[0] = first_run + timedelta(minutes=1)
        assert len(jobs.run_due_reports()) == 1
        assert jobs.run_due_reports() == []  # moved on to the next day
    run_jobs()
    row = files(client, owner)[0]
    assert row["status"] == "generated", row
    assert row["scheduledReportId"] == created["id"] and row["fileType"] == "pdf"
    assert row["fileName"].startswith("Room daily_Cold Room A_")
    response = client.get(f"{REPORT}/ExportFile/download/{row['id']}", headers=owner)
    text = pdf_text(response.data)
    # The storage report kind's own sections: the storage, its MKT, its probes in their zones.
    assert "Storage report Cold Room A" in text and "MKT of the storage" in text and "Evaporator" in text
    assert "Logger 1" not in text  # not in this storage

    run_jobs()  # the outbox
    mails = [m for m in inbox.messages if m["To"] == "qa@example.com"]
    assert len(mails) == 1
    attachments = [part for part in mails[0].walk() if part.get_content_disposition() == "attachment"]
    assert [a.get_filename() for a in attachments] == [row["fileName"]]
    assert attachments[0].get_payload(decode=True).startswith(b"%PDF")
    assert any("Room daily" in text for text in sms.texts_to("+8613800138000"))
    page = ok(client.post(f"{REPORT}/ScheduledReport/page", json={}, headers=owner))["list"][0]
    assert page["lastFileId"] == row["id"]


def test_a_storage_schedule_sent_now_goes_through_the_storage_kind(app, client, owner, room, files_dir, run_jobs):
    storage = create(client, owner, room["guid"])
    created = ok(schedule(client, owner, storageId=storage["id"], fileType="csv"))
    queued = ok(client.post(f"{REPORT}/ScheduledReport/sendNow/{created['id']}", headers=owner))
    run_jobs()
    row = next(r for r in files(client, owner) if r["id"] == queued["id"])
    assert row["status"] == "generated", row
    with app.app_context():
        from api.extensions.db import db
        from api.report.models import ExportFile

        export = db.session.get(ExportFile, queued["id"])
        assert export.kind == "storage" and export.params["storageId"] == storage["id"]
        assert export.params["probes"] == {str(room["controller"]): [1, 2, 3, 4]}


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({}, "storageId"),  # a storage report names its storage
        ({"storageId": None}, "storageId"),
        ({"storageId": 0}, "storageId"),
        ({"storageId": "one"}, "storageId"),
        ({"reportType": "device"}, "deviceIds"),  # a device report its devices
        ({"reportType": "nonsense"}, "reportType"),
    ],
)
def test_a_bad_storage_schedule_is_422_naming_the_field(client, owner, changes, field):
    assert field in errors(schedule(client, owner, **changes))


def test_the_field_error_is_in_the_callers_language(client, owner):
    zh = errors(schedule(client, {**owner, "Accept-Language": "zh-CN"}))
    en = errors(schedule(client, {**owner, "Accept-Language": "en-US"}))
    assert en["storageId"] == ["Choose a storage."] and zh["storageId"] == ["请选择冷库。"]


def test_nobody_else_schedules_my_storage(client, owner, stranger, room, guids, files_dir):
    storage = create(client, owner, room["guid"])
    refused = schedule(client, stranger, storageId=storage["id"])
    # The access gate's refusal (as if it did not exist), before the schedule's own check (which names the field).
    assert refused.status_code == 404 and refused.get_json()["code"] == 404 and refused.get_json()["data"] is None
    assert ok(client.post(f"{REPORT}/ScheduledReport/page", json={}, headers=stranger))["total"] == 0
    # Nor by changing a schedule of its own (the storage area's rule, behind the schedule's gate).
    device_id = add(client, stranger, guids["th_b"][0])
    own = ok(schedule(client, stranger, reportType="device", deviceIds=[device_id]))
    update = {**own, "reportType": "storage", "storageId": storage["id"]}
    update = {k: update[k] for k in ("id", "reportName", "reportType", "frequency", "receivers", "storageId")}
    changed = client.put(
        f"{REPORT}/ScheduledReport/update",
        json={**update, "nextReportTime": own["nextReportTime"]},
        headers=stranger,
    )
    assert changed.status_code == 404 and "storageId" in changed.get_json()["data"]["errors"]
    missing = schedule(client, owner, storageId=storage["id"] + 1000)
    assert missing.status_code == 404


def test_deleting_a_storage_removes_its_schedules(client, owner, room):
    storage = create(client, owner, room["guid"])
    ok(schedule(client, owner, storageId=storage["id"]))
    ok(client.delete(f"/api/storage/ColdStorage/delete/{storage['id']}", headers=owner))
    assert ok(client.post(f"{REPORT}/ScheduledReport/page", json={}, headers=owner))["total"] == 0


def test_another_sites_account_cannot_schedule_my_storage(app, make_client, client, owner, room):
    from api.identity.models import StaffRole
    from tests.api.account_helpers import auth, login, make_account

    storage = create(client, owner, room["guid"])
    make_account(app, host="junjia.localhost", user_name="reseller", staff_role=StaffRole.PLATFORM_ADMIN)
    junjia = make_client(host="junjia.localhost")
    reseller = auth(login(junjia, "reseller"))
    refused = schedule(junjia, reseller, storageId=storage["id"])
    assert refused.status_code == 404 and refused.get_json()["data"] is None  # the gate: not in that site's data space
    assert ok(junjia.post(f"{REPORT}/ScheduledReport/page", json={}, headers=reseller))["total"] == 0
