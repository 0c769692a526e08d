"""Simulated firmware upgrades for `flask simulate` and the tests: a device that takes an upgrade
command from devices/{guid}/commands (params {"firmware": {...}}), reports `downloading`, then
`installing`, then installed with the new version on devices/{guid}/acks, the way a real logger
does over its ten minutes; or one that fails (the download's checksum does not match) or never
answers (the platform fails it after its timeout).

Other commands on the topic go on to the client's own on_message (the cold-room controllers)."""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

log = logging.getLogger(__name__)

WORKS, FAILS, SILENT = "works", "fails", "silent"


@dataclass
class UpgradingDevice:
    guid: str
    key: str
    version: str | None = None
    behaviour: str = WORKS  # works | fails | silent
    step_s: float = 5.0  # seconds between the reported steps (a real device: minutes)
    reports: list[dict] = field(default_factory=list)  # what it sent, for tests and logs

    def upgrade(self, command_id: int, firmware: dict, send: Callable[[dict], None]) -> None:
        """Play the upgrade in a thread of its own (the network loop must not wait)."""

        def ack(**fields) -> None:
            body = {"guid": self.guid, "key": self.key, "commandId": command_id, **fields}
            self.reports.append(body)
            send(body)

        def run() -> None:
            stop = threading.Event()
            if self.behaviour == SILENT:
                ack(ok=True, progress="downloading")
                return
            ack(ok=True, progress="downloading")
            stop.wait(self.step_s)
            if self.behaviour == FAILS:
                ack(ok=False, error="checksum mismatch")
                return
            ack(ok=True, progress="installing")
            stop.wait(self.step_s)
            self.version = str(firmware.get("version"))
            ack(ok=True, version=self.version)

        threading.Thread(target=run, name=f"upgrade-{self.guid}", daemon=True).start()


def attach_upgrades(client, devices: list[UpgradingDevice]) -> None:
    """Answer the upgrade commands of `devices` on the MQTT client; other messages on their command
    topics reach the client's on_message as before. Subscribes now and on every reconnect."""
    by_guid = {device.guid: device for device in devices}
    topics = [(f"devices/{guid}/commands", 1) for guid in by_guid]

    def on_command(client, userdata, message) -> None:
        device = by_guid.get(message.topic.split("/")[1])
        try:
            body = json.loads(message.payload)
            command_id, firmware = int(body["commandId"]), body["params"].get("firmware")
        except (ValueError, KeyError, TypeError, AttributeError):
            firmware, command_id = None, None
        if device is None or not isinstance(firmware, dict):
            if client.on_message is not None:
                client.on_message(client, userdata, message)
            return
        log.info("simulated device %s: upgrading to %s (%s)", device.guid, firmware.get("version"), device.behaviour)
        device.upgrade(
            command_id, firmware, lambda ack: client.publish(f"devices/{device.guid}/acks", json.dumps(ack), qos=1)
        )

    client.message_callback_add("devices/+/commands", on_command)
    previous = client.on_connect

    def on_connect(client, *args) -> None:
        if previous is not None:
            previous(client, *args)
        client.subscribe(topics)

    client.on_connect = on_connect
    if client.is_connected():
        client.subscribe(topics)


def upgrading_fleet(devices, failing: set[str], step_s: float = 20.0) -> list[UpgradingDevice]:
    """The simulated fleet as upgrading devices: each upgrades, except those of `failing` (GUIDs)."""
    return [
        UpgradingDevice(d.guid, d.key, behaviour=FAILS if d.guid in failing else WORKS, step_s=step_s) for d in devices
    ]
