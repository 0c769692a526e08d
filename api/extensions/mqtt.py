"""The MQTT broker connection: one client factory and the one way the platform publishes.

Kept below the areas so that device commands, storage controllers and the ingest subscriber share it
without importing each other.
"""

from __future__ import annotations

import json
import logging
from urllib.parse import urlsplit

import paho.mqtt._packet as mqtt_packet
import paho.mqtt.client as mqtt
from flask import current_app
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

log = logging.getLogger(__name__)

_PROPERTY_TABLES = ("types", "names", "properties")


class SharedTableProperties(Properties):
    """paho's MQTT v5 Properties, with the constant lookup tables (property names, types and the
    packets each applies to) built once instead of in every instance. paho builds them for every
    received PUBLISH: a fifth of the ingest subscriber's CPU at 3,000 messages/s (py-spy, issue 27).
    The tables are only read, so sharing them changes nothing else."""

    _tables: dict | None = None

    def __init__(self, packet_type):
        tables = SharedTableProperties._tables
        if tables is None:
            super().__init__(packet_type)
            SharedTableProperties._tables = {name: getattr(self, name) for name in _PROPERTY_TABLES}
            return
        object.__setattr__(self, "packetType", packet_type)
        self.__dict__.update(tables)


# Incoming PUBLISH packets are decoded in paho's _packet module: it builds their properties there.
mqtt_packet.Properties = SharedTableProperties

# A persistent (MQTT v5) session outlives a disconnect by this long: a subscriber restarted within
# it gets what was queued for it meanwhile (the broker's own limits apply: max_queued_messages).
SESSION_EXPIRY_S = 7 * 24 * 3600


def broker_address(url: str) -> tuple[str, int, str | None, str | None]:
    parts = urlsplit(url)
    return parts.hostname or "127.0.0.1", parts.port or 1883, parts.username, parts.password


def new_client(client_id: str, *, persistent: bool = False, receive_maximum: int | None = None) -> mqtt.Client:
    """A connected client. `persistent`: an MQTT v5 session that survives disconnects (clean start
    off, session expiry), manual acknowledgements, and `receive_maximum` unacknowledged QoS 1
    messages in flight from the broker (Mosquitto's default for clients that do not say is 20)."""
    host, port, user, password = broker_address(current_app.config["MQTT_URL"])
    if persistent:
        client = mqtt.Client(
            mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, protocol=mqtt.MQTTv5, manual_ack=True
        )
        properties = Properties(PacketTypes.CONNECT)
        properties.SessionExpiryInterval = SESSION_EXPIRY_S
        if receive_maximum:
            properties.ReceiveMaximum = receive_maximum
        if user:
            client.username_pw_set(user, password)
        client.connect(host, port, keepalive=30, clean_start=False, properties=properties)
        return client
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=True)
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
