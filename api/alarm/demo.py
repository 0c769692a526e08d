"""Alarm demo facts for `flask seed-demo`: limits, push settings and balances for the demo fleet, and
two real alarms raised through the ingestion service (one open and pending, one recovered and
processed); the limits are set before the history is replayed (`seed_limits`), so the history's
excursions raise their alarms as they would have live. Idempotent: what exists is left alone."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import exists, select

from api.alarm import push
from api.alarm.models import Alarm, Message, ProcessState, PushSetting, SensorLimit
from api.device.models import Device
from api.extensions.db import db, utcnow
from api.telemetry.ingest import ingest

# device name -> limits per sensor (upper, lower, delay minutes)
LIMITS = {
    "Pharmacy Fridge": {1: (8.0, 2.0, 0), 2: (80.0, 30.0, 10)},
    "Vaccine Fridge": {1: (8.0, 2.0, 0)},
    "Cold Room 1": {1: (-15.0, -25.0, 10), 2: (-15.0, -25.0, 10)},
    "Lab Freezer -80": {1: (-60.0, -90.0, 30)},
    "Store Fridge 1": {1: (8.0, 2.0, 0)},
}
BALANCE = (20, 10)  # SMS, voice


def _push_setting(device: Device, email: str) -> dict:
    return {
        "device_id": device.id,
        "enabled": True,
        "multi_level": True,
        "levels": [
            {
                "level": 1,
                "minutes": 0,
                "recipients": [{"name": "Duty Officer", "phone": None, "email": email, "lang": "zh-CN"}],
            },
            {
                "level": 2,
                "minutes": 15,
                "recipients": [
                    {"name": "QA Manager", "phone": None, "email": "qa.manager@example.com", "lang": "en-US"}
                ],
            },
        ],
        "channels": ["email"],
        "repeat_count": 1,
        "interval_minutes": 30,
        "delay_minutes": 0,
        "schedule_start": None,
        "schedule_end": None,
        "urgent_kinds": [],
        "webhook_url": None,
    }


def seed_limits(device: Device) -> None:
    """The device's limits, set before its history is replayed: the alarms of the history are raised
    by the same limits its reports apply (both read the limits' history, valid since ever)."""
    for sensor, (upper, lower, delay) in LIMITS.get(device.name or "", {}).items():
        found = db.session.scalar(
            select(SensorLimit).where(SensorLimit.device_id == device.id, SensorLimit.sensor == sensor)
        )
        if found is None:
            limit = SensorLimit(device_id=device.id, sensor=sensor, upper=upper, lower=lower, delay_minutes=delay)
            db.session.add(limit)
    db.session.commit()


def seed_alarms(devices: list[Device], owner_emails: dict[int, str]) -> None:
    for device in devices:
        if device.sms_count == 0 and device.voice_count == 0:
            device.sms_count, device.voice_count = BALANCE
        seed_limits(device)
        if device.name in LIMITS and db.session.get(PushSetting, device.id) is None:
            push.save(device, _push_setting(device, owner_emails.get(device.owner_account_id or 0, "demo@example.com")))
    db.session.commit()
    by_name = {device.name: device for device in devices}
    _excursion(by_name.get("Pharmacy Fridge"), [11.6], process=None)
    _excursion(by_name.get("Vaccine Fridge"), [0.9, 4.4], process=("agreed", "Door left open; closed, goods checked"))


def _excursion(device: Device | None, temperatures: list[float], process: tuple[str, str] | None) -> None:
    """Readings through the ingestion service (which raises the alarm), once per device (the history's
    own alarms aside: this one starts at the first of these values)."""
    if device is None or db.session.scalar(
        select(exists().where(Alarm.device_id == device.id, Alarm.first_value == temperatures[0]))
    ):
        return
    now = utcnow()
    records = [
        {"ts": int((now + timedelta(seconds=index)).timestamp() * 1000), "readings": {"1": value}}
        for index, value in enumerate(temperatures)
    ]
    ingest(device, records)
    if process is None:
        return
    state, result = process
    alarm = db.session.scalar(select(Alarm).where(Alarm.device_id == device.id))
    if alarm is not None:
        alarm.process_state, alarm.result = ProcessState(state), result
        alarm.processed_by, alarm.processed_at = device.owner_account_id, utcnow()
        message = db.session.scalar(select(Message).where(Message.alarm_id == alarm.id))
        if message is not None:
            message.read_at = utcnow()
        db.session.commit()
