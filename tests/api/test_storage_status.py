"""A room's status is derived from its devices' states and open alarms (issue 47: a storage showed
"Online, Alarm 0" with stale values while its controller was offline and an offline alarm was open):
offline when its controller or all its devices are offline, its alarm count includes its devices'
alarms of every kind (offline too) as its alarm record lists them, stale values marked with their time.
Every place that shows the state (detail, list page and its filter, counts, overview) agrees."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from api.alarm.evaluation import sweep
from api.device.models import DeviceState
from api.extensions.db import db, utcnow
from tests.api.device_helpers import guids, minutes_ago, owner, upload
from tests.api.test_storage import S, create, ok, room

__all__ = ["guids", "owner", "room"]


def go_offline(app, device_id: int) -> None:
    """The device missed its deadline; the sweep opens its offline alarm."""
    with app.app_context():
        state = db.session.scalar(select(DeviceState).where(DeviceState.device_id == device_id))
        state.offline_at = utcnow() - timedelta(minutes=5)
        db.session.commit()
        assert sweep(utcnow()) >= 1


def shown(client, owner, storage_id: int) -> dict:
    """The storage's state as each call shows it."""
    detail = ok(client.get(f"{S}/ColdStorage/detail/{storage_id}", headers=owner))
    listed = ok(client.post(f"{S}/ColdStorage/page", json={"pageSize": 50}, headers=owner))["list"]
    [row] = [r for r in listed if r["id"] == storage_id]
    overview = ok(client.get(f"{S}/ColdStorage/overview?storageId={storage_id}", headers=owner))
    counts = ok(client.get(f"{S}/ColdStorage/statusCount", headers=owner))
    alarms = ok(
        client.post(f"{S}/ColdStorage/alarmPage", json={"storageId": storage_id, "status": "open"}, headers=owner)
    )
    filtered = ok(
        client.post(f"{S}/ColdStorage/page", json={"pageSize": 50, "status": detail["status"]}, headers=owner)
    )["list"]
    assert row["status"] == detail["status"] == overview["status"]
    assert row["openAlarms"] == detail["openAlarms"] == alarms["total"], "the count is what the record lists"
    assert counts[detail["status"]] >= 1 and storage_id in {r["id"] for r in filtered}
    return {"status": detail["status"], "alarms": detail["openAlarms"], "probes": overview["probes"]}


def logger_probe(room):
    return [{"deviceId": room["controller"], "sensor": s, "zone": z} for s, z in ((2, "middle"), (3, "evaporator"))] + [
        {"deviceId": room["logger"], "sensor": 1, "zone": "door"}
    ]


def test_an_offline_controller_makes_the_room_offline_with_its_offline_alarm_counted(app, client, owner, room):
    storage = create(client, owner, room["guid"], probes=logger_probe(room))
    assert shown(client, owner, storage["id"])["status"] == "online"
    go_offline(app, room["controller"])
    state = shown(client, owner, storage["id"])
    assert state["status"] == "offline" and state["alarms"] == 1  # the logger is live, the room is not
    by_device = {p["deviceId"]: p for p in state["probes"]}
    controller_probe = by_device[room["controller"]]
    assert (
        controller_probe["stale"] is True and controller_probe["lastDataTime"] and controller_probe["value"] is not None
    )
    assert by_device[room["logger"]]["stale"] is False


def test_an_offline_logger_of_a_live_room_is_an_alarm(app, client, owner, room):
    storage = create(client, owner, room["guid"], probes=logger_probe(room))
    go_offline(app, room["logger"])
    state = shown(client, owner, storage["id"])
    assert state["status"] == "alarm" and state["alarms"] == 1


def test_a_room_without_controller_is_offline_only_when_every_device_is(app, client, owner, room):
    probes = [{"deviceId": room["logger"], "sensor": 1, "zone": "door"}, {"deviceId": room["controller"], "sensor": 2}]
    storage = create(client, owner, None, probes=probes)
    go_offline(app, room["logger"])
    assert shown(client, owner, storage["id"]) | {"probes": None} == {"status": "alarm", "alarms": 1, "probes": None}
    go_offline(app, room["controller"])
    assert shown(client, owner, storage["id"]) | {"probes": None} == {"status": "offline", "alarms": 2, "probes": None}


def test_the_storage_alarm_record_processes_alarms_as_the_device_list_does(app, client, owner, room):
    """Issue 47: the storage's alarm record could not process alarms. Each device alarm row carries the
    message the device's alarm list processes (the same call, the same permission), its probe's name,
    zone and unit."""
    storage = create(client, owner, room["guid"], probes=logger_probe(room))
    ok(
        client.post(
            "/api/alarm/SensorLimit/save",
            json={"deviceId": room["controller"], "limits": [{"sensor": 2, "upperLimit": -10, "lowerLimit": -25}]},
            headers=owner,
        )
    )
    upload(client, room["guid"], room["key"], [{"ts": minutes_ago(0.5), "readings": {"2": -5.0}}])
    go_offline(app, room["logger"])
    rows = ok(client.post(f"{S}/ColdStorage/alarmPage", json={"storageId": storage["id"]}, headers=owner))["list"]
    assert {(r["kind"], r["processState"]) for r in rows} == {("upper", "pending"), ("offline", "pending")}
    assert all(r["messageId"] for r in rows), "every device alarm can be processed from the record"
    upper = next(r for r in rows if r["kind"] == "upper")
    assert upper["zone"] == "middle" and upper["unit"] == "°C" and upper["probeName"]
    answer = client.put(
        "/api/alarm/AlarmMessage/process",
        json={"ids": [r["messageId"] for r in rows], "processState": "agreed", "result": "Door closed"},
        headers=owner,
    ).get_json()
    assert answer["code"] == 0 and answer["data"]["processed"] == 2, answer
    rows = ok(client.post(f"{S}/ColdStorage/alarmPage", json={"storageId": storage["id"]}, headers=owner))["list"]
    assert {(r["processState"], r["result"]) for r in rows} == {("agreed", "Door closed")}
