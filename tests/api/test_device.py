"""Device registry: adding by GUID, editing, states, lists, counts, expiry, cross-account probes."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select, update

from api.device.models import Device
from api.extensions.db import db, utcnow
from tests.api.device_helpers import DEVICE, add, guids, minutes_ago, owner, stranger, upload

__all__ = ["guids", "owner", "stranger"]


def page(client, headers, **filters):
    body = client.post(f"{DEVICE}/Device/page", json={"start": 1, "pageSize": 10, **filters}, headers=headers)
    return body.get_json()["data"]


class TestAdd:
    def test_add_by_complete_guid(self, client, owner, guids):
        device_id = add(client, owner, guids["th_a"][0], name="Fridge A", remark="ward 3")
        listed = page(client, owner)
        assert listed["total"] == 1
        item = listed["list"][0]
        assert (item["id"], item["deviceName"], item["status"], item["remark"]) == (
            device_id,
            "Fridge A",
            "not_enabled",
            "ward 3",
        )
        assert item["typeName"].startswith("TH-2") and item["deviceTypeCode"] == "8002"
        assert item["serviceExpiredDate"] is not None

    @pytest.mark.parametrize("guid", ["999999", "3277", "32770000000"])
    def test_unknown_or_partial_guid_is_not_found(self, make_client, owner, guids, guid):
        body = (
            make_client(lang="en-US")
            .post(
                f"{DEVICE}/Device/add", json={"deviceGuid": guid, "deviceName": "X", "timeZone": "UTC"}, headers=owner
            )
            .get_json()
        )
        assert body["msg"] == "The device cannot be found, please confirm and re-enter"

    def test_claimed_guid_is_not_found_for_another_account(self, make_client, owner, stranger, guids):
        add(make_client(), owner, guids["th_a"][0])
        body = (
            make_client(lang="en-US")
            .post(
                f"{DEVICE}/Device/add",
                json={"deviceGuid": guids["th_a"][0], "deviceName": "Mine", "timeZone": "UTC"},
                headers=stranger,
            )
            .get_json()
        )
        assert body["msg"] == "The device cannot be found, please confirm and re-enter"

    def test_guid_of_another_platform_is_not_found(self, make_client, owner, guids):
        body = (
            make_client(lang="en-US")
            .post(
                f"{DEVICE}/Device/add",
                json={"deviceGuid": guids["junjia_th"][0], "deviceName": "X", "timeZone": "UTC"},
                headers=owner,
            )
            .get_json()
        )
        assert body["code"] == 3001

    @pytest.mark.parametrize(
        ("payload", "field"),
        [
            ({"deviceGuid": "12ab", "deviceName": "X", "timeZone": "UTC"}, "deviceGuid"),
            ({"deviceGuid": "1" * 21, "deviceName": "X", "timeZone": "UTC"}, "deviceGuid"),
            ({"deviceGuid": "1", "deviceName": "", "timeZone": "UTC"}, "deviceName"),
            ({"deviceGuid": "1", "deviceName": "x" * 16, "timeZone": "UTC"}, "deviceName"),
            ({"deviceGuid": "1", "deviceName": "X"}, "timeZone"),
            ({"deviceGuid": "1", "deviceName": "X", "timeZone": "Mars/Base"}, "timeZone"),
            ({"deviceGuid": "1", "deviceName": "X", "timeZone": "UTC", "remark": "r" * 121}, "remark"),
        ],
    )
    def test_validation(self, client, owner, payload, field):
        body = client.post(f"{DEVICE}/Device/add", json=payload, headers=owner).get_json()
        assert body["code"] == 422 and field in body["data"]["errors"]


class TestLifecycle:
    def test_edit_enable_disable_scrap_delete_and_the_log(self, client, owner, guids):
        guid, key = guids["th_a"]
        device_id = add(client, owner, guid)
        assert (
            client.put(
                f"{DEVICE}/Device/update", json={"deviceId": device_id, "deviceName": "Renamed"}, headers=owner
            ).get_json()["data"]["deviceName"]
            == "Renamed"
        )
        assert (
            client.put(f"{DEVICE}/Device/stopUsing/{device_id}", headers=owner).get_json()["data"]["status"]
            == "disabled"
        )
        refused = upload(client, guid, key, [{"ts": minutes_ago(1), "readings": {"1": 4.0}}])
        assert (refused.status_code == 403 and "disabled" in refused.get_json()["msg"].lower()) or refused.get_json()[
            "code"
        ] == 3004
        assert client.put(f"{DEVICE}/Device/enable/{device_id}", headers=owner).get_json()["code"] == 0
        assert upload(client, guid, key, [{"ts": minutes_ago(1), "readings": {"1": 4.0}}]).status_code == 200
        assert (
            client.put(f"{DEVICE}/Device/scrap/{device_id}", headers=owner).get_json()["data"]["status"]
            == "deactivated"
        )
        assert client.put(f"{DEVICE}/Device/enable/{device_id}", headers=owner).get_json()["code"] == 3003
        assert upload(client, guid, key, [{"ts": minutes_ago(0.5), "readings": {"1": 4.0}}]).status_code == 403
        events = client.get(f"{DEVICE}/DeviceEvent/list?deviceId={device_id}", headers=owner).get_json()["data"]
        assert [e["action"] for e in events] == ["scrap", "enable", "stopUsing", "edit", "add"]
        # Issue 47: the log says who acted (the owner did every step here).
        actors = {e["actorName"] for e in events}
        assert len(actors) == 1 and next(iter(actors)), actors
        assert client.delete(f"{DEVICE}/Device/delete/{device_id}", headers=owner).get_json()["code"] == 0
        assert page(client, owner)["total"] == 0

    def test_batch_actions_answer_per_device(self, client, owner, stranger, guids):
        mine = add(client, owner, guids["th_a"][0], name="First")
        other = add(client, owner, guids["th_b"][0], name="Second")
        theirs = add(client, stranger, guids["cold_room"][0], name="Theirs")
        client.put(f"{DEVICE}/Device/scrap/{other}", headers=owner)
        body = client.post(
            f"{DEVICE}/Device/batch", json={"action": "stopUsing", "deviceIds": [mine, other, theirs]}, headers=owner
        ).get_json()
        assert body["code"] == 0
        results = {r["deviceId"]: r for r in body["data"]}
        assert list(results) == [mine, other, theirs]
        assert results[mine] == {"deviceId": mine, "ok": True, "msg": None}
        assert results[other]["ok"] is False and results[other]["msg"]
        assert results[theirs]["ok"] is False
        statuses = {d["deviceName"]: d["status"] for d in page(client, owner)["list"]}
        assert statuses == {"First": "disabled", "Second": "deactivated"}
        assert page(client, stranger)["list"][0]["useFlag"] is True  # the other account's device is untouched
        pinned = client.post(f"{DEVICE}/Device/batch", json={"action": "pin", "deviceIds": [other]}, headers=owner)
        assert pinned.get_json()["data"][0]["ok"] is True
        assert [d["deviceName"] for d in page(client, owner)["list"]] == ["Second", "First"]

    @pytest.mark.parametrize(
        "payload,field",
        [({"action": "explode", "deviceIds": [1]}, "action"), ({"action": "pin", "deviceIds": []}, "deviceIds")],
    )
    def test_batch_validation(self, client, owner, payload, field):
        body = client.post(f"{DEVICE}/Device/batch", json=payload, headers=owner).get_json()
        assert body["code"] == 422 and field in body["data"]["errors"]

    def test_list_items_name_their_values_units(self, client, owner, guids):
        add(client, owner, guids["th_a"][0], name="Fridge")
        sensors = page(client, owner)["list"][0]["sensors"]
        assert [(s["probeId"], s["unit"]) for s in sensors] == [(1, "°C"), (2, "%RH")]

    def test_a_catalogue_change_relabels_the_list_at_once(self, app, client, owner, guids):
        """Labels come from a per-process snapshot of the catalogue, cleared by any catalogue write."""
        from api.device.models import DeviceParam, ParamUnit

        add(client, owner, guids["th_a"][0], name="Fridge")
        assert page(client, owner)["list"][0]["sensors"][0]["paramName"] != "Core temperature"
        with app.app_context():
            # By its GUID: the other issued GUIDs are devices too (of other types), in no set order.
            device = db.session.scalar(select(Device).where(Device.guid == guids["th_a"][0]))
            param = next(p for p in device.device_type.params if p.probe_id == 1)
            param.param_name = "Core temperature"
            db.session.commit()
        assert page(client, owner)["list"][0]["sensors"][0]["paramName"] == "Core temperature"
        with app.app_context():
            db.session.scalar(select(ParamUnit).where(ParamUnit.unit_name == "°C")).unit_name = "degC"
            db.session.commit()
        assert page(client, owner)["list"][0]["sensors"][0]["unit"] == "degC"
        with app.app_context():  # a bulk UPDATE never reaches after_flush: it clears the labels too
            db.session.execute(update(DeviceParam).where(DeviceParam.probe_id == 1).values(param_name="Probe 1"))
            db.session.commit()
        assert page(client, owner)["list"][0]["sensors"][0]["paramName"] == "探头 1"  # a catalogue name, in zh-CN

    def test_focus_pins_to_the_top(self, client, owner, guids):
        first = add(client, owner, guids["th_a"][0], name="First")
        add(client, owner, guids["th_b"][0], name="Second")
        assert [d["deviceName"] for d in page(client, owner)["list"]] == ["Second", "First"]
        client.put(f"{DEVICE}/Device/focus/{first}", json={"focus": True}, headers=owner)
        assert [d["deviceName"] for d in page(client, owner)["list"]] == ["First", "Second"]

    def test_after_service_expiry_upload_continues_but_management_is_refused(self, app, make_client, owner, guids):
        client = make_client(lang="en-US")
        guid, key = guids["th_a"]
        device_id = add(client, owner, guid)
        with app.app_context():
            db.session.scalar(select(Device).where(Device.id == device_id)).service_expires_at = utcnow() - timedelta(
                days=10
            )
            db.session.commit()
        assert upload(client, guid, key, [{"ts": minutes_ago(1), "readings": {"1": 4.0}}]).status_code == 200
        body = client.put(
            f"{DEVICE}/Device/update", json={"deviceId": device_id, "deviceName": "X"}, headers=owner
        ).get_json()
        assert body["msg"] == "The service of this device has expired; renew it to manage the device."
        assert page(client, owner, status="expired")["total"] == 1
        with app.app_context():
            db.session.scalar(select(Device).where(Device.id == device_id)).service_expires_at = utcnow() - timedelta(
                days=100
            )
            db.session.commit()
        assert upload(client, guid, key, [{"ts": minutes_ago(0.5), "readings": {"1": 4.0}}]).status_code == 403


class TestStatesAndLists:
    def test_states_come_from_the_state_table(self, app, client, owner, guids):
        online = add(client, owner, guids["th_a"][0], name="Online")
        offline = add(client, owner, guids["th_b"][0], name="Offline")
        add(client, owner, guids["cold_room"][0], name="Silent")
        upload(client, *guids["th_a"], [{"ts": minutes_ago(1), "readings": {"1": 4.0, "2": 50}}])
        upload(client, *guids["th_b"], [{"ts": minutes_ago(60), "readings": {"1": 4.0, "2": 50}}])
        statuses = {d["deviceName"]: d["status"] for d in page(client, owner)["list"]}
        assert statuses == {"Online": "online", "Offline": "offline", "Silent": "not_enabled"}
        counts = client.get(f"{DEVICE}/Device/statusCount", headers=owner).get_json()["data"]
        assert (counts["all"], counts["online"], counts["offline"], counts["notEnabled"]) == (3, 1, 1, 1)
        assert [d["id"] for d in page(client, owner, status="online")["list"]] == [online]
        assert [d["id"] for d in page(client, owner, status="offline")["list"]] == [offline]

    def test_probe_fault_is_a_state(self, client, owner, guids):
        add(client, owner, guids["th_a"][0])
        upload(client, *guids["th_a"], [{"ts": minutes_ago(1), "readings": {"1": None, "2": 50}}])
        assert page(client, owner)["list"][0]["status"] == "fault"

    def test_filters(self, client, owner, guids):
        add(client, owner, guids["th_a"][0], name="Ward fridge")
        add(client, owner, guids["cold_room"][0], name="Cold room")
        assert [d["deviceName"] for d in page(client, owner, deviceName="ward")["list"]] == ["Ward fridge"]
        assert [d["deviceName"] for d in page(client, owner, category="cold_storage")["list"]] == ["Cold room"]
        assert page(client, owner, expiry="week")["total"] == 0
        body = client.post(f"{DEVICE}/Device/page", json={"status": "sleepy"}, headers=owner).get_json()
        assert body["code"] == 422 and "status" in body["data"]["errors"]


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/Device/detail/{id}"),
        ("put", "/Device/enable/{id}"),
        ("put", "/Device/stopUsing/{id}"),
        ("put", "/Device/scrap/{id}"),
        ("delete", "/Device/delete/{id}"),
        ("get", "/DeviceEvent/list?deviceId={id}"),
        ("get", "/DeviceCommand/list?deviceId={id}"),
        ("get", "/DeviceData/latest?deviceId={id}"),
        ("get", "/DeviceData/energy?deviceId={id}"),
        ("get", "/DeviceData/chart?deviceId={id}&start=2026-01-01T00:00:00Z&end=2026-01-02T00:00:00Z"),
        ("get", "/DeviceData/track?deviceId={id}&start=2026-01-01T00:00:00Z&end=2026-01-02T00:00:00Z"),
        ("get", "/DeviceData/conflicts?deviceId={id}&start=2026-01-01T00:00:00Z&end=2026-01-02T00:00:00Z"),
    ],
)
def test_cross_account_probe(app, client, owner, stranger, guids, method, path):
    """Another account (same site) gets 404 on every device call, and nothing changes."""
    device_id = add(client, owner, guids["th_a"][0], name="Mine")
    response = getattr(client, method)(f"{DEVICE}{path.format(id=device_id)}", headers=stranger)
    assert response.status_code == 404
    assert page(client, owner)["list"][0]["status"] == "not_enabled"
    assert page(client, stranger)["total"] == 0


def test_cross_account_probe_on_writes_with_bodies(client, owner, stranger, guids):
    device_id = add(client, owner, guids["th_a"][0], name="Mine")
    assert (
        client.put(
            f"{DEVICE}/Device/update", json={"deviceId": device_id, "deviceName": "Hacked"}, headers=stranger
        ).status_code
        == 404
    )
    assert client.put(f"{DEVICE}/Device/focus/{device_id}", json={"focus": True}, headers=stranger).status_code == 404
    assert (
        client.post(
            f"{DEVICE}/DeviceCommand/send", json={"deviceId": device_id, "params": {"0101": 5}}, headers=stranger
        ).status_code
        == 404
    )
    assert page(client, owner)["list"][0]["deviceName"] == "Mine"


def test_cross_tenant_probe(app, make_client, owner, guids):
    """The junjia site's admin cannot see or touch a device of the operator site."""
    from api.identity.models import StaffRole
    from tests.api.account_helpers import auth, login, make_account

    device_id = add(make_client(), owner, guids["th_a"][0], name="Mine")
    make_account(app, host="junjia.localhost", user_name="reseller", staff_role=StaffRole.PLATFORM_ADMIN)
    junjia = make_client(host="junjia.localhost")
    reseller = auth(login(junjia, "reseller"))
    assert junjia.get(f"{DEVICE}/Device/detail/{device_id}", headers=reseller).status_code == 404
    assert junjia.post(f"{DEVICE}/Device/page", json={}, headers=reseller).get_json()["data"]["total"] == 0


class TestMaintenanceRecords:
    RECORD = {
        "kind": "maintenance",
        "reportTime": "2026-11-01T09:00:00+08:00",
        "startTime": "2026-11-01T09:00:00+08:00",
        "endTime": "2026-11-01T11:00:00+08:00",
        "person": "Li Wei",
        "approver": "Zhang",
        "content": "Cleaned coils",
    }

    def test_add_list_update_delete(self, client, owner, guids):
        device_id = add(client, owner, guids["th_a"][0])
        created = client.post(
            f"{DEVICE}/MaintenanceRecord/insert", json={"deviceId": device_id, **self.RECORD}, headers=owner
        ).get_json()["data"]
        client.put(
            f"{DEVICE}/MaintenanceRecord/update",
            json={"deviceId": device_id, "id": created["id"], **self.RECORD, "result": "OK"},
            headers=owner,
        )
        listed = client.post(f"{DEVICE}/MaintenanceRecord/page", json={"deviceId": device_id}, headers=owner).get_json()
        assert listed["data"]["total"] == 1 and listed["data"]["list"][0]["result"] == "OK"
        assert (
            client.delete(f"{DEVICE}/MaintenanceRecord/delete/{created['id']}", headers=owner).get_json()["code"] == 0
        )

    @pytest.mark.parametrize(
        ("change", "field"),
        [
            ({"person": "p" * 51}, "person"),
            ({"approver": "a" * 21}, "approver"),
            ({"content": "c" * 1001}, "content"),
            ({"standard": "s" * 10001}, "standard"),
            ({"endTime": "2026-11-01T08:00:00+08:00"}, "endTime"),
            ({"kind": "repair"}, "kind"),
        ],
    )
    def test_field_limits(self, client, owner, guids, change, field):
        device_id = add(client, owner, guids["th_a"][0])
        body = client.post(
            f"{DEVICE}/MaintenanceRecord/insert", json={"deviceId": device_id, **self.RECORD, **change}, headers=owner
        ).get_json()
        assert body["code"] == 422 and field in body["data"]["errors"]

    def test_records_of_another_account_are_out_of_reach(self, client, owner, stranger, guids):
        device_id = add(client, owner, guids["th_a"][0])
        created = client.post(
            f"{DEVICE}/MaintenanceRecord/insert", json={"deviceId": device_id, **self.RECORD}, headers=owner
        ).get_json()["data"]
        assert client.delete(f"{DEVICE}/MaintenanceRecord/delete/{created['id']}", headers=stranger).status_code == 404
        assert (
            client.post(f"{DEVICE}/MaintenanceRecord/page", json={"deviceId": device_id}, headers=stranger).status_code
            == 404
        )


class TestExpiryAndQuickQuery:
    def expire(self, app, device_id, days_ago):
        with app.app_context():
            db.session.get(Device, device_id).service_expires_at = utcnow() - timedelta(days=days_ago)
            db.session.commit()

    def test_expiry_reminder_and_the_expired_device_list(self, app, make_client, owner, guids):
        client = make_client(lang="en-US")
        soon = add(client, owner, guids["th_a"][0], name="Soon")
        expired = add(client, owner, guids["th_b"][0], name="Expired")
        add(client, owner, guids["cold_room"][0], name="Fine")
        self.expire(app, soon, -10)  # expires in ten days
        self.expire(app, expired, 5)
        info = client.get(f"{DEVICE}/DeviceExpireInfo/getExpiredInfoByType?type=1", headers=owner).get_json()["data"]
        assert info["expiredFlag"] == 2 and info["counts"] == {"1": 1, "2": 1, "3": 0}
        assert any("has expired" in message for message in info["pushMessages"])
        listed = client.get(f"{DEVICE}/Device/getExpiredServiceDevice?start=1&pageSize=5", headers=owner).get_json()
        assert [d["deviceName"] for d in listed["data"]["list"]] == ["Expired"]
        soon_list = client.get(f"{DEVICE}/Device/getExpiredServiceDevice?expiredFlag=1", headers=owner).get_json()
        assert [d["deviceGuid"] for d in soon_list["data"]["list"]] == [guids["th_a"][0]]

    def test_another_accounts_expired_devices_are_refused(self, client, owner, stranger, guids):
        add(client, owner, guids["th_a"][0])
        me = client.get("/api/base/BaseAccount/accountInfo", headers=owner).get_json()["data"]["baseAccount"]["id"]
        response = client.get(f"{DEVICE}/Device/getExpiredServiceDevice?accountId={me}", headers=stranger)
        assert response.status_code == 404

    def test_quick_query_answers_only_when_the_owner_turned_quick_search_on(self, make_client, owner, stranger, guids):
        client = make_client(lang="en-US")
        guid, key = guids["th_a"]
        device_id = add(client, owner, guid, name="Ward fridge")
        upload(client, guid, key, [{"ts": minutes_ago(m), "readings": {"1": 4.5, "2": 50}} for m in (1, 6, 11)])
        not_found = "The device cannot be found, please confirm and re-enter"
        hidden = client.get(f"{DEVICE}/Device/quickQuery?guid={guid}").get_json()
        assert (hidden["code"], hidden["msg"], hidden["data"]) == (3001, not_found, None)  # off by default
        detail = client.get(f"{DEVICE}/Device/detail/{device_id}", headers=owner).get_json()["data"]
        assert detail["quickSearch"] is False
        refused = client.put(
            f"{DEVICE}/Device/update", json={"deviceId": device_id, "quickSearch": True}, headers=stranger
        ).get_json()
        assert refused["code"] != 0
        turned_on = client.put(
            f"{DEVICE}/Device/update", json={"deviceId": device_id, "quickSearch": True}, headers=owner
        ).get_json()
        assert turned_on["code"] == 0 and turned_on["data"]["quickSearch"] is True
        found = client.get(f"{DEVICE}/Device/quickQuery?guid={guid}").get_json()["data"]
        assert found["values"] == {"1": 4.5, "2": 50.0} and found["deviceGuid"] == guid
        assert [p["paramName"] for p in found["params"]] == ["Temperature", "Humidity"]
        assert len(found["chart"]["1"]) == 3
        # what a visitor needs, nothing of the owner
        assert set(found) == {"deviceGuid", "typeName", "status", "lastDataTime", "values", "params", "chart"}
        assert "Ward fridge" not in str(found)
        for partial in (guid[:-1], guids["th_b"][0]):
            answer = client.get(f"{DEVICE}/Device/quickQuery?guid={partial}").get_json()
            assert (answer["code"], answer["msg"]) == (3001, not_found)
        zh = make_client(lang="zh-CN").get(f"{DEVICE}/Device/quickQuery?guid={guid[:-1]}").get_json()
        assert zh["code"] == 3001 and zh["msg"] != not_found and zh["msg"]
        assert client.get(f"{DEVICE}/Device/quickQuery?guid=12x").get_json()["code"] != 0

    def test_quick_query_is_rate_limited(self, client, guids):
        statuses = [client.get(f"{DEVICE}/Device/quickQuery?guid=1{i:05d}").status_code for i in range(32)]
        assert statuses.count(429) == 2
