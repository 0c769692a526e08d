"""The data API: a key reads its own account's devices only, is rate limited, revocable and
records its last use; the operator manages the keys (business-domain section 2, /operation/dataApi)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select

from api.alarm.models import Alarm, AlarmKind, AlarmStatus
from api.device.models import Device
from api.extensions.db import db
from api.identity.models import StaffRole
from api.product.models import DataApiKey
from tests.api.account_helpers import auth, login, make_account
from tests.api.device_helpers import add, guids, minutes_ago, upload  # noqa: F401 - guids is a fixture

KEYS = "/api/product/DataApiKey"
OPEN = "/api/open/v1"


@pytest.fixture
def two_accounts(app, client, guids):  # noqa: F811
    """Account A owns th_a (with readings and an alarm), account B owns th_b."""
    ids = {name: make_account(app, user_name=name) for name in ("account_a", "account_b")}
    make_account(app, user_name="operator", staff_role=StaffRole.OPERATOR)
    a, b = auth(login(client, "account_a")), auth(login(client, "account_b"))
    add(client, a, guids["th_a"][0], name="Fridge A")
    device_b = add(client, b, guids["th_b"][0], name="Fridge B")
    for guid, key in (guids["th_a"], guids["th_b"]):
        upload(client, guid, key, [{"ts": minutes_ago(m), "readings": {"1": 4.0 + m / 10}} for m in (3, 2, 1)])
    with app.app_context():
        for guid in (guids["th_a"][0], guids["th_b"][0]):
            device = db.session.scalar(select(Device).where(Device.guid == guid))
            started = datetime.now(UTC) - timedelta(minutes=30)
            db.session.add(
                Alarm(
                    platform_id=device.platform_id,
                    owner_account_id=device.owner_account_id,
                    device_id=device.id,
                    kind=AlarmKind.UPPER,
                    sensor=1,
                    status=AlarmStatus.OPEN,
                    breach_started_at=started,
                    opened_at=started,
                    last_seen_at=started,
                    limit_value=8.0,
                )
            )
        db.session.commit()
    operator = auth(login(client, "operator"))
    return {"ids": ids, "operator": operator, "a": a, "device_b": device_b}


def new_key(client, operator, account_id, **extra):
    answer = client.post(f"{KEYS}/insert", headers=operator, json={"accountId": account_id, "name": "ERP", **extra})
    assert answer.status_code == 200, answer.get_json()
    return answer.get_json()["data"]


def window() -> dict:
    now = datetime.now(UTC)
    return {"startTime": (now - timedelta(hours=1)).isoformat(), "endTime": (now + timedelta(minutes=1)).isoformat()}


def test_a_key_reads_its_accounts_latest_values_readings_and_alarms(app, client, guids, two_accounts):  # noqa: F811
    created = new_key(client, two_accounts["operator"], two_accounts["ids"]["account_a"])
    assert created["secret"].startswith("cc_") and created["keyPrefix"] == created["secret"][:10]
    headers = {"X-Api-Key": created["secret"]}
    latest = client.get(f"{OPEN}/devices/latest", headers=headers).get_json()["data"]
    assert [d["deviceGuid"] for d in latest["list"]] == [guids["th_a"][0]]
    assert latest["list"][0]["values"]["1"] == pytest.approx(4.1)
    readings = client.get(
        f"{OPEN}/readings", headers=headers, query_string={"deviceGuid": guids["th_a"][0], **window()}
    )
    assert [r["value"] for r in readings.get_json()["data"]["list"]] == pytest.approx([4.3, 4.2, 4.1])
    alarms = client.get(f"{OPEN}/alarms", headers=headers, query_string=window()).get_json()["data"]
    assert [(a["deviceGuid"], a["kind"]) for a in alarms["list"]] == [(guids["th_a"][0], "upper")]
    listed = client.post(f"{KEYS}/page", headers=two_accounts["operator"], json={}).get_json()["data"]["list"]
    assert listed[0]["lastUsedTime"] is not None and "secret" not in listed[0]


def test_a_key_of_account_a_gets_nothing_of_account_b(app, client, guids, two_accounts):  # noqa: F811
    headers = {"X-Api-Key": new_key(client, two_accounts["operator"], two_accounts["ids"]["account_a"])["secret"]}
    other = client.get(f"{OPEN}/readings", headers=headers, query_string={"deviceGuid": guids["th_b"][0], **window()})
    assert other.status_code == 404 and guids["th_b"][0] not in other.get_data(as_text=True)
    alarms = client.get(f"{OPEN}/alarms", headers=headers, query_string={"deviceGuid": guids["th_b"][0], **window()})
    assert alarms.status_code == 404
    everything = client.get(f"{OPEN}/alarms", headers=headers, query_string=window()).get_json()["data"]["list"]
    assert {a["deviceGuid"] for a in everything} == {guids["th_a"][0]}
    # A session token is no key, and a key is no session.
    assert client.get(f"{OPEN}/devices/latest", headers=two_accounts["a"]).status_code == 401
    assert (
        client.post(
            "/api/device/Device/page", headers={"Authorization": f"Bearer {headers['X-Api-Key']}"}, json={}
        ).status_code
        == 401
    )


def test_revoked_and_unknown_keys_are_refused(app, client, two_accounts):
    created = new_key(client, two_accounts["operator"], two_accounts["ids"]["account_a"])
    headers = {"X-Api-Key": created["secret"]}
    assert client.get(f"{OPEN}/devices/latest", headers=headers).status_code == 200
    assert client.put(f"{KEYS}/revoke/{created['id']}", headers=two_accounts["operator"]).status_code == 200
    assert client.get(f"{OPEN}/devices/latest", headers=headers).status_code == 401
    assert client.get(f"{OPEN}/devices/latest", headers={"X-Api-Key": "cc_guess"}).status_code == 401
    assert client.get(f"{OPEN}/devices/latest").status_code == 401


def test_a_key_is_rate_limited_per_minute(app, client, two_accounts):
    created = new_key(client, two_accounts["operator"], two_accounts["ids"]["account_a"], ratePerMinute=3)
    headers = {"X-Api-Key": created["secret"]}
    answers = [client.get(f"{OPEN}/devices/latest", headers=headers).status_code for _ in range(4)]
    assert answers[:3] == [200, 200, 200] and answers[3] == 429


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"accountId": 999999, "name": "ERP"}, "accountId"),
        ({"name": "x" * 51}, "name"),
        ({"name": "ERP", "ratePerMinute": 0}, "ratePerMinute"),
    ],
)
def test_bad_key_input_names_the_field_and_stores_nothing(app, client, two_accounts, body, field):
    body = {"accountId": two_accounts["ids"]["account_a"], **body}
    answer = client.post(f"{KEYS}/insert", headers=two_accounts["operator"], json=body)
    assert answer.status_code == 422 and field in answer.get_json()["data"]["errors"]
    with app.app_context():
        assert db.session.scalar(select(DataApiKey.id)) is None


def test_ranges_are_checked_and_only_the_operator_manages_keys(app, client, guids, two_accounts):  # noqa: F811
    headers = {"X-Api-Key": new_key(client, two_accounts["operator"], two_accounts["ids"]["account_a"])["secret"]}
    now = datetime.now(UTC)
    backwards = {"startTime": now.isoformat(), "endTime": (now - timedelta(hours=1)).isoformat()}
    too_long = {"startTime": (now - timedelta(days=40)).isoformat(), "endTime": now.isoformat()}
    for query in (backwards, too_long):
        answer = client.get(f"{OPEN}/alarms", headers=headers, query_string=query)
        assert answer.status_code == 422 and "endTime" in answer.get_json()["data"]["errors"]
    assert client.post(f"{KEYS}/page", headers=two_accounts["a"], json={}).status_code == 403
