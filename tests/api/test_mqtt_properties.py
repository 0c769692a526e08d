"""The subscriber's MQTT v5 decoding (issue 27): paho's property tables are built once and shared,
and a PUBLISH decodes exactly as paho's own Properties would decode it."""

from __future__ import annotations

import struct

import paho.mqtt._packet as mqtt_packet
from paho.mqtt.client import MQTTv5
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from api.extensions.mqtt import SharedTableProperties

QOS1_PUBLISH = 0x32


def publish_packet(topic: str, mid: int, payload: bytes) -> bytes:
    """The variable header and payload of a QoS 1 PUBLISH with a message expiry and a user property."""
    properties = Properties(PacketTypes.PUBLISH)
    properties.MessageExpiryInterval = 600
    properties.UserProperty = ("site", "cold-room-3")
    encoded_topic = topic.encode()
    return struct.pack("!H", len(encoded_topic)) + encoded_topic + struct.pack("!H", mid) + properties.pack() + payload


def test_received_publish_properties_share_paho_tables_and_decode_the_same():
    assert mqtt_packet.Properties is SharedTableProperties
    first = mqtt_packet.decode_publish(QOS1_PUBLISH, publish_packet("devices/1/telemetry", 7, b"{}"), MQTTv5)
    second = mqtt_packet.decode_publish(QOS1_PUBLISH, publish_packet("devices/2/telemetry", 8, b"[]"), MQTTv5)
    # Built once: every decoded message reads the same tables.
    assert first.properties.names is second.properties.names
    assert first.properties.properties is second.properties.properties
    # ... which hold what paho builds itself, and decode the same values.
    fresh = Properties(PacketTypes.PUBLISH)
    assert (first.properties.types, first.properties.names) == (fresh.types, fresh.names)
    assert first.properties.properties == fresh.properties
    assert (first.topic, first.mid, first.qos, first.payload) == (b"devices/1/telemetry", 7, 1, b"{}")
    assert first.properties.MessageExpiryInterval == 600
    assert first.properties.UserProperty == [("site", "cold-room-3")]
    assert first.properties.packetType == PacketTypes.PUBLISH
    # The properties of each message are its own.
    second.properties.MessageExpiryInterval = 5
    assert first.properties.MessageExpiryInterval == 600
