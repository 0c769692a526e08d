"""Holds of limit alarms: another area may say a probe's limit alarm must not open yet (the storage area,
in its manifest's `alarm_holds`: a defrost or an open door of a room with a controller, api/storage/holds).
A held breach stays delaying; once no hold covers it, the next reading still out of range opens the alarm
normally.

`finder(device_id, sensor, now) -> datetime | None` (the end of the hold in force, None: not held) is
asked only when a limit breach is about to open, never on the readings within limits."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

HoldFinder = Callable[[int, int, datetime], datetime | None]
# What the manifests declare (`alarm_holds`), installed by api/assembly.py.
HOLD_FINDERS: list[HoldFinder] = []


def held(device_id: int, sensor: int | None, now: datetime) -> bool:
    if sensor is None:
        return False
    return any(finder(device_id, sensor, now) is not None for finder in HOLD_FINDERS)
