"""Cloud control of a cold storage's refrigeration controller through the device downlink: setpoint,
compressor start / stop, manual defrost, light. Each command becomes a device command (pending until
the controller acknowledges it: applied or failed) and is kept in the storage's command record and
the operation log; an offline controller needs the caller's confirmation first. Also the controller
meter's energy of the last 12 months, and the rolling-MKT alarm of every storage."""

from __future__ import annotations

from datetime import datetime, timedelta

from flask_babel import gettext
from sqlalchemy import select

from api.device import commands as device_commands
from api.device.models import DeviceCommand
from api.extensions.db import db, utcnow
from api.extensions.i18n import caller_zone
from api.extensions.smorest import ApiError, field_error
from api.identity.models import Account
from api.storage import alerts, holds, listing, services, tabs
from api.storage.models import ColdStorage, StorageAlarm, StorageAlarmStatus, StorageCommand, StorageKind
from api.telemetry import queries

# Action -> the controller's setting (catalogue type CS-4).
ACTION_KEYS = {"setpoint": 0x0201, "compressor": 0x0203, "defrost": 0x0204, "light": 0x0205}
OFFLINE_PROMPT = 3010


def _controller(storage: ColdStorage, devices: dict):
    device = devices.get(storage.controller_device_id) if storage.controller_device_id else None
    if device is None:
        raise field_error("storageId", gettext("This storage has no controller to operate."))
    return device


def send(args: dict) -> dict:
    storage, devices = services.loaded(args["storageId"], StorageKind.STORAGE, "params")
    services.require_write(storage, devices)
    controller = _controller(storage, devices)
    key = f"{ACTION_KEYS[args['action']]:04x}"
    param = next((p for p in controller.device_type.params if f"{p.param_key:04x}" == key), None)
    if param is None:
        raise field_error("action", gettext("This controller does not support this command."))
    value = 1 if args["action"] == "defrost" else args["value"]
    if (param.param_min is not None and value < param.param_min) or (
        param.param_max is not None and value > param.param_max
    ):
        raise field_error(
            "value", gettext("Must be between %(min)s and %(max)s.", min=param.param_min, max=param.param_max)
        )
    if not listing.controller_dict(controller, utcnow())["online"] and not args["confirmOffline"]:
        raise ApiError(
            gettext("The controller is offline: the command will be applied when it reconnects. Send it anyway?"),
            code=OFFLINE_PROMPT,
        )
    # One transaction: the device's command and the storage's record of it (and one trail entry).
    command = device_commands.queue_command(controller.id, {key: int(value) if param.precision == 0 else value})
    record = StorageCommand(
        storage_id=storage.id,
        command_id=command.id,
        action=args["action"],
        value=value,
        created_by=services.require_account().id,
    )
    db.session.add(record)
    if args["action"] == "defrost":
        holds.open_defrost_window(storage, utcnow())  # the evaporator's limit alarms are held meanwhile
    db.session.commit()
    device_commands.publish(command)
    return as_dict(record, command, services.require_account().user_name)


def as_dict(record: StorageCommand, command: DeviceCommand, operator: str | None) -> dict:
    return {
        "id": record.id,
        "commandId": command.id,
        "action": record.action,
        "value": record.value,
        "status": command.status.value,
        "error": command.error,
        "operator": operator,
        "gmtCreate": record.created_at,
        "ackedAt": command.acked_at,
    }


def commands(storage_id: int, limit: int = 50) -> list[dict]:
    storage, _devices = services.loaded(storage_id, StorageKind.STORAGE, "params")
    rows = db.session.execute(
        select(StorageCommand, DeviceCommand, Account.user_name)
        .join(DeviceCommand, DeviceCommand.id == StorageCommand.command_id)
        .outerjoin(Account, Account.id == StorageCommand.created_by)
        .where(StorageCommand.storage_id == storage.id)
        .order_by(StorageCommand.id.desc())
        .limit(limit)
    ).all()
    return [as_dict(record, command, operator) for record, command, operator in rows]


def last_months(count: int, now: datetime) -> list[tuple[datetime, datetime]]:
    month = now.astimezone(caller_zone()).replace(day=1, hour=0, minute=0, second=0, microsecond=0)
    months = []
    for _ in range(count):
        months.append((month, (month + timedelta(days=32)).replace(day=1)))
        month = (month - timedelta(days=1)).replace(day=1)
    return list(reversed(months))


def energy(storage_id: int, kind: StorageKind) -> list[dict]:
    storage, devices = services.loaded(storage_id, kind, "energy")
    device = devices.get(storage.controller_device_id) if storage.controller_device_id else None
    meter = next((p.probe_id for p in device.device_type.params if p.param_type == "energy"), None) if device else None
    if meter is None:
        return []
    return queries.energy_by_month(device.id, meter, last_months(12, utcnow()))


# ---- the rolling-MKT alarm -------------------------------------------------------------------------------


def check_mkt(now: datetime | None = None) -> int:
    """Open, update or close each MKT-enabled storage's alarm from its rolling MKT, and write the outbox
    rows of its push setting now due; returns how many opened."""
    now = now or utcnow()
    opened = 0
    storages = db.session.scalars(select(ColdStorage).where(ColdStorage.mkt_enabled.is_(True))).all()
    for storage in storages:
        value = tabs.rolling_mkt(storage, now)
        active = db.session.scalar(
            select(StorageAlarm).where(
                StorageAlarm.storage_id == storage.id, StorageAlarm.status == StorageAlarmStatus.OPEN
            )
        )
        if value is None or storage.mkt_limit is None:
            continue
        if value > storage.mkt_limit:
            if active is None:
                active = StorageAlarm(
                    storage_id=storage.id,
                    kind="mkt",
                    opened_at=now,
                    window_hours=storage.mkt_window_hours,
                    limit_value=storage.mkt_limit,
                    first_value=value,
                    peak_value=value,
                    last_value=value,
                )
                db.session.add(active)
                db.session.flush()  # its id names its outbox rows
                opened += 1
            else:
                active.peak_value = max(active.peak_value, value)
                active.last_value = value
            # Notifications through the outbox, like every alarm: levels and repeats come due on later passes.
            alerts.plan_sends(active, storage, now)
        elif active is not None:
            active.status = StorageAlarmStatus.CLOSED
            active.closed_at = now
            active.last_value = value
    db.session.commit()
    return opened
