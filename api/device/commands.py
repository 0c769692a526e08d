"""Settings sent to devices (parameter key in hex -> value): one device's from its detail page, or
the same settings to many devices of one model at once (types with the batch-parameter flag), each
queued as a command for the device's downlink (MQTT or HTTP poll) and answered per device."""

from __future__ import annotations

from flask_babel import gettext
from sqlalchemy import select

from api.access.reach import require_block
from api.device.jobs import publish_command
from api.device.models import Device, DeviceCommand, DeviceType, ReadWrite
from api.device.services import log_event, owned_device
from api.extensions.db import db
from api.extensions.smorest import ApiError
from api.identity.auth import require_account


def _codes(values: dict[str, object]) -> list[str]:
    return [key.lower().zfill(4) for key in values]


def _check(device_type: DeviceType, values: dict[str, object]) -> dict[str, object]:
    """The values against the type's writable parameters: normalised keys, or a 422 naming each bad one."""
    params = {f"{p.param_key:04x}": p for p in device_type.params}
    errors = {}
    for key, value in values.items():
        param = params.get(key.lower())
        if param is None or param.read_write == ReadWrite.READ:
            errors[key] = [gettext("This parameter cannot be set.")]
        elif isinstance(value, bool) or not isinstance(value, int | float):
            errors[key] = [gettext("Not a valid number.")]
        elif (param.param_min is not None and value < param.param_min) or (
            param.param_max is not None and value > param.param_max
        ):
            errors[key] = [gettext("Must be between %(min)s and %(max)s.", min=param.param_min, max=param.param_max)]
    if errors:
        raise ApiError(gettext("Invalid input"), code=422, http_status=422, data={"errors": errors})
    return {k.lower(): v for k, v in values.items()}


def _queue(device: Device, params: dict[str, object]) -> DeviceCommand:
    command = DeviceCommand(device_id=device.id, params=params, created_by=require_account().id)
    db.session.add(command)
    log_event(device, "setParams", params=command.params)
    return command


def queue_command(device_id: int, values: dict[str, object]) -> DeviceCommand:
    """Validate the changed settings against the type's writable parameters and add the command to
    the caller's transaction; `publish` it once that commits."""
    device = owned_device(device_id, manage=True, codes=_codes(values))
    command = _queue(device, _check(device.device_type, values))
    db.session.flush()
    return command


def publish(command: DeviceCommand) -> None:
    """Hand a committed command to the worker that publishes it to the device."""
    publish_command.enqueue(command.id, job_id=f"command-{command.id}")


def send_command(device_id: int, values: dict[str, object]) -> DeviceCommand:
    """Validate the changed settings against the type's writable parameters and queue them."""
    command = queue_command(device_id, values)
    db.session.commit()
    publish(command)
    return command


def send_batch(device_ids: list[int], values: dict[str, object]) -> list[dict]:
    """The same settings to several devices of one model whose type takes batch parameters. The
    whole batch is refused when the devices are of different models or the values do not suit the
    model; otherwise each device answers on its own (an expired or disabled one is refused)."""
    ids = list(dict.fromkeys(device_ids))
    devices = {d.id: d for d in db.session.scalars(select(Device).where(Device.id.in_(ids)))}
    types = {devices[i].device_type_id for i in ids if i in devices}
    if len(types) > 1:
        message = gettext("Batch distribution only to devices of the same model.")
        raise ApiError(message, code=422, http_status=422, data={"errors": {"deviceIds": [message]}})
    device_type = db.session.get(DeviceType, types.pop()) if types else None
    if device_type is None or not device_type.batch_param:
        message = gettext("This model does not take batch parameters.")
        raise ApiError(message, code=422, http_status=422, data={"errors": {"deviceIds": [message]}})
    params = _check(device_type, values)
    results, queued = [], []
    for device_id in ids:
        try:
            device = owned_device(device_id, manage=True, codes=_codes(values))
        except ApiError as exc:
            results.append({"deviceId": device_id, "ok": False, "msg": exc.msg})
            continue
        queued.append(_queue(device, dict(params)))
        results.append({"deviceId": device_id, "ok": True, "msg": None})
    db.session.commit()
    for command in queued:
        publish_command.enqueue(command.id, job_id=f"command-{command.id}")
    return results


def commands(device_id: int, limit: int = 50) -> list[DeviceCommand]:
    device = owned_device(device_id)
    require_block(device, "params")
    return list(
        db.session.scalars(
            select(DeviceCommand)
            .where(DeviceCommand.device_id == device.id)
            .order_by(DeviceCommand.created_at.desc())
            .limit(limit)
        )
    )
