"""Provincial data interface: a connector uploads each finished interval of its mapped devices' and
storages' readings once, signed, to a local fake supervision platform that checks the signature;
retries with backoff; survives a worker killed mid-send; a disabled connector sends nothing."""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
from datetime import timedelta

import pytest
from sqlalchemy import delete, func, select, update

from api.datainterface import delivery
from api.datainterface.demo import seed_connector
from api.datainterface.jobs import tick_connectors
from api.datainterface.models import Connector, ConnectorDelivery, DeliveryStatus
from api.extensions.db import db, utcnow
from api.identity.models import Account
from tests.api.device_helpers import add, guids, owner, stranger, upload
from tests.fakes import ProvincialReceiver

__all__ = ["guids", "owner", "stranger"]

DI = "/api/dataInterface"
S = "/api/storage"


def ok(response):
    body = response.get_json()
    assert response.status_code == 200 and body["code"] == 0, body
    return body["data"]


@pytest.fixture
def receiver(app, monkeypatch):
    # The fake listens on 127.0.0.1, which TestConfig lists in OUTBOUND_ALLOWED_HOSTS.
    with ProvincialReceiver() as fake:
        yield fake


@pytest.fixture
def windows():
    """Three finished 5-minute intervals, the oldest first, ending 5 to 10 minutes ago."""
    end = delivery.align(utcnow(), 5) - timedelta(minutes=5)
    return [(end - timedelta(minutes=5 * (3 - i)), end - timedelta(minutes=5 * (2 - i))) for i in range(3)]


@pytest.fixture
def setup(app, client, guids, owner, receiver, windows):
    """The owner's logger (mapped as a device) and cold room (mapped as a storage), with one reading
    per interval each, and an enabled connector whose log starts at the first interval."""
    th_guid, th_key = guids["th_a"]
    room_guid, room_key = guids["cold_room"]
    logger = add(client, owner, th_guid, name="Vaccine Fridge")
    add(client, owner, room_guid, name="Cold Room")
    storage = ok(
        client.post(
            f"{S}/ColdStorage/insert", json={"storageName": "Room A", "controllerGuid": room_guid}, headers=owner
        )
    )
    for index, (start, _end) in enumerate(windows):
        ts = int((start + timedelta(minutes=2)).timestamp() * 1000)
        assert upload(client, th_guid, th_key, [{"ts": ts, "readings": {"1": 4.0 + index}}]).status_code == 200
        assert upload(client, room_guid, room_key, [{"ts": ts, "readings": {"1": -18.0 - index}}]).status_code == 200
    connector = ok(
        client.post(
            f"{DI}/Connector/insert",
            json={
                "name": "Zhejiang vaccine platform",
                "endpoint": f"{receiver.url}/api/coldchain/upload",
                "appId": receiver.app_id,
                "secret": receiver.secret,
                "intervalMinutes": 5,
                "enabled": True,
            },
            headers=owner,
        )
    )
    items = [
        {"targetType": "device", "targetId": logger, "equipmentCode": "ZJ-FRIDGE-01"},
        {"targetType": "storage", "targetId": storage["id"], "equipmentCode": "ZJ-ROOM-A"},
    ]
    ok(
        client.put(
            f"{DI}/Connector/mapping", json={"connectorId": connector["connectorId"], "items": items}, headers=owner
        )
    )
    with app.app_context():
        db.session.execute(update(Connector).values(cursor=windows[0][0]))
        db.session.commit()
    return {"connector": connector["connectorId"], "logger": logger, "storage": storage["id"]}


def log_rows(client, headers, connector_id, **query):
    return ok(client.post(f"{DI}/Delivery/queryPage", json={"connectorId": connector_id, **query}, headers=headers))


def test_every_interval_reaches_the_receiver_exactly_once_signed(
    app, client, owner, setup, receiver, windows, run_jobs
):
    with app.app_context():
        tick_connectors()
    run_jobs()
    with app.app_context():
        tick_connectors()  # the next tick finds nothing new to send
        batches = set(db.session.scalars(select(ConnectorDelivery.batch_no)))
    run_jobs()
    assert batches and set(receiver.batches) == batches
    assert sorted(receiver.posts) == sorted(batches)  # each once, nothing twice
    firsts = [receiver.batches[delivery.batch_number(setup["connector"], start)] for start, _ in windows]
    assert [[(r["equipmentCode"], r["sensor"], r["value"]) for r in upload["records"]] for upload in firsts] == [
        [("ZJ-FRIDGE-01", 1, 4.0), ("ZJ-ROOM-A", 1, -18.0)],
        [("ZJ-FRIDGE-01", 1, 5.0), ("ZJ-ROOM-A", 1, -19.0)],
        [("ZJ-FRIDGE-01", 1, 6.0), ("ZJ-ROOM-A", 1, -20.0)],
    ]
    assert firsts[0]["records"][0]["unit"] == "°C"
    page = log_rows(client, owner, setup["connector"])
    assert page["total"] == len(batches)
    assert {row["status"] for row in page["list"]} == {"accepted"}
    assert page["list"][-1]["recordCount"] == 2 and page["list"][-1]["remoteMessage"] == "ok"


def test_a_worker_killed_mid_send_is_taken_over_and_the_province_keeps_the_batch_once(app, setup, receiver):
    receiver.hold = threading.Event()
    with app.app_context():
        first = delivery.schedule()[0]
        batch = db.session.get(ConnectorDelivery, first).batch_no

    def worker():
        with app.app_context():
            db.engine.dispose(close=False)  # the parent's pooled connections stay the parent's
            delivery.send(first)

    process = multiprocessing.get_context("fork").Process(target=worker)
    process.start()
    assert receiver.arrived.wait(timeout=30), "the worker never reached the province"
    os.kill(process.pid, signal.SIGKILL)  # killed after the request left, before it recorded the answer
    process.join()
    receiver.hold.set()
    assert receiver.wait_answered(1)  # the province kept the batch the killed worker sent
    receiver.hold = None
    with app.app_context():
        row = db.session.get(ConnectorDelivery, first)
        assert row.status == DeliveryStatus.SENDING and row.attempts == 1
        # While the dead worker's lease runs, nobody sends the interval again.
        assert delivery.send(first) is None and first not in delivery.due(utcnow())
        later = utcnow() + delivery.LEASE + timedelta(seconds=1)
        assert first in delivery.due(later)
        assert delivery.send(first, now=later) == DeliveryStatus.ACCEPTED
        db.session.expire_all()
        row = db.session.get(ConnectorDelivery, first)
        assert row.attempts == 2 and row.remote_message == "duplicate batch, already received"
    assert receiver.posts.count(batch) == 2 and list(receiver.batches).count(batch) == 1


def test_a_worker_killed_before_sending_sends_once_after_the_lease(app, setup, receiver):
    with app.app_context():
        first = delivery.schedule()[0]
        assert delivery._claim(first, utcnow()) == 1  # claimed and committed, then the worker died
        assert delivery.send(first) is None
        assert delivery.send(first, now=utcnow() + delivery.LEASE + timedelta(seconds=1)) == DeliveryStatus.ACCEPTED
    assert len(receiver.posts) == 1


def test_a_refusal_is_logged_with_the_remote_message(app, client, owner, setup, receiver):
    receiver.refuse_with = "设备编码 ZJ-ROOM-A 未备案"
    with app.app_context():
        for delivery_id in delivery.schedule():
            assert delivery.send(delivery_id) == DeliveryStatus.REFUSED
        assert delivery.due(utcnow() + timedelta(days=1)) == []  # a refusal is final: not retried
    rows = log_rows(client, owner, setup["connector"], status="refused")["list"]
    assert rows and all(r["remoteMessage"] == "设备编码 ZJ-ROOM-A 未备案" and r["remoteCode"] == "2001" for r in rows)
    assert receiver.batches == {}


def test_a_wrong_secret_is_refused_by_the_signature_check(app, client, owner, setup, receiver):
    ok(
        client.put(
            f"{DI}/Connector/update",
            json={"connectorId": setup["connector"], "secret": "not-the-secret"},
            headers=owner,
        )
    )
    with app.app_context():
        first = delivery.schedule()[0]
        assert delivery.send(first) == DeliveryStatus.REFUSED
    row = log_rows(client, owner, setup["connector"], status="refused")["list"][0]
    assert row["remoteMessage"] == "signature mismatch"
    assert receiver.posts == []  # the province dropped it before reading the batch


def test_server_errors_are_retried_with_backoff_then_fail(app, setup, receiver):
    receiver.fail_next = 2
    with app.app_context():
        first = delivery.schedule()[0]
        now = utcnow()
        assert delivery.send(first, now=now) == DeliveryStatus.PENDING
        assert delivery.send(first, now=now + timedelta(seconds=30)) is None  # not due before its backoff
        assert delivery.send(first, now=now + timedelta(minutes=1)) == DeliveryStatus.PENDING
        row = db.session.get(ConnectorDelivery, first)
        assert row.next_attempt_at == now + timedelta(minutes=1) + timedelta(minutes=2)
        assert delivery.send(first, now=now + timedelta(minutes=3)) == DeliveryStatus.ACCEPTED
        receiver.fail_next = delivery.MAX_ATTEMPTS
        second = delivery.due(now)[0]
        moment = now
        for attempt in range(1, delivery.MAX_ATTEMPTS + 1):
            status = delivery.send(second, now=moment)
            moment += delivery.backoff(attempt)
        assert status == DeliveryStatus.FAILED
        assert db.session.get(ConnectorDelivery, second).remote_message == "service busy"


def test_a_disabled_connector_sends_nothing(app, client, owner, setup, receiver):
    with app.app_context():
        pending = delivery.schedule()
    ok(client.put(f"{DI}/Connector/update", json={"connectorId": setup["connector"], "enabled": False}, headers=owner))
    with app.app_context():
        later = utcnow() + timedelta(hours=1)
        assert delivery.schedule(later) == []
        assert all(delivery.send(delivery_id, now=later) is None for delivery_id in pending)
        assert db.session.scalar(select(func.count()).select_from(ConnectorDelivery)) == len(pending)
    assert receiver.posts == []


def test_the_secret_is_write_only_and_connectors_are_their_owners(client, owner, stranger, setup):
    listed = ok(client.get(f"{DI}/Connector/list", headers=owner))
    assert listed[0]["secretSet"] is True and "secret" not in listed[0] and listed[0]["mappingCount"] == 2
    connector = setup["connector"]
    assert client.get(f"{DI}/Connector/list", headers=stranger).get_json()["data"] == []
    assert (
        client.put(
            f"{DI}/Connector/update", json={"connectorId": connector, "enabled": False}, headers=stranger
        ).status_code
        == 404
    )
    assert client.post(f"{DI}/Delivery/queryPage", json={"connectorId": connector}, headers=stranger).status_code == 404
    assert client.get(f"{DI}/Connector/mapping?connectorId={connector}", headers=stranger).status_code == 404
    assert client.get(f"{DI}/Connector/list").status_code == 401


def test_mapping_takes_own_targets_each_once(client, owner, stranger, setup, guids):
    connector = setup["connector"]
    other = add(client, stranger, guids["th_b"][0], name="Not yours")
    body = client.put(
        f"{DI}/Connector/mapping",
        json={"connectorId": connector, "items": [{"targetType": "device", "targetId": other, "equipmentCode": "X1"}]},
        headers=owner,
    ).get_json()
    assert body["code"] == 422 and "items.0.targetId" in body["msg"]
    twice = [
        {"targetType": "device", "targetId": setup["logger"], "equipmentCode": "X1"},
        {"targetType": "storage", "targetId": setup["storage"], "equipmentCode": "X1"},
    ]
    body = client.put(
        f"{DI}/Connector/mapping", json={"connectorId": connector, "items": twice}, headers=owner
    ).get_json()
    assert body["code"] == 422 and "items.1.equipmentCode" in body["msg"]
    mapped = ok(client.get(f"{DI}/Connector/mapping?connectorId={connector}", headers=owner))
    assert [(m["targetName"], m["equipmentCode"]) for m in mapped] == [
        ("Vaccine Fridge", "ZJ-FRIDGE-01"),
        ("Room A", "ZJ-ROOM-A"),
    ]
    names = {t["targetName"] for t in ok(client.get(f"{DI}/Connector/targets", headers=owner))}
    assert {"Vaccine Fridge", "Room A"} <= names and "Not yours" not in names


@pytest.mark.parametrize(
    ("field", "value"),
    [("endpoint", "ftp://province.example/upload"), ("intervalMinutes", 7), ("secret", "short"), ("appId", "")],
)
def test_bad_connector_input_names_the_field(client, owner, field, value):
    payload = {
        "name": "P",
        "endpoint": "https://province.example/upload",
        "appId": "A1",
        "secret": "12345678",
        field: value,
    }
    body = client.post(f"{DI}/Connector/insert", json=payload, headers=owner).get_json()
    assert body["code"] == 422 and field in body["msg"], body


def test_the_cli_catches_up_in_process(app, setup, receiver):
    result = app.test_cli_runner().invoke(args=["data-interface-send"])
    assert result.exit_code == 0, result.output
    assert "accepted: " in result.output
    with app.app_context():
        assert set(receiver.batches) == set(db.session.scalars(select(ConnectorDelivery.batch_no)))
    assert app.test_cli_runner().invoke(args=["data-interface-send"]).output.strip() == "nothing due"


def test_the_demo_connector_is_mapped_and_off(app, setup):
    with app.app_context():
        owner_id = db.session.scalar(select(Connector.owner_account_id))
        db.session.execute(delete(Connector))
        db.session.commit()
        seed_connector(db.session.get(Account, owner_id))
        seed_connector(db.session.get(Account, owner_id))  # again: still one
        connector = db.session.scalar(select(Connector))
        assert db.session.scalar(select(func.count()).select_from(Connector)) == 1 and not connector.enabled
        assert sorted(m.equipment_code for m in connector.mappings) == ["ZJ330100-CR-0001", "ZJ330100-FRG-0001"]
