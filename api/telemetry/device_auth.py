"""Device authentication, the same on HTTP and MQTT: GUID (the one shape check) + credential."""

from __future__ import annotations

from sqlalchemy import Select, bindparam, select
from sqlalchemy.orm import load_only

from api.device.credentials import credential_matches
from api.device.guids import well_formed
from api.device.models import Device
from api.extensions.db import db, one_of_param, per_dialect

# What ingestion and its handlers read of a device on every message. The other columns (the sensor
# settings' JSON among them) load on first use, on the rare paths that need them (an alarm's message):
# a subscriber's batch of hundreds of devices costs much less to load.
_INGESTED = load_only(
    Device.guid,
    Device.credential_version,
    Device.device_type_id,
    Device.owner_account_id,
    Device.platform_id,
    Device.interval_s,
    Device.enabled,
    Device.deleted,
    Device.scrapped_at,
    Device.service_expires_at,
    Device.created_at,
)
# Built once: a statement built per call costs more CPU (options, cache key) than its round trip.
_BY_GUID = select(Device).options(_INGESTED).where(Device.guid == bindparam("guid"))


def authenticate(guid: object, key: object) -> Device | None:
    if not well_formed(guid) or not isinstance(key, str):
        return None
    device = db.session.scalar(_BY_GUID, {"guid": guid})
    if device is None or not credential_matches(device.guid, device.credential_version, key):
        return None
    return device


@per_dialect
def _by_guids() -> Select:
    return select(Device).options(_INGESTED).where(one_of_param(Device.guid, "guids"))


def authenticate_many(credentials: list[tuple[str, str]]) -> list[Device | None]:
    """`authenticate` for many (guid, key) pairs with one query (the MQTT subscriber's batches)."""
    guids = {guid for guid, key in credentials if well_formed(guid) and isinstance(key, str)}
    devices = {device.guid: device for device in db.session.scalars(_by_guids(), {"guids": list(guids)})}
    found: list[Device | None] = []
    for guid, key in credentials:
        device = devices.get(guid) if guid in guids else None
        if device is not None and not credential_matches(device.guid, device.credential_version, key):
            device = None
        found.append(device)
    return found
