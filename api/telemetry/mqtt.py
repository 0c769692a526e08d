"""MQTT: the ingest subscriber (`flask ingest mqtt`) and command publishing.

Topics: devices/{guid}/telemetry (device -> platform, QoS 1), devices/{guid}/acks (command results),
devices/{guid}/commands (platform -> device). The broker is not trusted to authenticate devices:
every message carries the device's GUID and credential, checked against the topic's GUID. The
subscriber keeps a persistent session and acknowledges a message only after its batch committed,
so a crash redelivers instead of losing readings (and re-sent readings are dropped as duplicates).
"""

from __future__ import annotations

import json
import logging
from urllib.parse import urlsplit

import paho.mqtt.client as mqtt
from flask import Flask, current_app

log = logging.getLogger(__name__)
TELEMETRY = "devices/+/telemetry"
ACKS = "devices/+/acks"


def broker_address(url: str) -> tuple[str, int, str | None, str | None]:
    parts = urlsplit(url)
    return parts.hostname or "127.0.0.1", parts.port or 1883, parts.username, parts.password


def new_client(client_id: str, *, persistent: bool = False) -> mqtt.Client:
    host, port, user, password = broker_address(current_app.config["MQTT_URL"])
    client = mqtt.Client(
        mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=not persistent, manual_ack=persistent
    )
    if user:
        client.username_pw_set(user, password)
    client.connect(host, port, keepalive=30)
    return client


def publish(topic: str, payload: dict, qos: int = 1) -> bool:
    """Publish one message and wait for the broker's acknowledgement; False if unreachable."""
    try:
        client = new_client(f"coldchain-api-{id(payload)}")
    except OSError as exc:
        log.warning("MQTT broker unreachable (%s): %s not published", exc, topic)
        return False
    try:
        client.loop_start()
        info = client.publish(topic, json.dumps(payload), qos=qos)
        info.wait_for_publish(timeout=10)
        return info.is_published()
    finally:
        client.loop_stop()
        client.disconnect()


def handle_message(topic: str, payload: bytes) -> None:
    """Verify and ingest one message (inside an app context). Bad messages are logged and dropped."""
    from api.device.models import Device
    from api.telemetry import device_auth
    from api.telemetry.ingest import DeviceRefusedError, ingest

    parts = topic.split("/")
    guid, kind = parts[1], parts[2]
    try:
        body = json.loads(payload)
    except ValueError:
        log.warning("MQTT %s: not JSON, dropped", topic)
        return
    device: Device | None = device_auth.authenticate(
        body.get("guid") if isinstance(body, dict) else None, body.get("key") if isinstance(body, dict) else None
    )
    if device is None or device.guid != guid:
        log.warning("MQTT %s: bad credential or another device's topic, dropped", topic)
        return
    if kind == "acks":
        from api.device.services import acknowledge_command

        acknowledge_command(device, int(body.get("commandId", 0)), bool(body.get("ok")), body.get("error"))
        return
    try:
        result = ingest(device, body.get("records"))
    except DeviceRefusedError as exc:
        log.info("MQTT %s: refused (%s)", topic, exc.reason)
        return
    if result.rejected:
        log.info("MQTT %s: %d records refused: %s", topic, len(result.rejected), result.rejected[:3])


def run_subscriber(app: Flask, client_id: str = "coldchain-ingest") -> None:
    build_subscriber(app, client_id).loop_forever(retry_first_connection=True)


def build_subscriber(app: Flask, client_id: str) -> mqtt.Client:
    """A connected ingest client with its handlers; the caller runs its network loop."""
    with app.app_context():
        client = new_client(client_id, persistent=True)

    def on_connect(client, userdata, flags, reason_code, properties):
        client.subscribe([(TELEMETRY, 1), (ACKS, 1)])
        log.info("MQTT ingest subscribed (%s)", reason_code)

    def on_message(client, userdata, message):
        with app.app_context():
            try:
                handle_message(message.topic, message.payload)
            except Exception:
                # Not acknowledged: the broker redelivers it after a reconnect.
                log.exception("MQTT %s: ingestion failed", message.topic)
                from api.extensions.db import db

                db.session.rollback()
                return
        client.ack(message.mid, message.qos)

    client.on_connect = on_connect
    client.on_message = on_message
    client.reconnect_delay_set(1, 30)
    return client
