"""The demo simulator runs through the real paths (MQTT and HTTP) and its readings arrive, for every
demo device."""

from __future__ import annotations

import threading
import uuid
from datetime import timedelta

import pytest
from sqlalchemy import func, select
from werkzeug.serving import make_server

from api import demo
from api.extensions.db import db, utcnow
from api.extensions.mqtt import new_client
from api.telemetry import simulator
from api.telemetry.models import Reading
from api.telemetry.mqtt import build_subscriber
from tests.api.test_mqtt import forget_session
from tests.reliability.scenarios import wait_until

# The broker is shared by the xdist workers: its tests run on one of them (tests/conftest.py).
pytestmark = pytest.mark.xdist_group("mqtt")

# The first tick sends each device's 30-minute backlog (6 records at the demo's 5-minute interval),
# the next ones what comes due meanwhile.
RUN_SECONDS = 3


def test_simulated_fleet_reaches_the_store_over_mqtt_and_http(app):
    with app.app_context():
        demo.seed(backfill=timedelta(0))
        fleet = demo.simulated_fleet()
        ids = dict(db.session.execute(select(demo.Device.guid, demo.Device.id)).all())
        for device in fleet:
            device.last_sent = utcnow() - timedelta(minutes=30)  # a backlog, as after a gap
    over_mqtt, over_http = fleet[: len(fleet) // 2], fleet[len(fleet) // 2 :]

    subscriber_id = f"test-sim-ingest-{uuid.uuid4().hex[:8]}"
    subscriber = build_subscriber(app, subscriber_id)
    # The first tick publishes each device's whole backlog at once; it must find the subscription.
    subscribed = threading.Event()
    subscriber.on_subscribe = lambda *_args: subscribed.set()
    subscriber.loop_start()
    assert subscribed.wait(10), "the ingest subscriber did not subscribe"
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    with app.app_context():
        publisher = new_client(f"test-sim-{uuid.uuid4().hex[:8]}")
    publisher.loop_start()
    sent = {}
    try:
        threads = [
            threading.Thread(
                target=lambda: sent.__setitem__(
                    "mqtt",
                    simulator.run(
                        over_mqtt, simulator.MqttSender(publisher), tick_s=1, stop_after=RUN_SECONDS, gaps=False
                    ),
                )
            ),
            threading.Thread(
                target=lambda: sent.__setitem__(
                    "http",
                    simulator.run(
                        over_http,
                        simulator.HttpSender(f"http://127.0.0.1:{server.server_port}", "localhost"),
                        tick_s=1,
                        stop_after=RUN_SECONDS,
                        gaps=False,  # every device must report: no daily silence now
                    ),
                )
            ),
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        publisher.loop_stop()
        publisher.disconnect()
        server.shutdown()

    def arrived() -> dict[int, int]:
        with app.app_context():
            counts = db.session.execute(select(Reading.device_id, func.count()).group_by(Reading.device_id)).all()
            db.session.remove()
        return dict(counts)

    try:
        # HTTP answered after its commits; what MQTT published may still be in the subscriber's batch.
        wait_until(lambda: all(arrived().get(ids[device.guid]) for device in fleet), timeout=30)
    finally:
        subscriber.loop_stop()
        subscriber.disconnect()
        forget_session(app, subscriber_id)
    assert sent["mqtt"] > 0 and sent["http"] > 0
    counts = arrived()
    for device in fleet:
        assert counts.get(ids[device.guid], 0) > 0, f"{device.guid} sent nothing that arrived"


class RecordingSender:
    def __init__(self):
        self.sent, self.polled = [], []

    def send(self, device, records):
        self.sent.append((device.guid, len(records)))
        return True

    def commands(self, device):
        self.polled.append(device.guid)


def test_pending_settings_are_taken_every_tick_even_with_nothing_to_send():
    """A connected logger answers a command at once, not only when its next record is due."""
    device = simulator.SimulatedDevice("1234", "key", simulator.Profile("fridge", 4.0), 300, utcnow())
    sender = RecordingSender()
    simulator.run([device], sender, tick_s=0.05, stop_after=0.3, gaps=False)
    assert sender.sent == []  # the next record is five minutes away
    assert len(sender.polled) >= 3


def test_a_backlog_is_sent_at_once():
    device = simulator.SimulatedDevice(
        "1234", "key", simulator.Profile("fridge", 4.0), 300, utcnow() - timedelta(minutes=30)
    )
    sender = RecordingSender()
    simulator.run([device], sender, tick_s=0.05, stop_after=0.1, gaps=False)
    assert sender.sent and sender.sent[0][1] >= 5
