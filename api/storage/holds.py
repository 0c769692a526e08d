"""Defrost and door-open alarm holds of a room with a controller.

A defrost warms the evaporator (and the return air), an open door the door zone: limit alarms of the
probes in those zones would be raised by every planned defrost or delivery. A window of the storage's
configured minutes (`defrost_hold_minutes`, `door_hold_minutes`; 0 switches it off) opens when

- a "Defrost now" command is sent through cloud control (api/storage/control.send), or
- the controller reports its defrost (channel 7) or door (channel 8) state on (`on_controller_readings`,
  a reading handler that runs before the alarm evaluation of the same upload).

During the window the affected probes' limit alarms are held (the breach goes on, delaying); after it, a
probe still out of range raises its alarm normally with the next reading (api/alarm/holds asks
`held_until`). Each report of the state while it lasts moves the window's end on.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import func, or_, select

from api.extensions.db import db
from api.storage.models import ColdStorage, StorageKind, StorageProbe, Zone

DEFROST_ZONES = (Zone.EVAPORATOR, Zone.RETURN_AIR)
DOOR_ZONES = (Zone.DOOR,)
DEFROST_CHANNEL, DOOR_CHANNEL = 7, 8  # the CS-4 controller's state channels (api/storage/services)


def open_defrost_window(storage: ColdStorage, at: datetime) -> None:
    _extend(storage, "defrost", at)


def _extend(storage: ColdStorage, what: str, at: datetime) -> None:
    minutes = getattr(storage, f"{what}_hold_minutes")
    if minutes <= 0:
        return
    until = at + timedelta(minutes=minutes)
    current = getattr(storage, f"{what}_hold_until")
    if current is None or current < until:
        setattr(storage, f"{what}_hold_until", until)


def on_controller_readings(device, records) -> None:
    """Reading handler: a controller reporting defrost or door on opens (or moves on) its rooms' windows.
    Only an upload carrying channel 7 or 8 on asks which rooms the device controls."""
    reported = {
        what: max(r.ts for r in records if (r.readings.get(channel) or 0) >= 0.5)
        for what, channel in (("defrost", DEFROST_CHANNEL), ("door", DOOR_CHANNEL))
        if any((r.readings.get(channel) or 0) >= 0.5 for r in records)
    }
    if not reported:
        return
    rooms = db.session.scalars(
        select(ColdStorage).where(
            ColdStorage.controller_device_id == device.id, ColdStorage.kind == StorageKind.STORAGE
        )
    ).all()
    for room in rooms:
        for what, at in reported.items():
            _extend(room, what, at)


def held_until(device_id: int, sensor: int, now: datetime) -> datetime | None:
    """The end of a defrost or door window of a room with a controller holding this probe's limit
    alarms at `now` (None: not held)."""
    defrost = (StorageProbe.zone.in_(DEFROST_ZONES)) & (ColdStorage.defrost_hold_until > now)
    door = (StorageProbe.zone.in_(DOOR_ZONES)) & (ColdStorage.door_hold_until > now)
    ends = db.session.execute(
        select(
            func.max(ColdStorage.defrost_hold_until).filter(defrost), func.max(ColdStorage.door_hold_until).filter(door)
        )
        .join(ColdStorage, ColdStorage.id == StorageProbe.storage_id)
        .where(
            StorageProbe.device_id == device_id,
            StorageProbe.sensor == sensor,
            ColdStorage.controller_device_id.is_not(None),
            or_(defrost, door),
        )
    ).one()
    found = [end for end in ends if end is not None]
    return max(found) if found else None
