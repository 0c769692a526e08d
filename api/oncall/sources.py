"""The alarm area's "person on call" (api/alarm/recipients.py), answered from the schedules.

Which schedule a level's on-call entry means: the one it names, else the device's by scope, the
narrowest first: a schedule of a storage the device's probes are placed in, else of the organisation
the device is placed in, else a site schedule of the device's owner (the lowest id within a scope)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select

from api.alarm.recipients import OnCallSource, Reached
from api.device.models import Device
from api.extensions.db import db
from api.oncall.models import OnCallSchedule, Scope
from api.oncall.rota import on_call_at
from api.oncall.services import reach
from api.organization.models import OrganizationDevice
from api.storage.models import StorageProbe


def _owned(owner_id: int, platform_id: int):
    return (
        select(OnCallSchedule)
        .where(OnCallSchedule.owner_account_id == owner_id, OnCallSchedule.platform_id == platform_id)
        .order_by(OnCallSchedule.id)
        .limit(1)
    )


def schedule_for(device: Device, schedule_id: int | None) -> OnCallSchedule | None:
    mine = _owned(device.owner_account_id, device.platform_id)
    if schedule_id is not None:
        return db.session.scalar(mine.where(OnCallSchedule.id == schedule_id))
    storages = select(StorageProbe.storage_id).where(StorageProbe.device_id == device.id)
    organizations = select(OrganizationDevice.organization_id).where(OrganizationDevice.device_id == device.id)
    for narrower in (
        mine.where(OnCallSchedule.scope == Scope.STORAGE, OnCallSchedule.storage_id.in_(storages)),
        mine.where(OnCallSchedule.scope == Scope.ORGANIZATION, OnCallSchedule.organization_id.in_(organizations)),
        mine.where(OnCallSchedule.scope == Scope.SITE),
    ):
        found = db.session.scalar(narrower)
        if found is not None:
            return found
    return None


def person(device: Device, schedule_id: int | None, now: datetime) -> Reached | None:
    found = schedule_for(device, schedule_id)
    current = on_call_at(found, now) if found is not None else None
    if current is None:
        return None
    shown = reach(current.person)
    if not shown["phone"] and not shown["email"]:
        return None
    return Reached(shown["name"] or "", shown["phone"], shown["email"], shown["lang"] or "zh-CN")


def owns(owner_id: int, platform_id: int, schedule_id: int) -> bool:
    return db.session.scalar(_owned(owner_id, platform_id).where(OnCallSchedule.id == schedule_id)) is not None


SOURCE = OnCallSource(person=person, owns=owns)
