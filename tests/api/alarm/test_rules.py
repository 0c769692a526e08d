"""Alarm evaluation and lifecycle: limits with delay, recovery, offline, battery, probe fault."""

from __future__ import annotations

from datetime import timedelta

from api.alarm.evaluation import sweep
from api.alarm.models import AlarmKind, AlarmStatus, MessageType
from api.device.models import Device, DeviceState
from api.extensions.db import db, utcnow
from tests.api.account_helpers import StaffRole, auth, login, make_account
from tests.api.alarm.helpers import ALARM, alarms, messages, open_alarm, outbox, record, save_push, set_limits
from tests.api.device_helpers import add, upload


def test_reading_above_the_limit_opens_an_alarm_and_recovery_closes_it(app, client, owner, fridge):
    device_id, guid, key = fridge
    set_limits(client, owner, device_id, {"sensor": 1, "upperLimit": 8, "lowerLimit": 2})
    upload(client, guid, key, [record(20, 5.0), record(15, 9.5), record(10, 11.0)])
    [alarm] = alarms(app, device_id)
    assert (alarm.kind, alarm.sensor, alarm.status) == (AlarmKind.UPPER, 1, AlarmStatus.OPEN)
    assert (alarm.first_value, alarm.peak_value, alarm.limit_value) == (9.5, 11.0, 8.0)
    [message] = messages(app)
    assert (message.type, message.alarm_id) == (MessageType.ALARM, alarm.id)
    status = client.get(f"{ALARM}/Alarm/deviceStatus", query_string={"deviceId": device_id}, headers=owner).get_json()
    assert status["data"]["alarmActive"] is True and len(status["data"]["open"]) == 1
    # Issue 47: an alarm's values carry their sensor's unit on every list that shows them.
    assert status["data"]["open"][0]["unit"] == "°C" and status["data"]["open"][0]["unitCode"] == "celsius"
    page = client.post(f"{ALARM}/AlarmMessage/page", json={}, headers=owner).get_json()["data"]["list"]
    assert {row["alarm"]["unit"] for row in page if row.get("alarm")} == {"°C"}

    upload(client, guid, key, [record(5, 10.0), record(1, 6.0)])
    [alarm] = alarms(app, device_id)
    assert alarm.status == AlarmStatus.CLOSED and alarm.peak_value == 11.0 and alarm.last_value == 10.0
    status = client.get(f"{ALARM}/Alarm/deviceStatus", query_string={"deviceId": device_id}, headers=owner).get_json()
    assert status["data"]["alarmActive"] is False and status["data"]["open"] == []
    history = client.post(f"{ALARM}/Alarm/page", json={"deviceId": device_id}, headers=owner).get_json()["data"]
    assert history["total"] == 1 and history["list"][0]["status"] == "closed"
    assert history["list"][0]["unit"] == "°C"


def test_lower_limit_breach_opens_a_lower_alarm(app, client, owner, fridge):
    device_id, guid, key = fridge
    set_limits(client, owner, device_id, {"sensor": 1, "upperLimit": 8, "lowerLimit": 2})
    upload(client, guid, key, [record(3, 1.0), record(2, 0.5)])
    [alarm] = alarms(app, device_id)
    assert (alarm.kind, alarm.status, alarm.peak_value) == (AlarmKind.LOWER, AlarmStatus.OPEN, 0.5)


def test_delay_alarm_only_after_n_minutes_outside(app, client, owner, fridge):
    device_id, guid, key = fridge
    set_limits(client, owner, device_id, {"sensor": 1, "upperLimit": 8, "delayMinutes": 10})
    upload(client, guid, key, [record(30, 9.0), record(25, 9.5)])
    [pending] = alarms(app, device_id)
    assert pending.status == AlarmStatus.DELAYING and messages(app) == []
    upload(client, guid, key, [record(19, 9.8)])  # 11 minutes outside: an alarm now
    [alarm] = alarms(app, device_id)
    assert alarm.status == AlarmStatus.OPEN and len(messages(app)) == 1


def test_breach_shorter_than_the_delay_leaves_nothing(app, client, owner, fridge):
    device_id, guid, key = fridge
    set_limits(client, owner, device_id, {"sensor": 1, "upperLimit": 8, "delayMinutes": 10})
    upload(client, guid, key, [record(30, 9.0), record(25, 9.5), record(20, 5.0)])
    assert alarms(app, device_id) == [] and messages(app) == []


def test_limits_are_validated_and_a_refusal_changes_nothing(app, client, owner, fridge):
    device_id, _guid, _key = fridge
    set_limits(client, owner, device_id, {"sensor": 1, "upperLimit": 8, "lowerLimit": 2})
    for bad, field in (
        ({"sensor": 1, "upperLimit": 2, "lowerLimit": 8}, "upperLimit"),  # upper must exceed lower
        ({"sensor": 1, "upperLimit": 200}, "upperLimit"),  # outside -40..85
        ({"sensor": 7, "upperLimit": 5}, "sensor"),  # no such sensor
    ):
        body = client.post(
            f"{ALARM}/SensorLimit/save", json={"deviceId": device_id, "limits": [bad]}, headers=owner
        ).get_json()
        assert body["code"] == 422 and field in str(body["data"]["errors"]), body
    saved = client.get(f"{ALARM}/SensorLimit/list", query_string={"deviceId": device_id}, headers=owner).get_json()
    assert [(s["upperLimit"], s["lowerLimit"]) for s in saved["data"]] == [(8.0, 2.0)]


def test_probe_fault_opens_and_a_value_closes_it(app, client, owner, fridge):
    device_id, guid, key = fridge
    upload(client, guid, key, [record(3, None)])
    [alarm] = alarms(app, device_id)
    assert (alarm.kind, alarm.sensor, alarm.status) == (AlarmKind.FAULT, 1, AlarmStatus.OPEN)
    upload(client, guid, key, [record(1, 4.0)])
    assert alarms(app, device_id)[0].status == AlarmStatus.CLOSED


def test_low_battery_on_ingest_and_recovery(app, client, owner, fridge):
    device_id, guid, key = fridge
    upload(client, guid, key, [record(3, 4.0, battery=12)])
    [alarm] = alarms(app, device_id)
    assert (alarm.kind, alarm.status, alarm.last_value, alarm.limit_value) == (
        AlarmKind.BATTERY,
        AlarmStatus.OPEN,
        12.0,
        20.0,
    )
    upload(client, guid, key, [record(1, 4.0, battery=90)])
    assert alarms(app, device_id)[0].status == AlarmStatus.CLOSED


def test_offline_alarm_within_60_seconds_of_the_deadline_and_data_closes_it(app, client, owner, fridge):
    device_id, guid, key = fridge
    upload(client, guid, key, [record(1, 4.0)])
    with app.app_context():
        deadline = db.session.get(DeviceState, device_id).offline_at
        assert sweep(deadline - timedelta(seconds=1)) == 0  # a controllable clock: not yet
        assert sweep(deadline + timedelta(seconds=30)) == 1  # the job runs every 30 s
        assert sweep(deadline + timedelta(seconds=60)) == 0  # and never opens it twice
    [alarm] = alarms(app, device_id)
    assert (alarm.kind, alarm.status, alarm.breach_started_at) == (AlarmKind.OFFLINE, AlarmStatus.OPEN, deadline)
    assert alarm.opened_at - deadline <= timedelta(seconds=60)
    upload(client, guid, key, [record(0, 4.0)])
    assert alarms(app, device_id)[0].status == AlarmStatus.CLOSED


def test_one_sweep_opens_many_devices_alarms_each_with_its_message_and_notifications(app, client, owner, fridge, guids):
    """The sweep opens a batch's alarms together (one statement for the alarms, one for their
    messages, one push-setting query): each still gets its own message, flag and, where the device
    has a push setting, its notification."""
    device_id, guid, key = fridge
    other_guid, other_key = guids["th_b"]
    other_id = add(client, owner, other_guid, name="Freezer")
    assert save_push(client, owner, device_id)["code"] == 0
    upload(client, guid, key, [record(1, 4.0)])
    upload(client, other_guid, other_key, [record(1, 4.0)])
    with app.app_context():
        deadlines = {d: db.session.get(DeviceState, d).offline_at for d in (device_id, other_id)}
        assert sweep(max(deadlines.values()) + timedelta(seconds=30)) == 2
        flags = {d: db.session.get(DeviceState, d).alarm_active for d in (device_id, other_id)}
    assert flags == {device_id: True, other_id: True}
    opened = {d: open_alarm(app, d) for d in (device_id, other_id)}
    for d, alarm in opened.items():
        assert (alarm.kind, alarm.opened_at) == (AlarmKind.OFFLINE, deadlines[d])
    assert sorted((m.alarm_id, m.device_id) for m in messages(app)) == sorted((a.id, d) for d, a in opened.items())
    assert [(m.alarm_id, m.recipient) for m in outbox(app)] == [(opened[device_id].id, "ann@example.com")]
    # The first level was reached where it was sent (the plan's change to an alarm the sweep wrote).
    assert {d: a.level_reached for d, a in opened.items()} == {device_id: 1, other_id: 0}


def test_scheduled_sweep_raises_battery_alarm_from_the_latest_state(app, client, owner, fridge):
    device_id, guid, key = fridge
    upload(client, guid, key, [record(1, 4.0, battery=60)])
    with app.app_context():
        db.session.get(DeviceState, device_id).battery = 5
        db.session.commit()
        assert sweep(utcnow()) == 1
    assert [a.kind for a in alarms(app, device_id)] == [AlarmKind.BATTERY]


def test_operator_rule_turns_a_kind_off_for_a_device_type(app, client, owner, fridge, make_client):
    make_account(app, user_name="operator1", staff_role=StaffRole.OPERATOR)
    operator = auth(login(client, "operator1"))
    detail = client.get(f"/api/device/Device/detail/{fridge[0]}", headers=owner).get_json()["data"]
    with app.app_context():
        type_id = db.session.get(Device, fridge[0]).device_type_id
    # An upload first: the type's rules are now kept by this process (api/alarm/rules.py), and the
    # operator's change must still apply to the very next upload.
    upload(client, fridge[1], fridge[2], [record(2, 4.0, battery=90)])
    rule = {
        "deviceTypeId": type_id,
        "alarmKind": "battery",
        "ruleName": "Battery",
        "activeDefault": False,
        "threshold": 30,
    }
    assert client.post(f"{ALARM}/AlarmRule/save", json=rule, headers=owner).status_code == 403
    body = client.post(f"{ALARM}/AlarmRule/save", json=rule, headers=operator).get_json()
    assert body["code"] == 0 and body["data"]["activeDefault"] is False, body
    assert detail["deviceGuid"] == fridge[1]
    upload(client, fridge[1], fridge[2], [record(1, 4.0, battery=3)])
    assert alarms(app, fridge[0]) == []


def test_disabling_an_asset_turns_its_devices_alarms_off(app, client, owner, fridge):
    device_id, guid, key = fridge
    set_limits(client, owner, device_id, {"sensor": 1, "upperLimit": 8, "lowerLimit": 2})
    upload(client, guid, key, [record(20, 5.0), record(15, 9.5)])
    assert [a.status for a in alarms(app, device_id)] == [AlarmStatus.OPEN]
    asset = client.post(
        "/api/base/BaseAsset/insert", json={"combName": "Freezer A", "deviceIds": [device_id]}, headers=owner
    ).get_json()["data"]
    assert client.put(f"/api/base/BaseAsset/disable/{asset['id']}", headers=owner).get_json()["code"] == 0
    [alarm] = alarms(app, device_id)
    assert alarm.status == AlarmStatus.CLOSED and alarm.closed_at is not None
    with app.app_context():
        assert db.session.get(DeviceState, device_id).alarm_active is False
    # Enabled again, the device's next excursion opens a new alarm.
    assert client.put(f"/api/base/BaseAsset/enable/{asset['id']}", headers=owner).get_json()["code"] == 0
    upload(client, guid, key, [record(5, 10.5)])
    assert [a.status for a in alarms(app, device_id)] == [AlarmStatus.CLOSED, AlarmStatus.OPEN]
