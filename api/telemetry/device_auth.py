"""Device authentication, the same on HTTP and MQTT: GUID + credential."""

from __future__ import annotations

from sqlalchemy import select

from api.device.credentials import credential_matches
from api.device.models import Device
from api.extensions.db import db


def authenticate(guid: object, key: object) -> Device | None:
    if not isinstance(guid, str) or not isinstance(key, str) or not guid.isdigit() or len(guid) > 20:
        return None
    device = db.session.scalar(select(Device).where(Device.guid == guid))
    if device is None or not credential_matches(device.guid, device.credential_version, key):
        return None
    return device
