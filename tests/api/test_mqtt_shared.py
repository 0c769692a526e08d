"""Scale-out of MQTT ingestion (issue 27): two subscribers in one MQTT v5 shared-subscription group
($share/<group>/devices/+/telemetry) on the real Mosquitto split the messages between them, and
every message is stored exactly once."""

from __future__ import annotations

import json
import time
import uuid

import paho.mqtt.client as mqtt
import pytest
from sqlalchemy import func, select

from api.extensions.db import db
from api.telemetry.models import Reading, ReadingHourly
from api.telemetry.mqtt import build_subscriber
from tests.api.device_helpers import add, guids, minutes_ago, owner
from tests.api.test_mqtt import broker, forget_session

# The broker is shared by the xdist workers: its tests run on one of them (tests/conftest.py).
pytestmark = pytest.mark.xdist_group("mqtt")

__all__ = ["guids", "owner"]

MESSAGES = 200  # per device, one record of two readings each


def subscribed_member(app, client_id: str) -> mqtt.Client:
    subscribed = []
    client = build_subscriber(app, client_id)
    client.on_subscribe = lambda *args: subscribed.append(True)
    client.loop_start()
    deadline = time.monotonic() + 10
    while not subscribed and time.monotonic() < deadline:
        time.sleep(0.02)
    assert subscribed, f"{client_id} never subscribed"
    return client


@pytest.fixture
def two_subscribers(app):
    ids = [f"test-shared-{n}-{uuid.uuid4().hex[:8]}" for n in (1, 2)]
    members = [subscribed_member(app, client_id) for client_id in ids]
    yield members
    for member in members:
        member.loop_stop()
        member.disconnect()
    for client_id in ids:
        forget_session(app, client_id)


def totals(app, device_ids: list[int]) -> tuple[int, int]:
    with app.app_context():
        readings = db.session.scalar(select(func.count()).select_from(Reading).where(Reading.device_id.in_(device_ids)))
        rolled = db.session.scalar(
            select(func.coalesce(func.sum(ReadingHourly.count), 0)).where(ReadingHourly.device_id.in_(device_ids))
        )
        db.session.remove()
    return readings, rolled


def test_two_subscribers_split_the_messages_and_store_each_exactly_once(app, client, owner, guids, two_subscribers):
    devices = [guids["th_a"], guids["th_b"]]
    device_ids = [add(client, owner, guid, name=f"Fridge {guid[-4:]}") for guid, _key in devices]
    publisher = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"test-fleet-{uuid.uuid4().hex[:8]}")
    publisher.connect(*broker(app))
    publisher.loop_start()
    try:
        infos = []
        for i in range(MESSAGES):
            for guid, key in devices:
                record = {"ts": minutes_ago(300 - i), "readings": {"1": 4.0 + i % 3, "2": 55}}
                payload = json.dumps({"guid": guid, "key": key, "records": [record]})
                infos.append(publisher.publish(f"devices/{guid}/telemetry", payload, qos=1))
        for info in infos:
            info.wait_for_publish(timeout=10)
            assert info.is_published()
    finally:
        publisher.loop_stop()
        publisher.disconnect()
    expected_messages = MESSAGES * len(devices)
    ingestors = [member.ingestor for member in two_subscribers]
    deadline = time.monotonic() + 60
    while sum(i.messages for i in ingestors) < expected_messages and time.monotonic() < deadline:
        time.sleep(0.05)
    handled = [i.messages for i in ingestors]
    # Each message was handled by exactly one member: none lost, none handled twice.
    assert sum(handled) == expected_messages, handled
    # The broker split the load (Mosquitto hands shared messages round robin).
    assert min(handled) >= expected_messages // 4, handled
    # Every reading stored once, and the hourly rollup counted each once.
    assert totals(app, device_ids) == (expected_messages * 2, expected_messages * 2)
