"""A deleted device's GUID lives on (issue 47): its owner or another account can add it again, uploads
are accepted again, the paid service stays with the GUID, the old record keeps its readings with the
old owner, and the operator's fleet list shows the GUID's state all along. Adding a GUID already in the
account says so."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import func, select, update

from api.device.models import Device
from api.extensions.db import db, utcnow
from api.telemetry.models import Reading
from tests.api.account_helpers import auth, login, make_account
from tests.api.alarm.helpers import record
from tests.api.customization_helpers import staff
from tests.api.device_helpers import DEVICE, add, guids, upload

__all__ = ["guids"]

FLEET = "/api/product/FleetDevice/page"


def _add(client, headers, guid, name="Again"):
    return client.post(
        f"{DEVICE}/Device/add", json={"deviceGuid": guid, "deviceName": name, "timeZone": "UTC"}, headers=headers
    ).get_json()


def _fleet_row(client, headers, guid):
    body = client.post(FLEET, json={"start": 1, "pageSize": 50, "keyword": guid}, headers=headers).get_json()
    assert body["code"] == 0, body
    return body["data"]["list"]


def _readings(app, device_id):
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(Reading).where(Reading.device_id == device_id))


def test_a_deleted_guid_is_added_again_by_another_account_with_its_service(app, make_client, guids):
    (operator, op), _reseller, (user, us) = staff(app, make_client, lang="en-US")
    make_account(app, user_name="stranger_1")
    other = make_client(lang="en-US")
    them = auth(login(other, "stranger_1"))
    guid, key = guids["th_a"]
    first = add(user, us, guid, name="Old Fridge")
    paid_until = utcnow() + timedelta(days=900)
    with app.app_context():  # a paid service of two and a half years
        db.session.execute(update(Device).where(Device.id == first).values(service_expires_at=paid_until))
        db.session.commit()
    assert upload(user, guid, key, [record(3, 4.0)]).status_code == 200
    assert user.delete(f"{DEVICE}/Device/delete/{first}", headers=us).get_json()["code"] == 0

    # Deleted and not added again: uploads refused, the fleet list shows the GUID as deleted.
    assert upload(user, guid, key, [record(2, 4.0)]).status_code == 403
    [row] = _fleet_row(operator, op, guid)
    assert (row["id"], row["deleted"], row["ownerName"]) == (first, True, "demouser")

    answer = _add(other, them, guid)
    assert answer["code"] == 0, answer
    second = answer["data"]["id"]
    assert second != first
    assert answer["data"]["serviceExpiredDate"] is not None
    with app.app_context():
        new = db.session.get(Device, second)
        assert abs((new.service_expires_at - paid_until).total_seconds()) < 1  # the service stayed with the GUID
        assert db.session.get(Device, first).deleted is True

    # Uploads work again, for the new record; the old readings stay with the old (deleted) record.
    assert upload(other, guid, key, [record(1, 5.0)]).status_code == 200
    assert (_readings(app, first), _readings(app, second)) == (2, 2)  # two sensors each
    [row] = _fleet_row(operator, op, guid)
    assert (row["id"], row["deleted"], row["ownerName"]) == (second, False, "stranger_1")
    # The old owner sees nothing of it; the new owner cannot add it twice.
    assert (
        user.post(f"{DEVICE}/Device/page", json={"start": 1, "pageSize": 10}, headers=us).get_json()["data"]["total"]
        == 0
    )
    again = _add(other, them, guid)
    assert (again["code"], again["msg"]) == (3005, "This device is already in your account.")


def test_the_owner_adds_its_deleted_device_again_and_a_live_one_says_already_added(app, make_client, guids):
    make_account(app, user_name="demouser")
    client = make_client(lang="en-US")
    headers = auth(login(client, "demouser"))
    guid, key = guids["th_b"]
    device_id = add(client, headers, guid)
    already = _add(client, headers, guid)
    assert (already["code"], already["msg"]) == (3005, "This device is already in your account.")
    zh = make_client().post(
        f"{DEVICE}/Device/add", json={"deviceGuid": guid, "deviceName": "X", "timeZone": "UTC"}, headers=headers
    )
    assert zh.get_json()["code"] == 3005 and zh.get_json()["msg"] != already["msg"]  # translated

    for _ in range(2):  # deleted and added again, twice: each time a fresh record, uploads accepted
        assert client.delete(f"{DEVICE}/Device/delete/{device_id}", headers=headers).get_json()["code"] == 0
        answer = _add(client, headers, guid)
        assert answer["code"] == 0, answer
        device_id = answer["data"]["id"]
        assert upload(client, guid, key, [record(1, 5.0)]).status_code == 200
    with app.app_context():
        assert db.session.scalar(select(func.count()).where(Device.guid == guid, Device.deleted.is_(False))) == 1


def test_a_scrapped_then_deleted_device_cannot_be_added_again(app, make_client, guids):
    make_account(app, user_name="demouser")
    client = make_client(lang="en-US")
    headers = auth(login(client, "demouser"))
    guid, _key = guids["th_a"]
    device_id = add(client, headers, guid)
    assert client.put(f"{DEVICE}/Device/scrap/{device_id}", headers=headers).get_json()["code"] == 0
    assert client.delete(f"{DEVICE}/Device/delete/{device_id}", headers=headers).get_json()["code"] == 0
    assert _add(client, headers, guid)["code"] == 3001
