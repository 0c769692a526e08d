"""Who a level of a push setting tells: its fixed recipients, and for an entry of kind "onCall" the
person on call of a schedule at the send's instant. The schedules are another area's (api/oncall):
it declares a source in its manifest (`alarm_on_call`), installed by api/assembly.py, so this area
imports none of it.

An on-call entry names a schedule (`schedule_id`) or none: then the source picks the device's
schedule by scope (a schedule of a storage the device's probes are placed in, else of the
organisation the device is placed in, else of the owner's whole site). The person is resolved at each
send, so a hand-over during an alarm tells the new person (the outbox's dedupe key names the address)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from api.alarm.models import PushSetting
from api.device.models import Device

ON_CALL = "onCall"  # AlarmRecipient.kind of an entry that names the person on call
CONTACT = "contact"


@dataclass(frozen=True)
class Reached:
    """Someone a send goes to: what the channels need."""

    name: str
    phone: str | None
    email: str | None
    lang: str


@dataclass(frozen=True)
class OnCallSource:
    """`person(device, schedule_id, now)`: the person on call for the device's alarms at `now` (None:
    nobody); `owns(owner_account_id, platform_id, schedule_id)`: whether that schedule is the device
    owner's (a push setting may name only those)."""

    person: Callable[[Device, int | None, datetime], Reached | None]
    owns: Callable[[int, int, int], bool]


# What the areas' manifests declare (`alarm_on_call`), installed by api/assembly.py.
ON_CALL_SOURCES: list[OnCallSource] = []


def on_call_person(device: Device, schedule_id: int | None, now: datetime) -> Reached | None:
    for source in ON_CALL_SOURCES:
        found = source.person(device, schedule_id, now)
        if found is not None:
            return found
    return None


def schedule_allowed(device: Device, schedule_id: int) -> bool:
    return any(source.owns(device.owner_account_id, device.platform_id, schedule_id) for source in ON_CALL_SOURCES)


def level_recipients(setting: PushSetting, level: int, device: Device, now: datetime) -> list[Any]:
    """The recipients of a level at `now`: fixed ones as stored, on-call entries resolved to the
    person on call (left out when nobody is, or the person is already a fixed recipient of it)."""
    fixed = [r for r in setting.recipients if r.level == level and r.kind != ON_CALL]
    out: list[Any] = list(fixed)
    seen = {(r.phone, r.email) for r in fixed}
    for entry in (r for r in setting.recipients if r.level == level and r.kind == ON_CALL):
        person = on_call_person(device, entry.schedule_id, now)
        if person is not None and (person.phone, person.email) not in seen:
            seen.add((person.phone, person.email))
            out.append(person)
    return out
