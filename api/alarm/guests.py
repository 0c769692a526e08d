"""Recipients of an alarm that are not in the device's push setting but are told for a while: another
area declares a source in its manifest (a waybill's alarm contact for the trip's duration: api/waybill/contacts.py).
Guests are told at the first level's mark through the same outbox and escalation (repeats, dedupe keys,
the device's SMS balance) as the push setting's recipients: an SMS to the phone and an email."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import ColumnElement

from api.alarm.models import Alarm


@dataclass(frozen=True)
class Guest:
    name: str
    phone: str | None
    email: str | None
    lang: str


@dataclass(frozen=True)
class GuestSource:
    """`recipients(alarm, now)`: the guests of this alarm at `now` (none once their time is over);
    `devices(now)`: a condition on `Alarm.device_id` true for devices that may have guests at `now` (the
    escalation pass also visits their alarms when the device has no push setting)."""

    recipients: Callable[[Alarm, datetime], list[Guest]]
    devices: Callable[[datetime], ColumnElement[bool]]


# What the areas' manifests declare (`alarm_guests`), installed by api/assembly.py.
GUEST_SOURCES: list[GuestSource] = []


def guests(alarm: Alarm, now: datetime) -> list[Guest]:
    return [guest for source in GUEST_SOURCES for guest in source.recipients(alarm, now)]


def device_conditions(now: datetime) -> list[ColumnElement[bool]]:
    return [source.devices(now) for source in GUEST_SOURCES]
