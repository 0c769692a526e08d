"""Device registry rules: issuance, claiming, editing, states, downlink acknowledgements. The lists and
counts are in api/device/listing.py, maintenance records in records.py."""

from __future__ import annotations

from collections.abc import Callable

from flask_babel import gettext
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from api.access.reach import (
    require_block,
    require_device_write,
    visible,
)
from api.device import hooks
from api.device.credentials import device_secret
from api.device.expiry import DATA_GRACE, SERVICE_PERIOD
from api.device.guids import new_guid
from api.device.models import (
    AddType,
    CommandStatus,
    Device,
    DeviceCommand,
    DeviceEvent,
    DeviceParam,
    DeviceType,
    GuidBatch,
    ReadWrite,
    TypeStatus,
)
from api.extensions.db import db, utcnow
from api.extensions.smorest import ApiError
from api.identity.auth import require_account
from api.identity.models import Account
from api.platform.models import Platform
from api.tenancy import data_platform_id


def not_found() -> ApiError:
    return ApiError(gettext("The device cannot be found, please confirm and re-enter"), code=3001)


# ---- issuance (operator) -------------------------------------------------------------------------------


def issue_guids(platform: Platform, device_type: DeviceType, num: int, order_code: str, tag: str | None = None):
    """Issue `num` new GUIDs of a type for a platform; returns (guid, credential) pairs to print."""
    if not 1 <= num <= 999:
        raise ValueError("a batch holds 1 to 999 GUIDs")
    batch = GuidBatch(
        order_code=order_code, num=num, device_type_id=device_type.id, device_tag=tag, platform_id=platform.id
    )
    db.session.add(batch)
    db.session.flush()
    prefix = str(device_type.type_code)
    issued = []
    chosen: set[str] = set()
    while len(chosen) < num:
        # Random, not sequential (api/device/guids.py); a draw that exists already is drawn again.
        candidates = {new_guid(prefix) for _ in range(num - len(chosen))} - chosen
        chosen |= candidates - set(db.session.scalars(select(Device.guid).where(Device.guid.in_(candidates))))
    for guid in sorted(chosen):
        db.session.add(
            Device(
                guid=guid,
                device_type_id=device_type.id,
                batch_id=batch.id,
                platform_id=platform.id,
                interval_s=device_type.default_interval_s,
            )
        )
        issued.append((guid, device_secret(guid)))
    db.session.commit()
    return issued


# ---- the owner's registry --------------------------------------------------------------------------------


def owned_device(device_id: int, *, manage: bool = False, write: bool = False, codes=None) -> Device:
    """A device the signed-in account may see (api/tenancy.visible); `write` / `manage` refuse a
    shared user (except operable parameters `codes`), `manage` also requires a live service."""
    device = db.session.scalar(visible(select(Device), Device).where(Device.id == device_id, Device.deleted.is_(False)))
    if device is None:
        raise ApiError(gettext("The requested resource does not exist."), code=404, http_status=404)
    if manage or write:
        require_device_write(device, codes)
    if manage and device.service_expires_at is not None and device.service_expires_at < utcnow():
        raise ApiError(gettext("The service of this device has expired; renew it to manage the device."), code=3002)
    return device


def log_event(device: Device, action: str, **detail) -> None:
    db.session.add(DeviceEvent(device_id=device.id, account_id=require_account().id, action=action, detail=detail))


def add_device(guid: str, name: str, time_zone: str, remark: str | None, source: str = "platform") -> Device:
    """Claim a GUID: an unclaimed device, or a deleted one's GUID again. The deleted record keeps its
    readings and history (with its old owner, unless transferred); the GUID's paid service, SMS and
    voice counts and credential come along to the new record."""
    live = db.session.scalar(
        select(Device)
        .where(Device.guid == guid, Device.platform_id == data_platform_id(), Device.deleted.is_(False))
        .with_for_update()
        .execution_options(populate_existing=True)  # the row as the lock found it, not as first read
    )
    account_id = require_account().id
    if live is not None and live.owner_account_id == account_id:
        raise ApiError(gettext("This device is already in your account."), code=3005)
    if live is None:
        live = _readd(guid)
    if live is None or live.owner_account_id is not None or live.scrapped_at or live.voided_at:
        raise not_found()
    check_addable(live.device_type, source)
    claim(live, account_id, name, time_zone, remark)
    try:
        db.session.flush()
    except IntegrityError:  # another account added the same deleted GUID first
        db.session.rollback()
        raise not_found() from None
    log_event(live, "add", name=name)
    db.session.commit()
    return live


def _readd(guid: str) -> Device | None:
    """A new record for the GUID of a deleted device (the newest deleted one), or None."""
    old = db.session.scalar(
        select(Device)
        .where(Device.guid == guid, Device.platform_id == data_platform_id(), Device.deleted.is_(True))
        .order_by(Device.id.desc())
        .limit(1)
        .with_for_update()
    )
    if old is None or old.scrapped_at or old.voided_at:
        return None
    device = Device(
        guid=old.guid,
        device_type_id=old.device_type_id,
        batch_id=old.batch_id,
        platform_id=old.platform_id,
        credential_version=old.credential_version,
        interval_s=old.interval_s,
        created_at=old.created_at,  # issued then: readings since are the device's own
        service_expires_at=old.service_expires_at,  # paid service stays with the GUID
        data_expires_at=old.data_expires_at,
        sms_count=old.sms_count,
        voice_count=old.voice_count,
        firmware_version=old.firmware_version,
        device_type=old.device_type,
    )
    old.sms_count = old.voice_count = 0
    db.session.add(device)
    return device


def check_addable(device_type: DeviceType, source: str) -> None:
    """Only a published type's devices can be added, and only where its addType allows
    (business-domain section 3: 0 unlimited, 1 app only, 2 platform only)."""
    if device_type.type_status != TypeStatus.PUBLISHED:
        raise ApiError(gettext("This device model is not released yet; it cannot be added."), code=3003)
    if device_type.add_type == AddType.APP_ONLY and source != "app":
        raise ApiError(gettext("This device can only be added in the app."), code=3004)
    if device_type.add_type == AddType.PLATFORM_ONLY and source != "platform":
        raise ApiError(gettext("This device can only be added on the platform."), code=3004)


def claim(device: Device, account_id: int, name: str, time_zone: str, remark: str | None = None) -> None:
    """Give an unclaimed device to an account, with a first year of service."""
    now = utcnow()
    device.owner_account_id = account_id
    device.name, device.time_zone, device.remark = name, time_zone, remark
    device.claimed_at = now
    device.enabled = True
    device.service_expires_at = device.service_expires_at or now + SERVICE_PERIOD
    device.data_expires_at = device.service_expires_at + DATA_GRACE


def update_device(device_id: int, changes: dict) -> Device:
    device = owned_device(device_id, manage=True)
    if "quick_search" in changes and device.owner_account_id != require_account().id:
        raise ApiError(gettext("Only the device's owner can turn its quick search on or off."), code=403)
    before = {key: getattr(device, key) for key in changes}
    for key, value in changes.items():
        setattr(device, key, value)
    log_event(device, "edit", before=before, after=changes)
    db.session.commit()
    return device


def set_enabled(device_id: int, enabled: bool) -> Device:
    device = owned_device(device_id, manage=True)
    if device.scrapped_at is not None:
        raise ApiError(gettext("A scrapped device cannot be enabled or disabled."), code=3003)
    device.enabled = enabled
    log_event(device, "enable" if enabled else "stopUsing")
    if not enabled:
        hooks.device_retired(device.id, hooks.DISABLED)  # its open alarms close with the reason
    db.session.commit()
    return device


def scrap(device_id: int) -> Device:
    device = owned_device(device_id, manage=True)
    if device.scrapped_at is None:
        device.scrapped_at = utcnow()
        device.enabled = False
        log_event(device, "scrap")
        hooks.device_retired(device.id, hooks.SCRAPPED)
        db.session.commit()
    return device


# Areas keeping records that must outlive a device register here; each raises an ApiError to refuse
# its deletion (the FDA area: a device with signed records, api/fda/frozen).
DELETE_GUARDS: list[Callable[[Device], None]] = []


def delete(device_id: int) -> None:
    """Deleting releases the device from the account; its history stays with the GUID."""
    device = owned_device(device_id, write=True)
    for guard in DELETE_GUARDS:
        guard(device)
    log_event(device, "delete")
    device.deleted = True
    device.focus = False
    db.session.commit()


def set_focus(device_id: int, focus: bool) -> Device:
    device = owned_device(device_id, write=True)
    device.focus = focus
    db.session.commit()
    return device


BATCH_ACTIONS = {
    "enable": lambda device_id: set_enabled(device_id, True),
    "stopUsing": lambda device_id: set_enabled(device_id, False),
    "scrap": scrap,
    "delete": delete,
    "pin": lambda device_id: set_focus(device_id, True),
    "unpin": lambda device_id: set_focus(device_id, False),
}


def batch(action: str, device_ids: list[int]) -> list[dict]:
    """One action on several devices, each on its own (one refusal does not stop the others):
    a result per device, in the order given, with the reason of each refusal."""
    results = []
    for device_id in dict.fromkeys(device_ids):
        try:
            BATCH_ACTIONS[action](device_id)
        except ApiError as exc:
            db.session.rollback()
            results.append({"deviceId": device_id, "ok": False, "msg": exc.msg})
        else:
            results.append({"deviceId": device_id, "ok": True, "msg": None})
    return results


# ---- downlink --------------------------------------------------------------------------------------------


# Areas that follow their own commands (the over-the-air upgrades) register a listener here; it is
# called with (device, command, progress, version) inside the acknowledgement's transaction.
COMMAND_LISTENERS: list = []


# The steps a device may report before its final acknowledgement (an upgrade: downloading, installing).
COMMAND_PROGRESS = ("downloading", "installing")


def acknowledge_command(
    device_id: int,
    command_id: int,
    ok: bool,
    error: str | None = None,
    progress: str | None = None,
    version: str | None = None,
) -> None:
    """The device reports a command applied (or failed), or with `progress` a step on the way (the
    command stays pending). Applying also updates the interval, and a firmware command the version
    the device now runs."""
    command = db.session.scalar(
        select(DeviceCommand).where(DeviceCommand.id == command_id, DeviceCommand.device_id == device_id)
    )
    if command is None or command.status != CommandStatus.PENDING:
        return
    device = db.session.get(Device, device_id)
    if progress not in COMMAND_PROGRESS:
        progress = None
        command.status = CommandStatus.APPLIED if ok else CommandStatus.FAILED
        command.acked_at = utcnow()
        command.error = (error or None) and error[:200]
        interval = command.params.get(f"{0x0101:04x}")
        if ok and interval:
            device.interval_s = int(interval) * 60
        if ok and version and "firmware" in command.params:
            device.firmware_version = version[:50]
    for listener in COMMAND_LISTENERS:
        listener(device, command, progress, version)
    db.session.commit()


def writable_params(device: Device) -> list[DeviceParam]:
    return [p for p in device.device_type.params if p.read_write != ReadWrite.READ]


def events(device_id: int, limit: int = 100) -> list[DeviceEvent]:
    """The device's operation log, newest first, each event with who acted (`actor_name`: the real
    name, else the user name; none for the platform's own steps)."""
    device = owned_device(device_id)
    require_block(device, "log")
    rows = db.session.execute(
        select(DeviceEvent, Account.real_name, Account.user_name)
        .outerjoin(Account, Account.id == DeviceEvent.account_id)
        .where(DeviceEvent.device_id == device.id)
        .order_by(DeviceEvent.created_at.desc(), DeviceEvent.id.desc())
        .limit(limit)
    ).all()
    found = []
    for event, real_name, user_name in rows:
        event.actor_name = real_name or user_name
        found.append(event)
    return found
