"""A waybill's alarm contact as a recipient of the trip's alarms: while the waybill is in progress, the
temperature alarms (upper / lower of the waybill's probe) and fence alarms of its device that opened
during the trip tell the contact (SMS to `alarmPhone`, email to `alarmEmail`) through the alarm area's
outbox and escalation (a guest source: api/alarm/guests.py). Once the trip ends nobody is told any more."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ColumnElement, or_, select

from api.alarm.guests import Guest, GuestSource
from api.alarm.models import Alarm, AlarmKind
from api.extensions.db import db
from api.platform.models import Platform
from api.waybill.models import Waybill, WaybillState

TRIP_KINDS = (AlarmKind.UPPER, AlarmKind.LOWER, AlarmKind.FENCE)


def _with_contact():
    return select(Waybill).where(
        Waybill.state == WaybillState.IN_PROGRESS,
        or_(Waybill.alarm_phone.is_not(None), Waybill.alarm_email.is_not(None)),
    )


def trip_contacts(alarm: Alarm, now: datetime) -> list[Guest]:
    """The contacts of the waybill in progress on the alarm's device, if the alarm is one of its trip."""
    if alarm.kind not in TRIP_KINDS or alarm.opened_at is None:
        return []
    guests = []
    for waybill in db.session.scalars(_with_contact().where(Waybill.device_id == alarm.device_id)):
        if waybill.started_at is None or alarm.opened_at < waybill.started_at:
            continue  # an alarm older than the trip is not the trip's
        if alarm.kind != AlarmKind.FENCE and alarm.sensor != waybill.sensor:
            continue
        platform = db.session.get(Platform, waybill.platform_id)
        lang = "en-US" if platform is not None and platform.default_locale.startswith("en") else "zh-CN"
        name = waybill.alarm_name or waybill.receiver_name
        guests.append(Guest(name=name, phone=waybill.alarm_phone or None, email=waybill.alarm_email or None, lang=lang))
    return guests


def devices_on_trip(now: datetime) -> ColumnElement[bool]:
    return Alarm.device_id.in_(_with_contact().with_only_columns(Waybill.device_id))


TRIP_CONTACTS = GuestSource(trip_contacts, devices_on_trip)
