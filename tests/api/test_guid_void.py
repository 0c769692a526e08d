"""GUID issuance at its limit and voiding unused GUIDs (issue 47): a batch of 1,000 is refused with a
message naming the field (never silently cut to 999), 999 issues exactly 999 distinct GUIDs, and the
operator voids unused GUIDs with a reason: all or none, audited, never added, uploads refused."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from api.audit.models import OperationLog
from api.device.catalogue import sync_catalogue
from api.device.credentials import device_secret
from api.device.models import Device, GuidBatch
from api.extensions.db import db
from api.tenancy import find_platform
from tests.api.customization_helpers import staff
from tests.api.device_helpers import DEVICE, upload
from tests.api.product_helpers import PRODUCT

BATCH = f"{PRODUCT}/GuidBatch"


@pytest.fixture
def people(app, make_client):
    with app.app_context():
        types = sync_catalogue()
        db.session.commit()
        ids = {"type": types[0x8002].id, "domain": find_platform("localhost").id}
    return staff(app, make_client, lang="en-US"), ids


def batch(ids, **overrides) -> dict:
    return {"orderCode": "PO-VOID", "num": 3, "deviceTypeId": ids["type"], "domainId": ids["domain"]} | overrides


def issued(app) -> tuple[int, int, int]:
    with app.app_context():
        return (
            db.session.scalar(select(func.count()).select_from(GuidBatch)),
            db.session.scalar(select(func.count()).select_from(Device)),
            db.session.scalar(select(func.count(func.distinct(Device.guid)))),
        )


def test_a_batch_over_the_limit_is_refused_and_the_limit_issues_exactly_that_many(app, people):
    ((operator, op), _, _), ids = people
    refused = operator.post(f"{BATCH}/insert", headers=op, json=batch(ids, num=1000)).get_json()
    assert refused["code"] == 422 and "num" in refused["data"]["errors"]
    assert issued(app) == (0, 0, 0)
    row = operator.post(f"{BATCH}/insert", headers=op, json=batch(ids, num=999)).get_json()["data"]
    assert row["num"] == 999
    assert issued(app) == (1, 999, 999)
    listed = operator.post(f"{BATCH}/guids", headers=op, json={"batchId": row["id"], "pageSize": 1}).get_json()
    assert listed["data"]["total"] == 999


def test_the_operator_voids_unused_guids_with_a_reason_all_or_none(app, people):
    ((operator, op), _, (user, us)), ids = people
    row = operator.post(f"{BATCH}/insert", headers=op, json=batch(ids)).get_json()["data"]
    guids = [
        g["deviceGuid"]
        for g in operator.post(f"{BATCH}/guids", headers=op, json={"batchId": row["id"]}).get_json()["data"]["list"]
    ]
    used, spare, lost = guids
    added = user.post(
        f"{DEVICE}/Device/add", json={"deviceGuid": used, "deviceName": "Mine", "timeZone": "UTC"}, headers=us
    ).get_json()
    assert added["code"] == 0, added

    # A GUID in use (or never issued) refuses the whole request, naming the GUID; nothing is voided.
    for bad, words in (([lost, used], "in use"), ([lost, "1234567"], "not issued")):
        answer = operator.post(f"{BATCH}/void", headers=op, json={"guids": bad, "reason": "misprint"}).get_json()
        assert answer["code"] == 422 and words in answer["data"]["errors"]["guids"][0], answer
    missing = operator.post(f"{BATCH}/void", headers=op, json={"guids": [lost]}).get_json()
    assert missing["code"] == 422 and "reason" in missing["data"]["errors"]
    assert user.post(f"{BATCH}/void", headers=us, json={"guids": [lost], "reason": "x"}).status_code == 403

    answer = operator.post(f"{BATCH}/void", headers=op, json={"guids": [lost], "reason": "carton lost"}).get_json()
    assert answer["code"] == 0, answer
    assert [(g["deviceGuid"], g["voided"], g["voidReason"]) for g in answer["data"]] == [(lost, True, "carton lost")]
    again = operator.post(f"{BATCH}/void", headers=op, json={"guids": [lost], "reason": "twice"}).get_json()
    assert again["code"] == 422 and "voided already" in again["data"]["errors"]["guids"][0]
    with app.app_context():
        entry = db.session.scalar(select(OperationLog).where(OperationLog.path == f"{BATCH}/void"))
        assert entry.reason == "carton lost" and entry.user_name == "operator"

    # A voided GUID cannot be added and uploads nothing; the spare one still can be added.
    refused = user.post(
        f"{DEVICE}/Device/add", json={"deviceGuid": lost, "deviceName": "Lost", "timeZone": "UTC"}, headers=us
    ).get_json()
    assert refused["code"] == 3001
    with app.app_context():
        key = device_secret(lost)
    assert upload(user, lost, key, [{"ts": 1, "readings": {"1": 4.0}}]).status_code == 403
    listed = operator.post(f"{BATCH}/guids", headers=op, json={"batchId": row["id"]}).get_json()["data"]["list"]
    assert {g["deviceGuid"]: g["voided"] for g in listed} == {used: False, spare: False, lost: True}
    fleet = operator.post(f"{PRODUCT}/FleetDevice/page", headers=op, json={"keyword": lost}).get_json()["data"]
    assert [r["voided"] for r in fleet["list"]] == [True]
