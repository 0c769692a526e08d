"""The device area's object kinds, registered with the access layer's gate."""

from __future__ import annotations

from sqlalchemy import select

from api.access.gate import register_kind
from api.device.models import Device, MaintenanceRecord
from api.extensions.db import db
from api.tenancy import data_platform_id


def load_device(device_id: int) -> Device | None:
    return db.session.scalar(
        select(Device).where(
            Device.id == device_id, Device.platform_id == data_platform_id(), Device.deleted.is_(False)
        )
    )


def _load_record(record_id: int) -> MaintenanceRecord | None:
    return db.session.get(MaintenanceRecord, record_id)


def _device_of_record(record: MaintenanceRecord) -> Device | None:
    return load_device(record.device_id)


def register() -> None:
    register_kind("device", load_device, device_of=lambda device: device)
    register_kind("maintenance", _load_record, device_of=_device_of_record)
