"""Voiding issued GUIDs (issue 47): the operator withdraws GUIDs nobody added (a misprinted label, a
lost carton), with a reason. A voided GUID cannot be added and its uploads are refused
(api/telemetry/ingest.refusal); the operation log records who voided which and why (the reason is the
entry's reason)."""

from __future__ import annotations

from flask import g
from flask_babel import gettext
from sqlalchemy import select

from api.device.models import Device
from api.extensions.db import db, utcnow
from api.identity.auth import require_account
from api.product.services import field_error, operator


def void(guids: list[str], reason: str) -> list[Device]:
    """Void every GUID given, or none: each must be issued, live, never added and not voided yet."""
    operator()
    wanted = list(dict.fromkeys(guids))
    devices = {
        device.guid: device
        for device in db.session.scalars(
            select(Device).where(Device.guid.in_(wanted), Device.deleted.is_(False)).with_for_update()
        )
    }
    for guid in wanted:
        device = devices.get(guid)
        if device is None:
            raise field_error("guids", gettext("GUID %(guid)s was not issued.", guid=guid))
        if device.owner_account_id is not None or device.claimed_at is not None:
            raise field_error("guids", gettext("GUID %(guid)s is in use; only unused GUIDs can be voided.", guid=guid))
        if device.voided_at is not None:
            raise field_error("guids", gettext("GUID %(guid)s is voided already.", guid=guid))
    now, account_id = utcnow(), require_account().id
    for device in devices.values():
        device.voided_at, device.void_reason, device.voided_by = now, reason, account_id
        device.enabled = False
    g.audit_reason = reason
    db.session.commit()
    return [devices[guid] for guid in wanted]
