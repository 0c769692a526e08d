"""Over-the-air upgrades: a firmware version issued to one device, a selection of devices of its
model or the whole model in groups (a staged rollout: cumulative percentages such as 5, 25, 100).

Each device's upgrade is a command on the existing downlink (api/device/commands.py's DeviceCommand,
published on devices/{guid}/commands or fetched over HTTP) with params {"firmware": {...}}; the
device answers on the existing acknowledgement (MQTT devices/{guid}/acks or HTTP) with the steps
`downloading`, `installing` and a final ok with the version it now runs, or a failure. So a device
moves waiting -> queued -> downloading -> installing -> installed / failed.

`advance` (the periodic job api.product.jobs.advance_rollouts, and every change here) fails devices
that did not confirm within UPGRADE_TIMEOUT (the spec's "about ten minutes"), stops a rollout whose
failures pass its threshold (percent of the devices sent so far), starts the next group only when
every device of the current one finished, and sends waiting devices at most `rate_per_minute` a
minute. Failed devices can be retried (a stopped or completed rollout runs again)."""

from __future__ import annotations

import math
from collections import Counter
from datetime import datetime, timedelta
from itertools import pairwise

from flask_babel import gettext
from sqlalchemy import and_, or_, select

from api.device.jobs import publish_command
from api.device.models import CommandStatus, Device, DeviceCommand, DeviceEvent, DeviceState
from api.extensions import uploads
from api.extensions.db import db, paginate, utcnow
from api.extensions.field_rules import field_rules
from api.extensions.smorest import ApiError
from api.identity.auth import require_account
from api.product.firmware import FIRMWARE_FOLDER
from api.product.models import FirmwareVersion, RolloutStatus, TargetState, UpgradeRollout, UpgradeTarget
from api.product.services import field_error, not_found, operator

# Spec section 5: "an issued upgrade needs about ten minutes". A device that has not confirmed its
# upgrade this long after it was sent is failed (and may be retried). The number lives in
# rules/fields.json (`upgrade.timeoutMinutes`), which the web's progress view reads too.
UPGRADE_TIMEOUT = timedelta(minutes=field_rules()["upgrade"]["timeoutMinutes"])
ACTIVE = (TargetState.QUEUED, TargetState.DOWNLOADING, TargetState.INSTALLING)
FINISHED = (TargetState.INSTALLED, TargetState.FAILED)
STEPS = {"downloading": TargetState.DOWNLOADING, "installing": TargetState.INSTALLING}


def rules() -> dict:
    return field_rules()["upgrade"]


# ---- groups --------------------------------------------------------------------------------------------------


def check_stages(stages: list[int]) -> None:
    """Cumulative percentages: 1 to maxStages of them, each 1-100, rising, the last 100."""
    message = gettext(
        "Give up to %(count)s groups as rising percentages of the devices, the last one 100.",
        count=rules()["maxStages"],
    )
    if not 1 <= len(stages) <= rules()["maxStages"] or stages[-1] != 100:
        raise field_error("stages", message)
    if any(not 1 <= pct <= 100 for pct in stages) or any(b <= a for a, b in pairwise(stages)):
        raise field_error("stages", message)


def group_sizes(count: int, stages: list[int]) -> list[int]:
    """How many devices each group gets: group i ends at ceil(count x stages[i] / 100) devices, and a
    group gets at least one device while any are left (the web previews the same, upgrade.ts)."""
    sizes, done = [], 0
    for pct in stages:
        end = min(count, max(math.ceil(count * pct / 100), done + 1))
        sizes.append(end - done)
        done = end
    return sizes


# ---- issuing -------------------------------------------------------------------------------------------------


def in_service():
    """A device in the field: added by an account, or one that has reported at least once. A GUID
    issued and never added nor online is a label in a carton: "every device of the model" skips it
    (issue 47), as it does a voided GUID."""
    reported = select(DeviceState.device_id).where(
        DeviceState.device_id == Device.id, DeviceState.last_data_at.is_not(None)
    )
    return and_(Device.voided_at.is_(None), or_(Device.owner_account_id.is_not(None), reported.exists()))


def _devices(firmware: FirmwareVersion, args: dict) -> list[Device]:
    live = select(Device).where(Device.deleted.is_(False), Device.scrapped_at.is_(None))
    if args.get("allDevices"):
        model = live.where(Device.device_type_id == firmware.device_type_id, in_service())
        devices = list(db.session.scalars(model.order_by(Device.id)))
        if not devices:
            raise field_error("allDevices", gettext("This model has no devices yet."))
        return devices
    ids = list(dict.fromkeys(args.get("deviceIds") or []))
    if not ids:
        raise field_error("deviceIds", gettext("Choose at least one device."))
    found = {d.id: d for d in db.session.scalars(live.where(Device.id.in_(ids)))}
    missing = [str(i) for i in ids if i not in found]
    if missing:
        raise field_error("deviceIds", gettext("No such device: %(ids)s.", ids=", ".join(missing)))
    for device in found.values():
        if device.device_type_id != firmware.device_type_id:
            raise field_error(
                "deviceIds",
                gettext(
                    "Only firmware of the device's own model can be sent: %(guid)s is not a %(model)s.",
                    guid=device.guid,
                    model=firmware.device_type.type_name,
                ),
            )
    return [found[i] for i in ids]


def _busy(devices: list[Device]) -> None:
    busy = db.session.scalar(
        select(Device.guid)
        .join(UpgradeTarget, UpgradeTarget.device_id == Device.id)
        .join(UpgradeRollout, UpgradeRollout.id == UpgradeTarget.rollout_id)
        .where(
            Device.id.in_([d.id for d in devices]),
            UpgradeRollout.status == RolloutStatus.RUNNING,
            UpgradeTarget.state.in_([TargetState.WAITING, *ACTIVE]),
        )
        .limit(1)
    )
    if busy is not None:
        raise field_error("deviceIds", gettext("%(guid)s is being upgraded already.", guid=busy))


def create_rollout(args: dict, now: datetime | None = None) -> UpgradeRollout:
    """Issue an upgrade; the first group is sent at once, the rest by the periodic job."""
    operator()
    firmware = db.session.get(FirmwareVersion, args["firmwareId"])
    if firmware is None:
        raise field_error("firmwareId", gettext("No such firmware version."))
    if not firmware.device_type.online_upgrade:
        raise field_error("firmwareId", gettext("This device model does not support online upgrade."))
    stages = list(args.get("stages") or [100])
    check_stages(stages)
    devices = _devices(firmware, args)
    _busy(devices)
    rollout = UpgradeRollout(
        firmware_id=firmware.id,
        stages=stages,
        failure_threshold=args["failureThreshold"],
        rate_per_minute=args["ratePerMinute"],
        created_by=require_account().id,
    )
    position = 0
    for stage, size in enumerate(group_sizes(len(devices), stages)):
        for device in devices[position : position + size]:
            rollout.targets.append(
                UpgradeTarget(device_id=device.id, stage=stage, from_version=device.firmware_version)
            )
        position += size
    db.session.add(rollout)
    db.session.flush()
    _publish(advance_rollout(rollout, now or utcnow()))
    return rollout


# ---- progress ------------------------------------------------------------------------------------------------


# Why the platform failed a device, stored as a token (the device's own reason is stored as it sent
# it) and put in the reader's language by `reason_text`.
TIMEOUT, CANCELLED, REPORTED_FAILURE, VERSION = "@timeout", "@cancelled", "@failed", "@version:"


def reason_text(error: str | None) -> str | None:
    """A device's failure in the reader's language (platform tokens) or as the device said it."""
    if error == TIMEOUT:
        return gettext("No confirmation within %(minutes)s minutes.", minutes=_minutes())
    if error == CANCELLED:
        return gettext("Cancelled.")
    if error == REPORTED_FAILURE:
        return gettext("The device reported a failure.")
    if error and error.startswith(VERSION):
        reported, _, expected = error.removeprefix(VERSION).partition("|")
        return gettext("The device reports version %(version)s, not %(expected)s.", version=reported, expected=expected)
    return error


def stop_text(rollout: UpgradeRollout) -> str | None:
    """Why a rollout stopped, in the reader's language (stored as "failed/sent")."""
    if rollout.status != RolloutStatus.STOPPED or not rollout.stop_reason:
        return None
    failed, _, sent = rollout.stop_reason.partition("/")
    return gettext(
        "Stopped: %(failed)s of %(sent)s devices failed, above the threshold of %(threshold)s%%.",
        failed=failed,
        sent=sent,
        threshold=rollout.failure_threshold,
    )


def _fail(target: UpgradeTarget, now: datetime, reason: str) -> None:
    target.state, target.updated_at, target.error = TargetState.FAILED, now, reason
    command = db.session.get(DeviceCommand, target.command_id) if target.command_id else None
    if command is not None and command.status == CommandStatus.PENDING:
        command.status, command.acked_at, command.error = CommandStatus.FAILED, now, reason.removeprefix("@")


def _send(rollout: UpgradeRollout, target: UpgradeTarget, now: datetime) -> DeviceCommand:
    firmware = rollout.firmware
    params = {
        "firmware": {
            "firmwareId": firmware.id,
            "version": firmware.version_value,
            "url": f"/api/product/Firmware/download/{firmware.id}",
            "sha256": firmware.sha256,
            "size": firmware.file_size,
        }
    }
    command = DeviceCommand(device_id=target.device_id, params=params, created_by=rollout.created_by, created_at=now)
    db.session.add(command)
    db.session.flush()
    target.state, target.command_id, target.sent_at, target.updated_at = TargetState.QUEUED, command.id, now, now
    target.attempts += 1
    target.error = None
    detail = {"version": firmware.version_value, "rolloutId": rollout.id}
    db.session.add(
        DeviceEvent(device_id=target.device_id, account_id=rollout.created_by, action="upgrade", detail=detail)
    )
    return command


def advance_rollout(rollout: UpgradeRollout, now: datetime) -> list[int]:
    """One step of a running rollout (see the module); the ids of the commands to publish."""
    if rollout.status != RolloutStatus.RUNNING:
        return []
    targets = rollout.targets
    for target in targets:
        if target.state in ACTIVE and target.sent_at is not None and target.sent_at + UPGRADE_TIMEOUT <= now:
            _fail(target, now, TIMEOUT)
    sent = [t for t in targets if t.state != TargetState.WAITING]
    failed = sum(1 for t in sent if t.state == TargetState.FAILED)
    if sent and failed * 100 > rollout.failure_threshold * len(sent):
        rollout.status, rollout.finished_at = RolloutStatus.STOPPED, now
        rollout.stop_reason = f"{failed}/{len(sent)}"
        return []
    last = len(rollout.stages) - 1
    while rollout.current_stage < last and all(
        t.state in FINISHED for t in targets if t.stage == rollout.current_stage
    ):
        rollout.current_stage += 1
    if all(t.state in FINISHED for t in targets):
        rollout.status, rollout.finished_at, rollout.stop_reason = RolloutStatus.COMPLETED, now, None
        return []
    recent = sum(1 for t in targets if t.sent_at is not None and t.sent_at > now - timedelta(minutes=1))
    budget = max(0, rollout.rate_per_minute - recent)
    waiting = [t for t in targets if t.state == TargetState.WAITING and t.stage <= rollout.current_stage]
    return [_send(rollout, target, now).id for target in waiting[:budget]]


def _publish(command_ids: list[int]) -> None:
    db.session.commit()
    for command_id in command_ids:
        publish_command.enqueue(command_id, job_id=f"command-{command_id}")


def advance(now: datetime) -> int:
    """Every running rollout one step (the periodic job); the number of commands sent."""
    sent = []
    for rollout in db.session.scalars(select(UpgradeRollout).where(UpgradeRollout.status == RolloutStatus.RUNNING)):
        sent += advance_rollout(rollout, now)
    _publish(sent)
    return len(sent)


def on_command(device: Device, command: DeviceCommand, progress: str | None, version: str | None) -> None:
    """A device's acknowledgement of an upgrade command (api.device.services.COMMAND_LISTENERS)."""
    target = db.session.scalar(select(UpgradeTarget).where(UpgradeTarget.command_id == command.id))
    if target is None or target.state in FINISHED:
        return
    now = utcnow()
    target.updated_at = now
    if progress is not None:
        target.state = STEPS[progress]
        return
    expected = target.rollout.firmware.version_value
    if command.status == CommandStatus.FAILED:
        target.state, target.error = TargetState.FAILED, command.error or REPORTED_FAILURE
    elif version and version != expected:
        target.state, target.error = TargetState.FAILED, f"{VERSION}{version}|{expected}"[:200]
    else:
        target.state = TargetState.INSTALLED
        device.firmware_version = expected
    _publish(advance_rollout(target.rollout, now))


def _own(rollout_id: int) -> UpgradeRollout:
    rollout = db.session.get(UpgradeRollout, rollout_id)
    if rollout is None:
        raise not_found()
    return rollout


def retry(args: dict, now: datetime | None = None) -> UpgradeRollout:
    """Send the failed devices (all, or those of `deviceIds`) again; the rollout runs again."""
    operator()
    rollout = _own(args["rolloutId"])
    if rollout.status == RolloutStatus.CANCELLED:
        raise ApiError(gettext("This rollout was cancelled."), code=409, http_status=409)
    chosen = set(args.get("deviceIds") or [])
    failed = [t for t in rollout.targets if t.state == TargetState.FAILED and (not chosen or t.device_id in chosen)]
    if not failed:
        raise field_error("deviceIds", gettext("No failed device to retry."))
    _busy([t.device for t in failed if t.device is not None])
    for target in failed:
        target.state, target.error = TargetState.WAITING, None
    rollout.status, rollout.stop_reason, rollout.finished_at = RolloutStatus.RUNNING, None, None
    db.session.flush()
    _publish(advance_rollout(rollout, now or utcnow()))
    return rollout


def cancel(rollout_id: int) -> UpgradeRollout:
    operator()
    rollout = _own(rollout_id)
    if rollout.status not in (RolloutStatus.RUNNING, RolloutStatus.STOPPED):
        raise ApiError(gettext("This rollout has finished."), code=409, http_status=409)
    now = utcnow()
    for target in rollout.targets:
        if target.state not in FINISHED:
            _fail(target, now, CANCELLED)
    rollout.status, rollout.finished_at = RolloutStatus.CANCELLED, now
    db.session.commit()
    return rollout


def sending(device: Device, firmware: FirmwareVersion) -> bool:
    """Whether the device is being sent this firmware (it may download the file)."""
    found = db.session.scalar(
        select(UpgradeTarget.id)
        .join(UpgradeRollout, UpgradeRollout.id == UpgradeTarget.rollout_id)
        .where(
            UpgradeTarget.device_id == device.id,
            UpgradeRollout.firmware_id == firmware.id,
            UpgradeTarget.state.in_(ACTIVE),
        )
        .limit(1)
    )
    return found is not None


# ---- reading ---------------------------------------------------------------------------------------------------


def _minutes() -> int:
    return int(UPGRADE_TIMEOUT.total_seconds() // 60)


def summary(rollout: UpgradeRollout) -> dict:
    counts = Counter(t.state.value for t in rollout.targets)
    groups = []
    for stage, pct in enumerate(rollout.stages):
        members = Counter(t.state.value for t in rollout.targets if t.stage == stage)
        groups.append({"stage": stage, "percent": pct, "devices": sum(members.values()), "counts": dict(members)})
    return {
        "rollout": rollout,
        "counts": {state.value: counts.get(state.value, 0) for state in TargetState},
        "groups": groups,
        "total": len(rollout.targets),
        "timeoutMinutes": _minutes(),
    }


def rollout_page(args: dict) -> dict:
    operator()
    stmt = select(UpgradeRollout)
    if args.get("firmwareId"):
        stmt = stmt.where(UpgradeRollout.firmware_id == args["firmwareId"])
    if args.get("status"):
        stmt = stmt.where(UpgradeRollout.status == RolloutStatus(args["status"]))
    page = paginate(stmt, args, UpgradeRollout.created_at.desc(), UpgradeRollout.id.desc())
    page["list"] = [summary(r) for r in page["list"]]
    return page


def rollout_detail(rollout_id: int) -> dict:
    operator()
    rollout = _own(rollout_id)
    result = summary(rollout)
    result["targets"] = rollout.targets
    return result


def firmware_file(firmware_id: int, device: Device) -> tuple:
    """(path, media type) of a firmware the device is being sent (its download), else 404."""
    firmware = db.session.get(FirmwareVersion, firmware_id)
    if firmware is None or not sending(device, firmware):
        raise not_found()
    found = uploads.find_upload(FIRMWARE_FOLDER, firmware.file_name)
    if found is None:
        raise not_found()
    return found
