"""Defrost and door-open holds of a room with a controller (issue 47: a "Defrost now" command raised an
evaporator alarm). A defrost command or a reported defrost / door state opens a window of the storage's
minutes during which the affected probes' limit alarms are held; after it, a probe still out of range
raises its alarm normally; other zones are never held; 0 minutes switches a hold off."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from api.alarm.models import Alarm, AlarmStatus
from api.extensions.db import db, utcnow
from api.storage.models import ColdStorage
from tests.api.device_helpers import guids, minutes_ago, owner, upload
from tests.api.test_storage import S, create, ok, room

__all__ = ["guids", "owner", "room"]


def open_alarms(app, device_id) -> set[int]:
    with app.app_context():
        rows = db.session.scalars(
            select(Alarm.sensor).where(Alarm.device_id == device_id, Alarm.status == AlarmStatus.OPEN)
        )
        return set(rows)


@pytest.fixture
def cold_room(app, client, owner, room):
    storage = create(client, owner, room["guid"])  # probes 1 door, 2 middle, 3 evaporator, 4 return air
    limits = [{"sensor": s, "upperLimit": -10, "lowerLimit": -30} for s in (1, 2, 3, 4)]
    ok(
        client.post(
            "/api/alarm/SensorLimit/save", json={"deviceId": room["controller"], "limits": limits}, headers=owner
        )
    )
    return {**room, "storage": storage["id"]}


def send(client, room, readings, minutes=0.2):
    assert (
        upload(client, room["guid"], room["key"], [{"ts": minutes_ago(minutes), "readings": readings}]).status_code
        == 200
    )


def end_windows(app, storage_id):
    """The window's minutes have passed."""
    with app.app_context():
        storage = db.session.get(ColdStorage, storage_id)
        for column in ("defrost_hold_until", "door_hold_until"):
            if getattr(storage, column) is not None:
                setattr(storage, column, utcnow() - timedelta(seconds=1))
        db.session.commit()


def test_a_defrost_command_holds_the_evaporator_then_raises_it_if_still_warm(app, client, owner, cold_room):
    body = {"storageId": cold_room["storage"], "action": "defrost", "confirmOffline": True}
    ok(client.post(f"{S}/CloudControl/send", json=body, headers=owner))
    send(client, cold_room, {"3": -2.0, "4": -5.0, "2": -4.0}, minutes=0.3)
    assert open_alarms(app, cold_room["controller"]) == {2}  # evaporator and return air held; middle not
    end_windows(app, cold_room["storage"])
    send(client, cold_room, {"3": -1.5, "4": -18.0, "2": -18.0}, minutes=0.1)
    assert open_alarms(app, cold_room["controller"]) == {3}  # still warm after the window: raised (middle recovered)


def test_a_reported_defrost_or_door_opens_the_window_and_a_recovery_inside_leaves_nothing(
    app, client, owner, cold_room
):
    send(client, cold_room, {"7": 1, "3": -3.0, "8": 1, "1": -2.0}, minutes=0.3)
    assert open_alarms(app, cold_room["controller"]) == set()
    send(client, cold_room, {"7": 0, "3": -20.0, "8": 0, "1": -19.0}, minutes=0.2)  # back before the end
    end_windows(app, cold_room["storage"])
    send(client, cold_room, {"3": -20.0, "1": -19.0}, minutes=0.1)
    with app.app_context():
        assert db.session.scalars(select(Alarm).where(Alarm.device_id == cold_room["controller"])).all() == []


def test_holds_are_configured_per_storage_and_zero_switches_them_off(app, client, owner, cold_room):
    detail = ok(client.get(f"{S}/ColdStorage/detail/{cold_room['storage']}", headers=owner))
    assert (detail["defrostHoldMinutes"], detail["doorHoldMinutes"]) == (30, 5)
    update = {"storageId": cold_room["storage"], "storageName": "Cold Room A", "controllerGuid": cold_room["guid"]}
    changed = ok(client.put(f"{S}/ColdStorage/update", json={**update, "defrostHoldMinutes": 0}, headers=owner))
    assert (changed["defrostHoldMinutes"], changed["doorHoldMinutes"]) == (0, 5)  # omitted: kept
    refused = client.put(f"{S}/ColdStorage/update", json={**update, "doorHoldMinutes": 999}, headers=owner).get_json()
    assert refused["code"] == 422 and "doorHoldMinutes" in refused["data"]["errors"]
    send(client, cold_room, {"7": 1, "3": -3.0}, minutes=0.1)
    assert open_alarms(app, cold_room["controller"]) == {3}  # no defrost hold: raised at once
