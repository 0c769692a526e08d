from __future__ import annotations

from sqlalchemy import select

from api.device import expiry
from api.device.models import CommandStatus, Device, DeviceCommand
from api.extensions.db import db, utcnow
from api.extensions.mqtt import publish
from api.jobs import DEFAULT, job


@job(DEFAULT, timeout=60)
def publish_command(command_id: int) -> str:
    """Send a pending command on devices/{guid}/commands. Devices without MQTT fetch pending
    commands over HTTP instead, so an unreachable broker loses nothing."""
    row = db.session.execute(
        select(DeviceCommand, Device.guid)
        .join(Device, Device.id == DeviceCommand.device_id)
        .where(DeviceCommand.id == command_id)
    ).first()
    if row is None or row[0].status != CommandStatus.PENDING:
        return "skipped"
    command, guid = row
    sent = publish(f"devices/{guid}/commands", {"commandId": command.id, "params": command.params})
    return "published" if sent else "waiting for the device to fetch it"


@job(DEFAULT, timeout=300)
def send_expiry_notices() -> int:
    """Periodic: service-expiry reminders 30, 7 and 1 days ahead (api.device.expiry)."""
    return expiry.send_expiry_notices(utcnow())
