"""Where an alarm's probe is, for the alarm texts (SMS, voice, email, webhook, back-in-range notices):
the room (storage) and zone it is placed in, the probe's name, and its unit.

The storage area declares a finder in its manifest (`alarm_places`; the alarm area does not import
it): `finder(pairs) -> {(device_id, sensor): Place}`. Without a room, the probe is named by its device type's
parameter name."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from flask_babel import gettext
from sqlalchemy import select

from api.device.models import Device, DeviceParam, ParamUnit
from api.extensions.db import db


@dataclass(frozen=True)
class Place:
    room: str | None  # the storage's name
    zone: str | None  # a storage zone code (door, middle, evaporator, return_air, other)
    probe: str | None  # the probe's name in that room


# (device id, sensor) pairs -> the place of each pair that has one (one query for all of them).
PlaceFinder = Callable[[list[tuple[int, int]]], dict[tuple[int, int], Place]]
# What the manifests declare (`alarm_places`), installed by api/assembly.py.
PLACE_FINDERS: list[PlaceFinder] = []


def places_of(pairs: list[tuple[int, int]]) -> dict[tuple[int, int], Place]:
    found: dict[tuple[int, int], Place] = {}
    for finder in PLACE_FINDERS:
        if pairs:
            found = {**finder(pairs), **found}
    return found


def place_of(device_id: int, sensor: int | None) -> Place | None:
    return None if sensor is None else places_of([(device_id, sensor)]).get((device_id, sensor))


def describe(alarms: list) -> dict[int, dict[str, str]]:
    """What the alarm records and the message centre show of a page of alarms, in the caller's
    language, in three queries: the probe's name, room · zone · probe (`place`) and the unit."""
    if not alarms:
        return {}
    types = dict(
        db.session.execute(
            select(Device.id, Device.device_type_id).where(Device.id.in_({a.device_id for a in alarms}))
        ).all()
    )
    params = {
        (type_id, probe): (name, unit)
        for type_id, probe, name, unit in db.session.execute(
            select(DeviceParam.device_type_id, DeviceParam.probe_id, DeviceParam.param_name, ParamUnit.unit_name)
            .outerjoin(ParamUnit, ParamUnit.id == DeviceParam.unit_id)
            .where(DeviceParam.device_type_id.in_(set(types.values())), DeviceParam.probe_id.is_not(None))
        )
    }
    places = places_of(sorted({(a.device_id, a.sensor) for a in alarms if a.sensor is not None}))
    described = {}
    for alarm in alarms:
        name, unit = params.get((types.get(alarm.device_id), alarm.sensor), (None, None))
        place = places.get((alarm.device_id, alarm.sensor))
        probe = (place.probe if place and place.probe else None) or (gettext(name) if name else None)
        if alarm.sensor is not None and probe is None:
            probe = f"#{alarm.sensor}"
        parts = [place.room, zone_text(place.zone), probe] if place is not None else [probe]
        described[alarm.id] = {
            "sensorName": probe,
            "place": " · ".join(p for p in parts if p) or None,
            "unit": "%" if alarm.kind.value == "battery" else unit,
        }
    return described


ZONE_TEXT = {
    "door": lambda: gettext("Door"),
    "middle": lambda: gettext("Middle"),
    "evaporator": lambda: gettext("Evaporator"),
    "return_air": lambda: gettext("Return air"),
    "other": lambda: gettext("Other zone"),
}


def zone_text(zone: str | None) -> str:
    """The zone's name in the current locale ('' without one)."""
    return ZONE_TEXT[zone]() if zone in ZONE_TEXT else ""


def probe_param(device: Device, sensor: int | None):
    if sensor is None:
        return None
    return next((p for p in device.device_type.params if p.probe_id == sensor), None)


def probe_name(device: Device, sensor: int | None, place: Place | None) -> str:
    """The probe's name: its name in the room, else its parameter's name, else "#n"."""
    if sensor is None:
        return ""
    if place is not None and place.probe:
        return place.probe
    param = probe_param(device, sensor)
    return gettext(param.param_name) if param is not None else f"#{sensor}"  # the catalogue's names are translated


def unit_of(device: Device, sensor: int | None, battery: bool = False) -> str:
    if battery:
        return "%"
    param = probe_param(device, sensor)
    return param.unit.unit_name if param is not None and param.unit is not None else ""
