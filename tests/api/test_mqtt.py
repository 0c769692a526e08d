"""MQTT ingestion through the real Mosquitto: QoS 1, credential and topic checks."""

from __future__ import annotations

import json
import time
import uuid

import paho.mqtt.client as mqtt
import pytest
from sqlalchemy import func, select

from api.extensions.db import db
from api.extensions.mqtt import broker_address
from api.telemetry.models import Reading
from api.telemetry.mqtt import build_subscriber
from tests.api.device_helpers import add, guids, minutes_ago, owner

# The broker is shared by the xdist workers: its tests run on one of them (tests/conftest.py).
pytestmark = pytest.mark.xdist_group("mqtt")

__all__ = ["guids", "owner"]


@pytest.fixture
def subscriber(app):
    client_id = f"test-ingest-{uuid.uuid4().hex[:8]}"
    client = build_subscriber(app, client_id)
    client.loop_start()
    time.sleep(0.5)  # subscribed
    yield client
    client.loop_stop()
    client.disconnect()
    forget_session(app, client_id)


def broker(app) -> tuple[str, int]:
    """The app's broker (MQTT_URL), so a private one can be used for the tests."""
    host, port, _user, _password = broker_address(app.config["MQTT_URL"])
    return host, port


def forget_session(app, client_id: str) -> None:
    """A persistent session outlives its client: end it, or the broker queues for it forever."""
    cleaner = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=True)
    cleaner.connect(*broker(app))
    cleaner.disconnect()


@pytest.fixture
def device_client(app):
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"test-device-{uuid.uuid4().hex[:8]}")
    client.connect(*broker(app))
    client.loop_start()
    yield client
    client.loop_stop()
    client.disconnect()


def publish(client, topic, payload):
    info = client.publish(topic, json.dumps(payload), qos=1)
    info.wait_for_publish(timeout=5)
    assert info.is_published()


def wait_for_readings(app, device_id, expected, timeout=10.0) -> int:
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


def test_readings_published_over_mqtt_are_stored(app, client, owner, guids, subscriber, device_client):
    guid, key = guids["th_a"]
    device_id = add(client, owner, guid)
    records = [{"ts": minutes_ago(10 - i), "readings": {"1": 4.0 + i, "2": 55}} for i in range(10)]
    publish(device_client, f"devices/{guid}/telemetry", {"guid": guid, "key": key, "records": records})
    publish(device_client, f"devices/{guid}/telemetry", {"guid": guid, "key": key, "records": records})  # re-sent
    assert wait_for_readings(app, device_id, 20) == 20
    time.sleep(0.5)
    assert wait_for_readings(app, device_id, 20) == 20  # duplicates dropped


def test_another_devices_topic_or_credential_is_dropped(app, client, owner, guids, subscriber, device_client):
    guid, key = guids["th_a"]
    other_guid, other_key = guids["th_b"]
    device_id = add(client, owner, guid)
    record = [{"ts": minutes_ago(1), "readings": {"1": 4.0}}]
    publish(device_client, f"devices/{guid}/telemetry", {"guid": other_guid, "key": other_key, "records": record})
    publish(device_client, f"devices/{guid}/telemetry", {"guid": guid, "key": other_key, "records": record})
    publish(device_client, f"devices/{guid}/telemetry", {"guid": guid, "records": record})
    publish(device_client, f"devices/{guid}/telemetry", "not json at all")
    # a good message afterwards proves the subscriber survived the bad ones
    publish(device_client, f"devices/{guid}/telemetry", {"guid": guid, "key": key, "records": record})
    assert wait_for_readings(app, device_id, 1) == 1
