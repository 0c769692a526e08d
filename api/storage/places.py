"""The storage area's answer to the alarm texts' question "where is this probe" (api/alarm/places):
the first room (by id) the probe is placed in, its zone there and its name there."""

from __future__ import annotations

from sqlalchemy import select, tuple_

from api.alarm.places import Place
from api.extensions.db import db
from api.storage.models import ColdStorage, StorageProbe


def find_places(pairs: list[tuple[int, int]]) -> dict[tuple[int, int], Place]:
    """Each (device id, sensor)'s first room (by id), its zone and name there, in one query."""
    rows = db.session.execute(
        select(StorageProbe.device_id, StorageProbe.sensor, ColdStorage.name, StorageProbe.zone, StorageProbe.name)
        .join(ColdStorage, ColdStorage.id == StorageProbe.storage_id)
        .where(tuple_(StorageProbe.device_id, StorageProbe.sensor).in_(pairs))
        .order_by(StorageProbe.storage_id.desc())
    )
    # Later rows overwrite earlier ones: ordered newest room first, the first room (by id) wins.
    return {
        (device_id, sensor): Place(room=room, zone=zone.value if zone is not None else None, probe=name)
        for device_id, sensor, room, zone, name in rows
    }
