"""Over-the-air upgrades through the real paths: the api issues the upgrade, the worker publishes the
command on Mosquitto, a simulated device reports downloading, installing and installed with its new
version (or fails), the ingest subscriber records every step. Staged rollouts advance group by group
and stop on failures above their threshold; a device that never confirms fails after the timeout
(the clock is injected: api.product.rollouts.advance takes `now`)."""

from __future__ import annotations

import threading
import uuid
from datetime import timedelta

import pytest
from sqlalchemy import select

from api.device.models import CommandStatus, Device, DeviceCommand
from api.extensions.db import db, utcnow
from api.extensions.mqtt import new_client
from api.product import rollouts
from api.telemetry.mqtt import build_subscriber
from api.telemetry.upgrader import FAILS, SILENT, WORKS, UpgradingDevice, attach_upgrades
from tests.api.test_mqtt import forget_session
from tests.api.test_storage_control import run_jobs, wait_for
from tests.api.upgrade_helpers import (
    ROLLOUT,
    detail,
    device_ack,
    issue,
    new_firmware,
    pending_upgrade,
    people,
    rollout,
    states,
    type_id,
)

# The broker is shared by the xdist workers: its tests run on one of them (tests/conftest.py).
pytestmark = pytest.mark.xdist_group("mqtt")

__all__ = ["people"]


@pytest.fixture
def broker_devices(app):
    """A subscriber (the ingest process) and a publisher playing simulated upgrading devices."""
    subscriber_id = f"test-ota-ingest-{uuid.uuid4().hex[:8]}"
    subscriber = build_subscriber(app, subscriber_id)
    subscribed = threading.Event()
    subscriber.on_subscribe = lambda *_args: subscribed.set()
    subscriber.loop_start()
    assert subscribed.wait(10)
    with app.app_context():
        publisher = new_client(f"test-ota-{uuid.uuid4().hex[:8]}")
    listening = threading.Event()
    publisher.on_subscribe = lambda *_args: listening.set()
    publisher.loop_start()

    def play(devices: list[UpgradingDevice]) -> None:
        listening.clear()
        attach_upgrades(publisher, devices)
        assert listening.wait(10), "the simulated devices did not subscribe to their commands"

    yield play
    publisher.loop_stop()
    publisher.disconnect()
    subscriber.loop_stop()
    subscriber.disconnect()
    forget_session(app, subscriber_id)


def test_an_upgrade_through_mosquitto_ends_installed_on_one_device_and_failed_on_another(app, people, broker_devices):
    (operator, op), _, _ = people
    firmware = new_firmware(operator, op, type_id(app), "2.1.0")
    (good_id, good_guid, good_key), (bad_id, bad_guid, bad_key) = issue(app, 2)
    good = UpgradingDevice(good_guid, good_key, "2.0.0", WORKS, step_s=0.2)
    bad = UpgradingDevice(bad_guid, bad_key, "2.0.0", FAILS, step_s=0.2)
    broker_devices([good, bad])

    issued = rollout(operator, op, firmware["id"], [good_id, bad_id])
    assert issued["counts"]["queued"] == 2 and issued["status"] == "running"
    run_jobs(app)  # the worker publishes both commands on devices/{guid}/commands

    def finished():
        found = states(operator, op, issued["id"])
        return found if found == {good_id: "installed", bad_id: "failed"} else None

    wait_for(finished, timeout=30, every=0.2)
    assert [r.get("progress") for r in good.reports] == ["downloading", "installing", None]
    assert good.reports[-1]["version"] == "2.1.0"
    result = detail(operator, op, issued["id"])
    assert result["status"] == "completed" and result["counts"]["installed"] == 1
    by_device = {t["deviceId"]: t for t in result["targets"]}
    assert by_device[good_id]["firmwareVersion"] == "2.1.0"
    assert by_device[bad_id]["error"] == "checksum mismatch" and by_device[bad_id]["firmwareVersion"] is None
    with app.app_context():
        assert db.session.get(Device, good_id).firmware_version == "2.1.0"
        commands = {c.device_id: c.status for c in db.session.scalars(select(DeviceCommand))}
        assert commands[good_id] == CommandStatus.APPLIED and commands[bad_id] == CommandStatus.FAILED

    # The failed device is retried: now it works.
    bad.behaviour = WORKS
    retried = operator.put(f"{ROLLOUT}/retry", headers=op, json={"rolloutId": issued["id"]}).get_json()["data"]
    assert retried["status"] == "running" and retried["counts"]["queued"] == 1
    run_jobs(app)
    wait_for(lambda: states(operator, op, issued["id"])[bad_id] == "installed", timeout=30, every=0.2)
    assert detail(operator, op, issued["id"])["status"] == "completed"


def test_a_device_that_never_confirms_fails_after_the_timeout(app, people, broker_devices):
    (operator, op), _, _ = people
    firmware = new_firmware(operator, op, type_id(app))
    [(device_id, guid, key)] = issue(app, 1)
    silent = UpgradingDevice(guid, key, None, SILENT, step_s=0.1)
    broker_devices([silent])
    issued = rollout(operator, op, firmware["id"], [device_id])
    run_jobs(app)
    wait_for(lambda: states(operator, op, issued["id"])[device_id] == "downloading", timeout=30, every=0.2)
    with app.app_context():
        rollouts.advance(utcnow() + rollouts.UPGRADE_TIMEOUT - timedelta(seconds=5))
    assert states(operator, op, issued["id"])[device_id] == "downloading"
    with app.app_context():
        rollouts.advance(utcnow() + rollouts.UPGRADE_TIMEOUT + timedelta(seconds=1))
    result = detail(operator, op, issued["id"])
    assert result["targets"][0]["state"] == "failed" and "10 minutes" in result["targets"][0]["error"]
    assert result["status"] == "completed"
    with app.app_context():
        command = db.session.scalar(select(DeviceCommand).where(DeviceCommand.device_id == device_id))
        assert command.status == CommandStatus.FAILED  # withdrawn from the downlink too


def answer_all(client, devices, ok: bool = True, version: str = "2.0.0") -> int:
    """Every device with a pending upgrade reports it (over HTTP, as a device without MQTT)."""
    pending = [(guid, key, pending_upgrade(client, guid, key)) for _device_id, guid, key in devices]
    answered = 0
    for guid, key, command in pending:  # those pending now (an answer may start the next group's)
        if command is None:
            continue
        device_ack(client, guid, key, command["id"], progress="downloading")
        device_ack(client, guid, key, command["id"], progress="installing")
        if ok:
            device_ack(client, guid, key, command["id"], version=version)
        else:
            device_ack(client, guid, key, command["id"], ok=False, error="flash write error")
        answered += 1
    return answered


def test_a_staged_rollout_advances_group_by_group_at_its_rate(app, people, client):
    (operator, op), _, _ = people
    firmware = new_firmware(operator, op, type_id(app))
    devices = issue(app, 10)
    issued = rollout(
        operator,
        op,
        firmware["id"],
        [d for d, _, _ in devices],
        stages=[10, 50, 100],
        failureThreshold=20,
        ratePerMinute=3,
    )
    assert [g["devices"] for g in issued["groups"]] == [1, 4, 5]
    assert issued["counts"]["queued"] == 1 and issued["counts"]["waiting"] == 9 and issued["currentStage"] == 0
    assert answer_all(client, devices) == 1
    after_first = detail(operator, op, issued["id"])
    # The first group succeeded: the second starts, at most three devices a minute (the rate, which the
    # first device's upgrade of this minute counts in); the rest a minute later.
    assert after_first["currentStage"] == 1 and after_first["counts"]["queued"] == 2
    assert after_first["groups"][1]["counts"] == {"queued": 2, "waiting": 2}
    with app.app_context():
        assert rollouts.advance(utcnow() + timedelta(seconds=30)) == 0  # still within the minute
        assert rollouts.advance(utcnow() + timedelta(seconds=61)) == 2
    assert detail(operator, op, issued["id"])["groups"][2]["counts"] == {"waiting": 5}  # the last waits its turn
    assert answer_all(client, devices) == 4
    result = detail(operator, op, issued["id"])
    assert result["currentStage"] == 2 and result["counts"]["installed"] == 5
    for minutes, sent in ((3, 3), (5, 2)):  # the last group: three, then two a few minutes later
        with app.app_context():
            assert rollouts.advance(utcnow() + timedelta(minutes=minutes)) == sent
        assert answer_all(client, devices) == sent
    result = detail(operator, op, issued["id"])
    assert result["status"] == "completed" and result["counts"]["installed"] == 10
    with app.app_context():
        versions = set(
            db.session.scalars(select(Device.firmware_version).where(Device.id.in_([d for d, _, _ in devices])))
        )
    assert versions == {"2.0.0"}


def test_a_staged_rollout_stops_by_itself_when_failures_pass_the_threshold(app, people, client):
    (operator, op), _, _ = people
    firmware = new_firmware(operator, op, type_id(app))
    devices = issue(app, 10)
    issued = rollout(
        operator,
        op,
        firmware["id"],
        [d for d, _, _ in devices],
        stages=[20, 100],
        failureThreshold=40,
        ratePerMinute=100,
    )
    assert issued["counts"]["queued"] == 2
    first, second = [d for d in devices if pending_upgrade(client, d[1], d[2]) is not None]
    answer_all(client, [first], ok=False)  # 1 of 2 sent failed: 50 % > 40 %
    result = detail(operator, op, issued["id"])
    assert result["status"] == "stopped" and "threshold" in result["stopReason"]
    answer_all(client, [second])  # a device already on its way still finishes
    result = detail(operator, op, issued["id"])
    assert result["status"] == "stopped" and result["counts"] == {
        "waiting": 8,
        "queued": 0,
        "downloading": 0,
        "installing": 0,
        "installed": 1,
        "failed": 1,
    }
    with app.app_context():
        assert rollouts.advance(utcnow() + timedelta(minutes=30)) == 0  # stopped: nothing more is sent
    assert all(pending_upgrade(client, guid, key) is None for _, guid, key in devices)
    # Retrying the failed device runs the rollout again; once it succeeds the next group starts.
    retried = operator.put(f"{ROLLOUT}/retry", headers=op, json={"rolloutId": issued["id"], "deviceIds": [first[0]]})
    assert retried.get_json()["data"]["status"] == "running"
    answer_all(client, [first])
    result = detail(operator, op, issued["id"])
    assert result["currentStage"] == 1 and result["counts"]["queued"] == 8
