"""Poison messages through the real Mosquitto (issue 15): 100 deeply nested messages to random
devices' topics, then non-JSON, bad UTF-8 and a 400-digit reading, and the subscriber still stores
the valid telemetry that follows. Uses the broker of the app's MQTT_URL (a private one can be given
with MQTT_URL, so other subscribers on a shared broker never see these messages)."""

from __future__ import annotations

import json
import random
import time
import uuid

import paho.mqtt.client as mqtt
import pytest
from sqlalchemy import func, select

from api.extensions.db import db
from api.telemetry import mqtt as ingest_mqtt
from api.telemetry.models import Reading
from tests.api.device_helpers import add, guids, minutes_ago, owner
from tests.api.test_mqtt import broker, forget_session

# The broker is shared by the xdist workers: its tests run on one of them (tests/conftest.py).
pytestmark = pytest.mark.xdist_group("mqtt")

__all__ = ["guids", "owner"]

POISON = 100


@pytest.fixture
def subscriber(app):
    client_id = f"test-poison-{uuid.uuid4().hex[:8]}"
    subscribed = []
    client = ingest_mqtt.build_subscriber(app, client_id)
    client.on_subscribe = lambda *args: subscribed.append(True)
    client.loop_start()
    deadline = time.monotonic() + 10
    while not subscribed and time.monotonic() < deadline:
        time.sleep(0.05)
    assert subscribed, "the subscriber never subscribed"
    yield client
    client.loop_stop()
    client.disconnect()
    forget_session(app, client_id)


@pytest.fixture
def device_client(app):
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"test-poisoner-{uuid.uuid4().hex[:8]}")
    client.connect(*broker(app))
    client.loop_start()
    yield client
    client.loop_stop()
    client.disconnect()


def send(client, topic: str, payload: bytes | str) -> None:
    info = client.publish(topic, payload, qos=1)
    info.wait_for_publish(timeout=10)
    assert info.is_published()


def readings_of(app, device_id: int, expected: int, timeout: float = 30.0) -> int:
    deadline = time.monotonic() + timeout
    count = 0
    while time.monotonic() < deadline:
        with app.app_context():
            count = db.session.scalar(select(func.count()).select_from(Reading).where(Reading.device_id == device_id))
            db.session.remove()
        if count >= expected:
            return count
        time.sleep(0.1)
    return count


def test_poison_messages_are_acknowledged_dropped_and_counted_and_ingestion_goes_on(
    app, client, owner, guids, subscriber, device_client
):
    guid, key = guids["th_a"]
    device_id = add(client, owner, guid)
    before = ingest_mqtt.dropped.copy()
    deep = ("[" * 5000 + "]" * 5000).encode()
    for _ in range(POISON):
        random_guid = "".join(random.choices("0123456789", k=18))
        send(device_client, f"devices/{random_guid}/telemetry", deep)
    send(device_client, f"devices/{guid}/telemetry", b"not json at all")
    send(device_client, f"devices/{guid}/telemetry", b"\xff\xfe\x00{")
    huge = '{"guid": "%s", "key": "%s", "records": [{"ts": %d, "readings": {"1": 1%s}}]}' % (  # noqa: UP031
        guid,
        key,
        minutes_ago(2),
        "0" * 400,
    )
    send(device_client, f"devices/{guid}/telemetry", huge)
    valid = {"guid": guid, "key": key, "records": [{"ts": minutes_ago(1), "readings": {"1": 4.0, "2": 55}}]}
    send(device_client, f"devices/{guid}/telemetry", json.dumps(valid))
    # Stored after all the poison: the broker sends at most 20 unacknowledged QoS 1 messages to a
    # subscriber (Mosquitto's in-flight window), so this also proves every poison message was acknowledged.
    assert readings_of(app, device_id, 2) == 2
    deadline = time.monotonic() + 10
    while ingest_mqtt.dropped["records refused"] - before["records refused"] < 1 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert ingest_mqtt.dropped["json limit"] - before["json limit"] == POISON
    assert ingest_mqtt.dropped["not json"] - before["not json"] == 2
    assert ingest_mqtt.dropped["records refused"] - before["records refused"] == 1  # the 400-digit reading
