"""Waybills (issue 21): the rules of business-domain section 5 with localized messages, states and
start / stop, the waybill's limits driving the device's alarms (restored afterwards), the ignore
period, disposition and reach."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import func, select

from api import demo
from api.alarm.models import Alarm, SensorLimit
from api.extensions.db import db
from api.waybill import services
from api.waybill.models import Waybill
from tests.api.account_helpers import auth, login, make_account
from tests.api.waybill_helpers import W, body, create, device, now, send, shipper, trackers

__all__ = ["shipper", "trackers"]

LONG = "x" * 21
BETWEEN_1_20 = ("Length must be between 1 and 20 characters.", "长度须在 1 到 20 个字符之间。")
BAD_EXPRESS = "Tracking numbers are letters, digits or '-', separated by commas."
# (field, bad value, field named in the errors, English message, Chinese message)
RULES = [
    ("orderNum", LONG, "orderNum", *BETWEEN_1_20),
    ("goodsName", LONG, "goodsName", *BETWEEN_1_20),
    ("goodsName", "", "goodsName", None, None),
    ("coolerCode", LONG, "coolerCode", "At most 20 characters.", "最多 20 个字符。"),
    ("expressNumber", "SF1," * 25 + "SF12", "expressNumber", "At most 100 characters.", "最多 100 个字符。"),
    (
        "expressNumber",
        "SF1 2",
        "expressNumber",
        "Tracking numbers are letters, digits or '-', separated by commas.",
        None,
    ),
    ("senderName", "L", "senderName", "Length must be between 2 and 20 characters.", "长度须在 2 到 20 个字符之间。"),
    ("senderName", LONG, "senderName", None, None),
    (
        "receiverName",
        LONG,
        "receiverName",
        "Length must be between 1 and 20 characters.",
        "长度须在 1 到 20 个字符之间。",
    ),
    ("receiverCompany", LONG, "receiverCompany", "At most 20 characters.", "最多 20 个字符。"),
    ("alarmName", LONG, "alarmName", "At most 20 characters.", "最多 20 个字符。"),
    ("senderPhone", "12345", "senderPhone", "Please enter a valid phone number.", "请输入有效的手机号。"),
    ("receiverPhone", "1380013800x", "receiverPhone", "Please enter a valid phone number.", "请输入有效的手机号。"),
    ("alarmPhone", "999", "alarmPhone", "Please enter a valid phone number.", "请输入有效的手机号。"),
    ("upperLimit", 2.0, "upperLimit", "The upper limit must be greater than the lower limit.", "上限必须大于下限。"),
    ("upperLimit", None, "upperLimit", None, None),
    ("upperLimit", 90.0, "upperLimit", "Must be between -40.0 and 85.0.", "须在 -40.0 到 85.0 之间。"),
    ("lowerLimit", -45.0, "lowerLimit", "Must be between -40.0 and 85.0.", None),
]


def errors_of(answer: dict) -> dict:
    return (answer.get("data") or {}).get("errors") or {}


def test_every_waybill_rule_names_the_field_in_both_languages(app, client, make_client, shipper, trackers):
    device_id = device(client, shipper, trackers)
    kept = create(client, shipper, device_id)
    for field, value, named, english, chinese in RULES:
        check_rule(make_client, shipper, device_id, kept, field, value, named, english, chinese)
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Waybill)) == 1
        stored = db.session.get(Waybill, kept["id"])
        assert (stored.order_num, stored.upper_limit, stored.sender_phone) == ("PO-2026-001", 8.0, "+8613800138000")


def check_rule(make_client, shipper, device_id, kept, field, value, named, english, chinese):
    for lang, expected in (("en-US", english), ("zh-CN", chinese)):
        speaker = make_client(lang=lang)
        bad = body(device_id, **{field: value})
        response = speaker.post(f"{W}/Waybill/insert", json=bad, headers=shipper)
        answer = response.get_json()
        assert response.status_code == 422, (field, value, answer)
        assert named in errors_of(answer), (field, value, answer)
        message = errors_of(answer)[named][0]
        if expected:
            assert message == expected, (field, value, message)
        if lang == "zh-CN" and english:
            assert message != english  # translated
        response = speaker.put(f"{W}/Waybill/update", json={**bad, "id": kept["id"]}, headers=shipper)
        assert response.status_code == 422, (field, value)


def test_a_device_without_waybill_support_is_refused(client, shipper, trackers):
    cold_room = device(client, shipper, trackers, "cold_room")
    truck = device(client, shipper, trackers)
    listed = client.post("/api/device/Device/page", json={"start": 1, "pageSize": 50}, headers=shipper).get_json()
    offered = {item["id"]: item["waybillSupport"] for item in listed["data"]["list"]}
    assert offered == {cold_room: False, truck: True}  # the waybill form offers only the truck
    answer = client.post(f"{W}/Waybill/insert", json=body(cold_room), headers=shipper).get_json()
    assert answer["code"] == 422 and "deviceId" in errors_of(answer)


def test_tracking_numbers_up_to_100_characters_comma_separated_are_kept(client, shipper, trackers):
    device_id = device(client, shipper, trackers)
    numbers = ",".join(f"SF{i:07d}" for i in range(10))[:100]
    saved = create(client, shipper, device_id, expressNumber=numbers)
    assert saved["expressNumber"] == numbers and saved["state"] == "not_started"


def own_limit(app, device_id):
    with app.app_context():
        limit = db.session.scalar(select(SensorLimit).where(SensorLimit.device_id == device_id))
        return None if limit is None else (limit.upper, limit.lower, limit.enabled)


def alarms(app, device_id, kind="upper"):
    with app.app_context():
        return db.session.scalar(
            select(func.count()).select_from(Alarm).where(Alarm.device_id == device_id, Alarm.kind == kind)
        )


def test_waybill_limits_drive_the_alarms_and_the_device_limits_come_back(app, client, shipper, trackers):
    device_id = device(client, shipper, trackers)
    saved = client.post(
        "/api/alarm/SensorLimit/save",
        json={"deviceId": device_id, "limits": [{"sensor": 1, "upperLimit": 30.0, "lowerLimit": -20.0}]},
        headers=shipper,
    ).get_json()
    assert saved["code"] == 0, saved
    send(client, trackers, "gt_a", now() - timedelta(minutes=2))
    waybill = create(client, shipper, device_id, ignoreMinutes=0)
    started = client.put(f"{W}/Waybill/start/{waybill['id']}", json={}, headers=shipper).get_json()
    assert started["data"]["state"] == "in_progress", started
    assert own_limit(app, device_id) == (8.0, 2.0, True)
    send(client, trackers, "gt_a", now() - timedelta(minutes=1), temp=12.0)  # above 8, below the device's 30
    assert alarms(app, device_id) == 1
    stopped = client.put(f"{W}/Waybill/stop/{waybill['id']}", headers=shipper).get_json()
    assert stopped["data"]["state"] == "completed"
    assert own_limit(app, device_id) == (30.0, -20.0, True)
    again = client.put(f"{W}/Waybill/start/{waybill['id']}", json={}, headers=shipper).get_json()
    assert again["code"] == 7000  # completed stays completed


def test_no_alarm_during_the_ignore_period_then_armed(app, client, shipper, trackers, monkeypatch):
    device_id = device(client, shipper, trackers)
    send(client, trackers, "gt_a", now() - timedelta(minutes=40))
    waybill = create(client, shipper, device_id)  # default ignore period: 10 minutes
    assert waybill["ignoreMinutes"] == 10
    began = now() - timedelta(minutes=30)
    monkeypatch.setattr(services, "utcnow", lambda: began)
    answer = client.put(f"{W}/Waybill/start/{waybill['id']}", json={"confirm": True}, headers=shipper).get_json()
    assert answer["code"] == 0, answer
    monkeypatch.undo()
    assert own_limit(app, device_id) == (8.0, 2.0, False)
    send(client, trackers, "gt_a", began + timedelta(minutes=5), temp=15.0)  # door open while loading
    assert alarms(app, device_id) == 0
    send(client, trackers, "gt_a", began + timedelta(minutes=12), temp=15.0)
    assert alarms(app, device_id) == 1
    assert own_limit(app, device_id) == (8.0, 2.0, True)
    client.put(f"{W}/Waybill/stop/{waybill['id']}", headers=shipper)
    assert own_limit(app, device_id) is None  # the device had no limit of its own


def test_an_offline_device_asks_for_confirmation(client, shipper, trackers):
    device_id = device(client, shipper, trackers)
    waybill = create(client, shipper, device_id)
    first = client.put(f"{W}/Waybill/start/{waybill['id']}", json={}, headers=shipper).get_json()
    assert first["code"] == 7001 and first["data"]["needConfirm"] is True
    assert client.get(f"{W}/Waybill/detail/{waybill['id']}", headers=shipper).get_json()["data"]["state"] == (
        "not_started"
    )
    confirmed = client.put(f"{W}/Waybill/start/{waybill['id']}", json={"confirm": True}, headers=shipper).get_json()
    assert confirmed["data"]["state"] == "in_progress"
    other = create(client, shipper, device_id)
    busy = client.put(f"{W}/Waybill/start/{other['id']}", json={"confirm": True}, headers=shipper).get_json()
    assert busy["code"] == 7000  # one waybill in progress per device
    deleting = client.delete(f"{W}/Waybill/delete/{waybill['id']}", headers=shipper).get_json()
    assert deleting["code"] == 7000


def test_a_device_started_at_the_device_waits_for_its_first_upload(client, shipper, trackers):
    device_id = device(client, shipper, trackers, "tl")
    waybill = create(client, shipper, device_id)
    asked = client.put(f"{W}/Waybill/start/{waybill['id']}", json={}, headers=shipper).get_json()
    assert asked["data"]["state"] == "not_started" and asked["data"]["startRequestedAt"]
    send(client, trackers, "tl", now())
    assert client.get(f"{W}/Waybill/detail/{waybill['id']}", headers=shipper).get_json()["data"]["state"] == (
        "in_progress"
    )


def test_start_and_stop_at_a_set_time(app, client, shipper, trackers):
    device_id = device(client, shipper, trackers)
    start_at, stop_at = now() + timedelta(hours=1), now() + timedelta(hours=5)
    waybill = create(
        client,
        shipper,
        device_id,
        startMode="time",
        stopMode="time",
        startAt=start_at.isoformat(),
        stopAt=stop_at.isoformat(),
    )
    with app.app_context():
        services.tick(now())
        assert db.session.get(Waybill, waybill["id"]).state == "not_started"
        services.tick(start_at + timedelta(seconds=1))
        assert db.session.get(Waybill, waybill["id"]).state == "in_progress"
        services.tick(stop_at + timedelta(seconds=1))
        stored = db.session.get(Waybill, waybill["id"])
        assert stored.state == "completed" and stored.completed_at == stop_at
    missing = client.post(f"{W}/Waybill/insert", json=body(device_id, startMode="time"), headers=shipper).get_json()
    assert missing["code"] == 422 and "startAt" in errors_of(missing)


def test_disposition_after_completion(client, shipper, trackers):
    device_id = device(client, shipper, trackers)
    waybill = create(client, shipper, device_id, ignoreMinutes=0)
    early = client.put(f"{W}/Waybill/dispose", json={"id": waybill["id"], "disposition": "released"}, headers=shipper)
    assert early.get_json()["code"] == 7000
    client.put(f"{W}/Waybill/start/{waybill['id']}", json={"confirm": True}, headers=shipper)
    client.put(f"{W}/Waybill/stop/{waybill['id']}", headers=shipper)
    no_reason = client.put(
        f"{W}/Waybill/dispose", json={"id": waybill["id"], "disposition": "rejected"}, headers=shipper
    ).get_json()
    assert no_reason["code"] == 422 and "reason" in errors_of(no_reason)
    done = client.put(
        f"{W}/Waybill/dispose",
        json={"id": waybill["id"], "disposition": "rejected", "reason": "Excursion above 8 °C for 40 min"},
        headers=shipper,
    ).get_json()
    assert done["data"]["disposition"] == "rejected" and done["data"]["dispositionReason"].startswith("Excursion")


def test_a_waybill_is_seen_by_whoever_sees_its_device_only(app, client, shipper, trackers):
    device_id = device(client, shipper, trackers)
    waybill = create(client, shipper, device_id)
    make_account(app, user_name="stranger_9")
    stranger = auth(login(client, "stranger_9"))
    assert client.get(f"{W}/Waybill/detail/{waybill['id']}", headers=stranger).status_code == 404
    assert client.post(f"{W}/Waybill/page", json={}, headers=stranger).get_json()["data"]["total"] == 0
    page = client.post(f"{W}/Waybill/page", json={"keyword": "SF1234567890"}, headers=shipper).get_json()["data"]
    assert page["total"] == 1 and page["list"][0]["deviceId"] == device_id
    theirs = client.post(f"{W}/Waybill/insert", json=body(device_id), headers=stranger).get_json()
    assert theirs["code"] == 404


def test_seed_demo_has_a_completed_and_an_in_progress_waybill_with_fences(app, client):
    with app.app_context():
        demo.seed(backfill=timedelta(days=2))
        demo.seed(backfill=timedelta(0))  # idempotent
    headers = auth(login(client, "demouser", demo.DEMO_PASSWORD))
    listed = client.post(f"{W}/Waybill/page", json={}, headers=headers).get_json()["data"]
    by_number = {row["waybillNum"]: row for row in listed["list"]}
    assert listed["total"] == 2
    done, going = by_number["WB-DEMO-0001"], by_number["WB-DEMO-0002"]
    assert (done["state"], done["disposition"], going["state"]) == ("completed", "released", "in_progress")
    assert done["originFenceId"] and done["destinationFenceId"]
    status = client.get(f"{W}/Waybill/status?id={done['id']}", headers=headers).get_json()["data"]
    assert status["distanceMeters"] > 250_000 and len(status["track"]) > 50  # Shanghai -> Nanjing
    assert max(v for _, v in status["temperatures"]) > 8.0  # the excursion after the stop
    fences = client.post(f"{W}/Fence/page", json={}, headers=headers).get_json()["data"]
    assert {f["shape"] for f in fences["list"]} == {"circle", "polygon"}
