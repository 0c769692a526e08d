"""Cloud control through the real paths: the api queues a command, the worker publishes it on
Mosquitto, the simulated cold-room controller applies it and acknowledges it, the ingest subscriber
marks it applied, and the controller's next records show the new setpoint and the compressor
reacting. Also the offline prompt, the refusals, and the rolling-MKT alarm."""

from __future__ import annotations

import threading
import time
import uuid
from datetime import timedelta

import pytest
from rq import Queue, SimpleWorker
from sqlalchemy import select

from api.audit.models import OperationLog
from api.device.models import Device
from api.extensions.db import db, utcnow
from api.extensions.mqtt import new_client
from api.jobs import QUEUES, redis_connection
from api.notify.models import OutboundMessage
from api.storage.control import check_mkt
from api.storage.controller import ColdRoomController, attach
from api.storage.models import StorageAlarm
from api.telemetry import simulator
from api.telemetry.mqtt import build_subscriber
from tests.api.device_helpers import guids, minutes_ago, owner, stranger, upload
from tests.api.test_mqtt import forget_session
from tests.api.test_storage import create, ok, room

# The broker is shared by the xdist workers: its tests run on one of them (tests/conftest.py).
pytestmark = pytest.mark.xdist_group("mqtt")

__all__ = ["guids", "owner", "room", "stranger"]

S = "/api/storage"


def run_jobs(app) -> None:
    with app.app_context():
        redis = redis_connection()
        SimpleWorker([Queue(name, connection=redis) for name in QUEUES], connection=redis).work(burst=True)


def wait_for(check, timeout: float = 40.0, every: float = 0.5):
    """Poll `check` until it returns something truthy (the controller reports every few seconds)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(every)
    raise AssertionError("condition not reached in time")


@pytest.fixture
def live_controller(app, room):
    """The room's controller simulated over Mosquitto (records every 2 s) and the ingest subscriber."""
    subscriber_id = f"test-ctl-ingest-{uuid.uuid4().hex[:8]}"
    subscriber = build_subscriber(app, subscriber_id)
    subscribed = threading.Event()
    subscriber.on_subscribe = lambda *_args: subscribed.set()
    subscriber.loop_start()
    assert subscribed.wait(10)
    # No scheduled defrost: its 20 minutes every six hours (00:00, 06:00, 12:00, 18:00 UTC) stop the
    # compressor, and the test would depend on the time of day it runs at.
    model = ColdRoomController(room["guid"], setpoint=-18.0, defrost_period=None)
    device = simulator.SimulatedDevice(
        room["guid"], room["key"], simulator.Profile("cold_room", -18.0), 2, utcnow(), model=model
    )
    with app.app_context():
        publisher = new_client(f"test-ctl-{uuid.uuid4().hex[:8]}")
    listening = threading.Event()
    publisher.on_subscribe = lambda *_args: listening.set()
    attach(publisher, [device])
    publisher.loop_start()
    assert listening.wait(10), "the controller did not subscribe to its commands"
    stop = threading.Event()

    def drive():
        sender = simulator.MqttSender(publisher)
        while not stop.is_set():
            simulator.run([device], sender, tick_s=0.5, stop_after=1, gaps=False)

    thread = threading.Thread(target=drive, daemon=True)
    thread.start()
    yield model
    stop.set()
    thread.join(5)
    publisher.loop_stop()
    publisher.disconnect()
    time.sleep(1)  # let the subscriber commit what is in flight
    subscriber.loop_stop()
    subscriber.disconnect()
    forget_session(app, subscriber_id)


def test_a_setpoint_reaches_the_controller_through_mosquitto_and_the_room_reacts(
    app, client, owner, room, live_controller
):
    storage = create(client, owner, room["guid"])
    sid = storage["id"]
    overview = lambda: ok(client.get(f"{S}/ColdStorage/overview?storageId={sid}", headers=owner))  # noqa: E731
    wait_for(lambda: overview()["setpoint"] == -18.0 and overview()["compressor"] is False)

    sent = ok(
        client.post(
            f"{S}/CloudControl/send", json={"storageId": sid, "action": "setpoint", "value": -25}, headers=owner
        )
    )
    assert sent["status"] == "pending" and sent["action"] == "setpoint"
    run_jobs(app)  # the worker publishes it on devices/{guid}/commands

    applied = wait_for(
        lambda: next(
            (
                c
                for c in ok(client.get(f"{S}/CloudControl/list?storageId={sid}", headers=owner))
                if c["status"] == "applied"
            ),
            None,
        )
    )
    assert applied["id"] == sent["id"] and applied["ackedAt"] and applied["operator"] == "demouser"
    assert live_controller.setpoint == -25.0
    after = wait_for(lambda: (lambda o: o if o["setpoint"] == -25.0 and o["compressor"] else None)(overview()))
    assert after["compressor"] is True  # the room is now 7 degrees too warm: the compressor runs
    params = {
        p["paramKey"]: p for p in ok(client.get(f"{S}/ColdStorage/params?storageId={sid}", headers=owner))["params"]
    }
    assert params["0201"]["value"] == -25 and params["0201"]["commandStatus"] == "applied"

    # stopping the compressor from the cloud stops it at the next record
    stop = ok(
        client.post(
            f"{S}/CloudControl/send", json={"storageId": sid, "action": "compressor", "value": 0}, headers=owner
        )
    )
    run_jobs(app)
    wait_for(lambda: overview()["compressor"] is False)
    assert live_controller.compressor_enabled is False
    with app.app_context():
        logged = db.session.scalars(
            select(OperationLog.path).where(OperationLog.path.contains("CloudControl/send"))
        ).all()
    assert len(logged) == 2, logged
    assert stop["id"] != sent["id"]


def test_an_offline_controller_asks_first_and_bad_commands_change_nothing(app, client, owner, room):
    storage = create(client, owner, room["guid"])
    sid = storage["id"]
    # the controller's last data is old: offline
    with app.app_context():
        from api.device.models import DeviceState

        state = db.session.get(DeviceState, room["controller"])
        state.offline_at = utcnow() - timedelta(minutes=1)
        db.session.commit()
    en = {**owner, "Accept-Language": "en-US"}
    asked = client.post(f"{S}/CloudControl/send", json={"storageId": sid, "action": "defrost"}, headers=en).get_json()
    assert asked["code"] == 3010 and "offline" in asked["msg"]
    for body, field in (
        ({"storageId": sid, "action": "setpoint"}, "value"),
        ({"storageId": sid, "action": "setpoint", "value": 99}, "value"),
        ({"storageId": sid, "action": "light", "value": 2}, "value"),
        ({"storageId": sid, "action": "open_door"}, "action"),
    ):
        response = client.post(f"{S}/CloudControl/send", json={**body, "confirmOffline": True}, headers=en)
        assert response.status_code == 422 and field in response.get_json()["msg"], response.get_json()
    assert ok(client.get(f"{S}/CloudControl/list?storageId={sid}", headers=owner)) == []
    confirmed = ok(
        client.post(
            f"{S}/CloudControl/send",
            json={"storageId": sid, "action": "defrost", "confirmOffline": True},
            headers=owner,
        )
    )
    assert confirmed["status"] == "pending" and confirmed["value"] == 1


def test_the_rolling_mkt_alarm_opens_and_closes(app, client, owner, room):
    storage = create(client, owner, room["guid"], mktEnabled=True, mktWindowHours=1, mktLimit=-19.0)
    sid = storage["id"]
    # room fixture: probes at -17.5, -18, -20.5, -16.8 one minute ago: MKT about -18.1 > -19
    with app.app_context():
        assert check_mkt() == 1
        assert check_mkt() == 0  # still the same alarm
    alarms = ok(client.post(f"{S}/ColdStorage/alarmPage", json={"storageId": sid}, headers=owner))
    assert [(a["kind"], a["status"], a["limitValue"]) for a in alarms["list"]] == [("mkt", "open", -19.0)]
    assert -18.5 < alarms["list"][0]["lastValue"] < -17.5
    overview = ok(client.get(f"{S}/ColdStorage/overview?storageId={sid}", headers=owner))
    assert overview["alarm"] is True and overview["mkt"] == alarms["list"][0]["lastValue"]
    # a cold hour brings it back under the limit
    cold = [{"ts": minutes_ago(m), "readings": {str(p): -30.0 for p in (1, 2, 3, 4)}} for m in range(2, 50, 2)]
    assert upload(client, room["guid"], room["key"], cold).status_code == 200
    with app.app_context():
        check_mkt()
        closed = db.session.scalars(select(StorageAlarm)).all()
    assert [a.status.value for a in closed] == ["closed"]


def test_the_controller_model_cycles_defrosts_and_obeys():
    from datetime import UTC, datetime

    model = ColdRoomController("9", setpoint=-18.0)
    start = datetime(2026, 11, 24, 1, 0, tzinfo=UTC)  # 09:00 in Shanghai
    states = [model.record(start + timedelta(minutes=m))["readings"] for m in range(0, 240)]
    running = [s["5"] for s in states]
    assert 0.1 < sum(running) / len(running) < 0.9, "the compressor cycles"
    assert all(-20.5 < s["2"] < -15.5 for s in states[30:])
    defrost = model.record(datetime(2026, 11, 24, 6, 5, tzinfo=UTC))["readings"]  # 06:05 UTC: a 6-hourly defrost
    assert defrost["7"] == 1 and defrost["5"] == 0 and defrost["3"] > defrost["2"]
    assert model.apply({"0205": 1, "0201": -22}) == (True, None)
    assert model.record(datetime(2026, 11, 24, 6, 30, tzinfo=UTC))["readings"]["11"] == 1
    assert model.apply({"09ff": 1})[0] is False


def test_an_mkt_alarm_is_sent_through_the_outbox_once_per_level_and_repeat(app, client, owner, room):
    storage = create(client, owner, room["guid"], mktEnabled=True, mktWindowHours=1, mktLimit=-19.0)
    sid = storage["id"]
    push = {
        "storageId": sid,
        "multiLevel": True,
        "channels": ["email", "sms"],
        "repeatCount": 1,
        "intervalMinutes": 10,
        "levels": [
            {"level": 1, "minutes": 0, "recipients": [{"name": "Ops", "email": "ops@example.com", "lang": "en-US"}]},
            {"level": 2, "minutes": 30, "recipients": [{"name": "QA", "phone": "13800138000"}]},
        ],
    }
    ok(client.post(f"{S}/ColdStorage/pushSetting/save", json=push, headers=owner))
    now = utcnow()
    with app.app_context():
        sms_before = db.session.get(Device, room["controller"]).sms_count
        assert check_mkt(now) == 1
        check_mkt(now)  # planned again: nothing twice
        rows = db.session.scalars(select(OutboundMessage).order_by(OutboundMessage.id)).all()
        alarm = db.session.scalars(select(StorageAlarm)).one()
        assert [(r.channel.value, r.recipient, r.dedupe_key) for r in rows] == [
            ("email", "ops@example.com", f"storage-alarm:{alarm.id}:L1:email:ops@example.com:R0")
        ]
        assert "Cold" in rows[0].subject and "MKT" in rows[0].subject
        assert "-19" in rows[0].body and "1 h" in rows[0].body
        check_mkt(now + timedelta(minutes=11))  # level 1's repeat
        check_mkt(now + timedelta(minutes=31))  # level 2: an SMS, from the controller's balance
        check_mkt(now + timedelta(minutes=32))
        keys = [r.dedupe_key for r in db.session.scalars(select(OutboundMessage).order_by(OutboundMessage.id))]
        assert keys == [
            f"storage-alarm:{alarm.id}:L1:email:ops@example.com:R0",
            f"storage-alarm:{alarm.id}:L1:email:ops@example.com:R1",
            f"storage-alarm:{alarm.id}:L2:sms:+8613800138000:R0",
        ]
        assert db.session.get(Device, room["controller"]).sms_count == sms_before - 1
    run_jobs(app)
    with app.app_context():
        statuses = {r.status.value for r in db.session.scalars(select(OutboundMessage))}
    assert statuses <= {"sent", "logged"}, statuses
