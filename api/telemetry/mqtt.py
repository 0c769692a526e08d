"""MQTT: the ingest subscriber (`flask ingest mqtt`); the broker connection is api/extensions/mqtt.py.

Topics: devices/{guid}/telemetry (device -> platform, QoS 1), devices/{guid}/acks (command results),
devices/{guid}/commands (platform -> device). The broker is not trusted to authenticate devices:
every message carries the device's GUID and credential, checked against the topic's GUID. The
subscriber keeps a persistent session and acknowledges a message only after its batch committed,
so a crash redelivers instead of losing readings (and re-sent readings are dropped as duplicates).
"""

from __future__ import annotations

import logging
import multiprocessing
import signal
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from queue import Empty, SimpleQueue

import paho.mqtt.client as mqtt
from flask import Flask
from sqlalchemy.exc import DBAPIError

from api.device.guids import well_formed
from api.device.services import acknowledge_command
from api.extensions import jsonlimits
from api.extensions.bounds import INT_MAX
from api.extensions.db import database_away, db
from api.extensions.heap import freeze_startup_heap
from api.extensions.mqtt import new_client
from api.telemetry import device_auth
from api.telemetry.device_auth import IngestedDevice
from api.telemetry.ingest import DeviceRefusedError, IngestResult, ingest, ingest_many

log = logging.getLogger(__name__)
# Messages (and refused records) dropped by this process, by reason; logged one by one as well.
dropped: Counter[str] = Counter()
TELEMETRY = "devices/+/telemetry"
TRIES = 3  # a batch or message that meets a deadlock is tried again this often
ACKS = "devices/+/acks"


def _drop(topic: str, reason: str, detail: str = "") -> None:
    dropped[reason] += 1
    log.warning("MQTT %r: dropped (%s%s)", topic, reason, f": {detail}" if detail else "")


def _decode(topic: str, payload: bytes) -> tuple[str, str, dict] | None:
    """(guid, kind, body) of a well-formed message, else None (dropped, logged and counted)."""
    parts = topic.split("/")
    if len(parts) != 3 or not well_formed(parts[1]):
        _drop(topic, "bad topic")
        return None
    try:
        body = jsonlimits.loads(payload)
    except jsonlimits.JsonLimitError as exc:
        _drop(topic, "json limit", exc.reason)
        return None
    except ValueError as exc:  # not UTF-8, not JSON, a number beyond Python's parser
        _drop(topic, "not json", type(exc).__name__)
        return None
    if not isinstance(body, dict):
        _drop(topic, "not an object")
        return None
    return parts[1], parts[2], body


def _refused_records(topic: str, result: IngestResult) -> None:
    if result.rejected:
        dropped["records refused"] += len(result.rejected)
        log.info("MQTT %s: %d records refused: %s", topic, len(result.rejected), result.rejected[:3])


def _transient(exc: Exception) -> bool:
    """A deadlock or serialization failure: the same work succeeds when tried again."""
    return isinstance(exc, DBAPIError) and getattr(exc.orig, "sqlstate", None) in ("40P01", "40001")


def handle_message(topic: str, payload: bytes) -> IngestResult | None:
    """Verify and ingest one message (inside an app context). A message that cannot be parsed or
    verified is logged, counted in `dropped` and dropped (the caller acknowledges it all the same)."""
    decoded = _decode(topic, payload)
    if decoded is None:
        return None
    guid, kind, body = decoded
    device = device_auth.authenticate(body.get("guid"), body.get("key"))
    if device is None or device.guid != guid:
        _drop(topic, "bad credential or another device's topic")
        return None
    if kind == "acks":
        command_id, error = body.get("commandId"), body.get("error")
        if isinstance(command_id, bool) or not isinstance(command_id, int) or not 0 < command_id <= INT_MAX:
            _drop(topic, "bad command id")
            return None
        progress, version = body.get("progress"), body.get("version")
        acknowledge_command(
            device.id,
            command_id,
            bool(body.get("ok")),
            error if isinstance(error, str) else None,
            progress if isinstance(progress, str) else None,
            version if isinstance(version, str) else None,
        )
        return None
    try:
        result = ingest(device, body.get("records"))
    except DeviceRefusedError as exc:
        _drop(topic, "device refused", exc.reason)
        return None
    _refused_records(topic, result)
    return result


def handle_messages(messages: list[tuple[str, bytes]]) -> int:
    """Verify and ingest many messages (inside an app context) with one query for their devices and
    one transaction per round (a round holds at most one message per device, in arrival order);
    command results go one by one. Returns the number of duplicate readings. Drops as above."""
    telemetry: list[tuple[str, str, dict]] = []
    for topic, payload in messages:
        decoded = _decode(topic, payload)
        if decoded is None:
            continue
        if decoded[1] == "acks":
            handle_message(topic, payload)
        else:
            telemetry.append((topic, *decoded))
    devices = device_auth.authenticate_many([(body.get("guid"), body.get("key")) for _t, _g, _k, body in telemetry])
    rounds: list[dict[int, tuple[str, IngestedDevice, dict]]] = []
    for (topic, guid, _kind, body), device in zip(telemetry, devices, strict=True):
        if device is None or device.guid != guid:
            _drop(topic, "bad credential or another device's topic")
            continue
        free = next((r for r in rounds if device.id not in r), None)
        if free is None:
            free = {}
            rounds.append(free)
        free[device.id] = (topic, device, body)
    duplicates = 0
    for batch in rounds:
        items = list(batch.values())
        outcomes = ingest_many([(device, body.get("records")) for _topic, device, body in items])
        for (topic, _device, _body), outcome in zip(items, outcomes, strict=True):
            if isinstance(outcome, DeviceRefusedError):
                _drop(topic, "device refused", outcome.reason)
            else:
                duplicates += outcome.duplicates
                _refused_records(topic, outcome)
    return duplicates


def shared(topic: str, group: str) -> str:
    """The MQTT v5 shared subscription of `topic`: the broker gives each message to one member."""
    return f"$share/{group}/{topic}"


@dataclass
class Ingestor:
    """One subscriber's work: the network thread (paho) queues messages, this thread takes what has
    arrived (up to `batch_max`), ingests it and acknowledges each message after its commit."""

    app: Flask
    client: mqtt.Client | None = None
    batch_max: int = 500
    queue: SimpleQueue = field(default_factory=SimpleQueue)
    messages: int = 0  # messages handled (stored, refused or dropped) by this subscriber
    batches: int = 0
    duplicates: int = 0  # readings that were stored already (re-sent or redelivered)

    def summary(self, client_id: str) -> str:
        return (
            f"MQTT ingest summary client={client_id} messages={self.messages} batches={self.batches} "
            f"duplicates={self.duplicates} dropped={sum(dropped.values())}"
        )

    def on_message(self, client, userdata, message) -> None:
        self.queue.put(message)

    def on_disconnect(self, client, userdata, flags, reason_code, properties) -> None:
        if reason_code == 0 and not flags.is_disconnect_packet_from_server:
            self.queue.put(None)  # our own disconnect: the worker ends

    def run(self) -> None:
        while True:
            first = self.queue.get()
            if first is None:
                return
            batch = [first]
            while len(batch) < self.batch_max:
                try:
                    message = self.queue.get_nowait()
                except Empty:
                    break
                if message is None:
                    self.queue.put(None)
                    break
                batch.append(message)
            self.handle(batch)

    def handle(self, batch: list) -> None:
        """The batch in one go; if that fails, message by message (so one bad message or a failing
        device costs only itself), leaving unacknowledged what the database could not take."""
        acknowledged = None
        for attempt in range(1, TRIES + 1):
            try:
                with self.app.app_context():
                    try:
                        self.duplicates += handle_messages([(m.topic, m.payload) for m in batch])
                    except Exception:
                        db.session.rollback()
                        raise
                acknowledged = batch
                break
            except Exception as exc:
                if _transient(exc) and attempt < TRIES:
                    continue
                log.warning("MQTT: a batch of %d failed; message by message now", len(batch), exc_info=True)
                break
        if acknowledged is None:
            acknowledged = [message for message in batch if self.handle_one(message)]
        for message in acknowledged:
            self.client.ack(message.mid, message.qos)
        self.messages += len(batch)
        self.batches += 1

    def handle_one(self, message) -> bool:
        """True when the message may be acknowledged (stored, or dropped for good)."""
        for _attempt in range(TRIES - 1):
            with self.app.app_context():
                try:
                    result = handle_message(message.topic, message.payload)
                except DBAPIError as exc:
                    db.session.rollback()
                    if _transient(exc):
                        continue
                    break  # the last try below decides
                if result is not None:
                    self.duplicates += result.duplicates
                return True
        with self.app.app_context():
            try:
                result = handle_message(message.topic, message.payload)
                if result is not None:
                    self.duplicates += result.duplicates
            except Exception as exc:
                try:
                    db.session.rollback()
                except Exception:  # the connection is gone with the database; the pool replaces it
                    log.warning("MQTT: rollback failed", exc_info=True)
                if database_away(exc):
                    # Not acknowledged: the broker redelivers it after a reconnect.
                    log.exception("MQTT %r: ingestion failed, left for redelivery", message.topic)
                    return False
                # Anything else would fail again on every redelivery and hold the in-flight window:
                # logged, counted and acknowledged so the other devices' messages keep flowing.
                log.exception("MQTT %r: message failed", message.topic)
                _drop(message.topic, "failed", type(exc).__name__)
        return True


def run_subscriber(app: Flask, client_id: str = "coldchain-ingest", workers: int = 1) -> None:
    """`flask ingest mqtt [--workers N]`: N subscriber processes in one shared-subscription group."""
    if not logging.getLogger().handlers:
        logging.basicConfig(level=logging.INFO, format="%(asctime)s %(process)d %(levelname)s %(message)s")
    freeze_startup_heap()  # before the fork: every subscriber inherits it frozen
    if workers <= 1:
        serve(build_subscriber(app, client_id))
        return
    context = multiprocessing.get_context("fork")
    children: dict[int, multiprocessing.Process] = {}

    def start(index: int) -> None:
        child = context.Process(target=_child, args=(app, f"{client_id}-{index}"), name=f"ingest-{index}")
        child.start()
        children[index] = child

    def stop(signum, frame) -> None:
        for child in children.values():
            child.terminate()
        for child in children.values():
            child.join(10)
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    with app.app_context():
        db.engine.dispose()  # no connection of the parent's pool crosses the fork
    for index in range(1, workers + 1):
        start(index)
    log.info("MQTT ingest: %d subscriber processes", workers)
    while True:  # a subscriber that dies is started again, with its own (persistent) session
        time.sleep(1)
        for index, child in list(children.items()):
            if not child.is_alive():
                log.warning("MQTT ingest subscriber %s exited (%s): restarting", child.name, child.exitcode)
                start(index)


def _child(app: Flask, client_id: str) -> None:
    def stop(signum, frame) -> None:
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    client = build_subscriber(app, client_id)
    try:
        serve(client)
    finally:
        # What this subscriber did, for its operator (and the fleet benchmark's exact count).
        sys.stderr.write(client.ingestor.summary(client_id) + "\n")
        sys.stderr.flush()


def serve(client: mqtt.Client) -> None:
    """Run the network loop in paho's own thread (loop_start: it reconnects by itself) and wait. Not
    loop_forever: acknowledgements are sent from the ingest thread, and paho writes them from the
    calling thread when no loop thread of its own runs, racing the loop."""
    client.loop_start()
    while True:
        time.sleep(1)


def build_subscriber(app: Flask, client_id: str, group: str | None = None) -> mqtt.Client:
    """A connected ingest client with its handlers (MQTT v5, persistent session, a member of the
    shared-subscription group `group`, by default MQTT_SHARE_GROUP); the caller runs its network
    loop. Its Ingestor (counts, batches) is `client.ingestor`."""
    with app.app_context():
        group = group or app.config["MQTT_SHARE_GROUP"]
        client = new_client(client_id, persistent=True, receive_maximum=app.config["MQTT_RECEIVE_MAXIMUM"])
    ingestor = Ingestor(app, client)
    topics = [(shared(TELEMETRY, group), 1), (shared(ACKS, group), 1)]

    def on_connect(client, userdata, flags, reason_code, properties):
        client.subscribe(topics)
        log.info("MQTT ingest subscribed to %s (%s)", [t for t, _ in topics], reason_code)

    def on_subscribe(client, userdata, mid, reason_codes, properties):
        log.info("MQTT ingest %s ready (%s)", client_id, ", ".join(str(code) for code in reason_codes))

    client.on_connect = on_connect
    client.on_subscribe = on_subscribe
    client.on_message = ingestor.on_message
    client.on_disconnect = ingestor.on_disconnect
    client.reconnect_delay_set(1, 30)
    client.ingestor = ingestor
    threading.Thread(target=ingestor.run, name=f"ingest-{client_id}", daemon=True).start()
    return client
