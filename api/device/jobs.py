from __future__ import annotations

from sqlalchemy import select

from api.device.models import CommandStatus, Device, DeviceCommand
from api.extensions.db import db
from api.jobs import DEFAULT, job


@job(DEFAULT, timeout=60)
def publish_command(command_id: int) -> str:
    """Send a pending command on devices/{guid}/commands. Devices without MQTT fetch pending
    commands over HTTP instead, so an unreachable broker loses nothing."""
    from api.telemetry.mqtt import publish

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
