"""How shares let recipients reach devices, as far as their templates allow; registered with the
access layer."""

from __future__ import annotations

from sqlalchemy import Select, exists, select

from api.access.reach import SHARED, ReachRule, register_reach
from api.extensions.db import db
from api.identity.auth import register_participation
from api.sharing.models import DeviceShare, PermissionTemplate


def _shared_devices(me, platform_id, now) -> Select[tuple[int]]:
    return select(DeviceShare.device_id).where(DeviceShare.recipient_account_id == me, DeviceShare.expires_at > now)


def _templates(me: int, now) -> dict[int, list[dict]]:
    rows = db.session.execute(
        select(DeviceShare.device_id, PermissionTemplate.items)
        .join(PermissionTemplate, PermissionTemplate.id == DeviceShare.template_id)
        .where(DeviceShare.recipient_account_id == me, DeviceShare.expires_at > now)
    ).all()
    return {device_id: items for device_id, items in rows}


def register() -> None:
    register_participation("shares", lambda me: exists().where(DeviceShare.recipient_account_id == me))
    register_reach(ReachRule(relation=SHARED, participation="shares", device_ids=_shared_devices, templates=_templates))
