"""Device authentication, the same on HTTP and MQTT: GUID (the one shape check) + credential.

An authenticated device is an `IngestedDevice`: the columns ingestion and its handlers read on
every message, as a plain row. An ORM object cost about 16 us a device more (identity map,
instrumented attributes, expiry at the commit; the subscribers' CPU per message fell 5-7% without
it). A path that changes the device loads it (`db.session.get`).
"""

from __future__ import annotations

from datetime import datetime
from typing import NamedTuple

from sqlalchemy import Select, bindparam, select

from api.device.credentials import credential_matches
from api.device.guids import well_formed
from api.device.models import Device
from api.extensions.db import db, one_of_param, per_dialect


class IngestedDevice(NamedTuple):
    """What ingestion and its handlers read of a device on every message."""

    id: int
    guid: str
    credential_version: int
    device_type_id: int
    owner_account_id: int | None
    platform_id: int
    interval_s: int
    enabled: bool
    deleted: bool
    scrapped_at: datetime | None
    voided_at: datetime | None
    service_expires_at: datetime | None
    created_at: datetime


_COLUMNS = tuple(getattr(Device, name) for name in IngestedDevice._fields)
# Built once: a statement built per call costs more CPU (cache key) than its round trip.
# A GUID names one live device and any number of deleted ones (api/device/services.add_device): the
# live one answers, else the newest deleted one (whose uploads are refused as deleted).
_BY_GUID = select(*_COLUMNS).where(Device.guid == bindparam("guid")).order_by(Device.deleted, Device.id.desc()).limit(1)


def authenticate(guid: object, key: object) -> IngestedDevice | None:
    if not well_formed(guid) or not isinstance(key, str):
        return None
    row = db.session.connection().execute(_BY_GUID, {"guid": guid}).first()
    device = IngestedDevice._make(row) if row is not None else None
    if device is None or not credential_matches(device.guid, device.credential_version, key):
        return None
    return device


@per_dialect
def _by_guids() -> Select:
    # The live record of each GUID last (it wins in the dict below), deleted ones oldest first.
    return select(*_COLUMNS).where(one_of_param(Device.guid, "guids")).order_by(Device.deleted.desc(), Device.id)


def authenticate_many(credentials: list[tuple[str, str]]) -> list[IngestedDevice | None]:
    """`authenticate` for many (guid, key) pairs with one query (the MQTT subscriber's batches)."""
    guids = {guid for guid, key in credentials if well_formed(guid) and isinstance(key, str)}
    rows = db.session.connection().execute(_by_guids(), {"guids": list(guids)})
    devices = {device.guid: device for device in map(IngestedDevice._make, rows)}
    found: list[IngestedDevice | None] = []
    for guid, key in credentials:
        device = devices.get(guid) if guid in guids else None
        if device is not None and not credential_matches(device.guid, device.credential_version, key):
            device = None
        found.append(device)
    return found
