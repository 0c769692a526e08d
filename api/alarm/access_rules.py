"""The alarm area's object kinds, registered with the access layer's gate."""

from __future__ import annotations

from sqlalchemy import select

from api.access.gate import register_kind
from api.alarm.models import Alarm
from api.device.access_rules import load_device
from api.extensions.db import db
from api.tenancy import data_platform_id


def _load_alarm(alarm_id: int) -> Alarm | None:
    return db.session.scalar(select(Alarm).where(Alarm.id == alarm_id, Alarm.platform_id == data_platform_id()))


def register() -> None:
    register_kind("alarm", _load_alarm, device_of=lambda alarm: load_device(alarm.device_id))
