"""The operator's fleet views (/operation/device/list, /operation/device/alarmlist): every device and
alarm of every platform, read only; neither a reseller admin nor a user reaches them."""

from __future__ import annotations

from tests.api.alarm.helpers import record, set_limits
from tests.api.customization_helpers import staff
from tests.api.device_helpers import add, guids, upload

__all__ = ["guids"]

DEVICES = "/api/product/FleetDevice/page"
ALARMS = "/api/product/FleetAlarm/page"


def page(client, headers, url, **query):
    answer = client.post(url, json={"start": 1, "pageSize": 50, **query}, headers=headers)
    body = answer.get_json()
    assert answer.status_code == 200 and body["code"] == 0, body
    return body["data"]


def test_the_operator_sees_every_platforms_devices_with_owner_state_and_filters(app, make_client, guids):
    (operator, op), (reseller, rs), (user, us) = staff(app, make_client, lang="en-US")
    fridge = add(user, us, guids["th_a"][0], name="Ward Fridge")
    upload(user, *guids["th_a"], [record(1, 4.5)])

    everything = page(operator, op, DEVICES)
    by_guid = {row["deviceGuid"]: row for row in everything["list"]}
    assert set(by_guid) >= {guid for guid, _ in guids.values()}
    mine = by_guid[guids["th_a"][0]]
    assert mine["id"] == fridge and mine["ownerName"] == "demouser" and mine["deviceName"] == "Ward Fridge"
    assert mine["status"] == "online" and mine["platform"] == "default" and mine["typeName"]
    assert (
        by_guid[guids["junjia_th"][0]]["ownerName"] is None and by_guid[guids["junjia_th"][0]]["platform"] == "junjia"
    )

    assert [row["id"] for row in page(operator, op, DEVICES, keyword="ward")["list"]] == [fridge]
    assert [row["id"] for row in page(operator, op, DEVICES, userName="demo")["list"]] == [fridge]
    assert [row["id"] for row in page(operator, op, DEVICES, status="online")["list"]] == [fridge]
    assert fridge not in [row["id"] for row in page(operator, op, DEVICES, claimed=False)["list"]]

    # Operations are the operator's: neither a reseller admin nor a user holds the key.
    for client, headers in ((reseller, rs), (user, us)):
        assert client.post(DEVICES, json={"start": 1, "pageSize": 10}, headers=headers).status_code == 403
    bad = operator.post(DEVICES, json={"start": 1, "pageSize": 10, "status": "sleeping"}, headers=op).get_json()
    assert bad["code"] == 422 and "status" in bad["data"]["errors"]


def test_the_operator_sees_every_alarm_of_the_fleet(app, make_client, guids):
    (operator, op), (reseller, rs), (user, us) = staff(app, make_client, lang="en-US")
    fridge = add(user, us, guids["th_a"][0], name="Ward Fridge")
    set_limits(user, us, fridge, {"sensor": 1, "upperLimit": 8})
    upload(user, *guids["th_a"], [record(2, 5.0), record(1, 12.5)])

    [alarm] = page(operator, op, ALARMS)["list"]
    assert alarm["deviceId"] == fridge and alarm["kind"] == "upper" and alarm["status"] == "open"
    assert alarm["ownerName"] == "demouser" and alarm["peakValue"] == 12.5 and alarm["limitValue"] == 8
    assert page(operator, op, ALARMS, kind="offline")["list"] == []
    assert len(page(operator, op, ALARMS, keyword=guids["th_a"][0], status="open")["list"]) == 1
    for client, headers in ((reseller, rs), (user, us)):
        assert client.post(ALARMS, json={"start": 1, "pageSize": 10}, headers=headers).status_code == 403
    later = {"start": 1, "pageSize": 10, "startTime": "2026-01-02T00:00:00Z", "endTime": "2026-01-01T00:00:00Z"}
    bad = operator.post(ALARMS, json=later, headers=op).get_json()
    assert bad["code"] == 422 and bad["data"]["errors"]["endTime"] == ["End time must be after start time."]
