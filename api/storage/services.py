"""Cold storages, freezers and virtual storages: who sees them, their probes, lists and counts, and
their detail tabs (overview, chart, alarms, push setting, parameters, top-up, basic info).

Visibility is the devices' (api/tenancy): a storage is seen by its owner and by whoever reaches one
of its devices (organisation or live share); each viewer sees only the probes of devices it may
see, less the parameters and blocks a share's template hides. Changing a storage is for its owner
and for organisation members reaching all of its devices (their role keys are checked by the route).
"""

from __future__ import annotations

from flask_babel import gettext
from sqlalchemy import or_, select
from sqlalchemy.orm import joinedload, selectinload

from api.access.gate import admitted
from api.access.reach import FULL, MEMBER, device_access, may_view, refuse_device_access, visibility_params, visible
from api.device.models import Category, Device, DeviceParam
from api.device.status import DeviceStatus
from api.extensions import uploads
from api.extensions.db import db
from api.extensions.smorest import ApiError, field_error
from api.identity.auth import require_account
from api.report.models import ScheduledReport
from api.storage.models import ColdStorage, StorageKind, StorageProbe, Zone
from api.tenancy import data_platform, data_platform_id

# The gate's name for this area's objects (api/storage/access_rules).
STORAGE_KIND = "storage"


# The storage detail tabs a share's template can hide (the device blocks they read).
BLOCKS = ("realtime", "chart", "alarm", "push", "params", "energy", "info")


LIVE = (DeviceStatus.ONLINE, DeviceStatus.ALARM, DeviceStatus.FAULT)


# The controller's state channels (catalogue type CS-4) and the zones of its four probes.
STATE_CHANNELS = {"compressor": 5, "fan": 6, "defrost": 7, "door": 8, "setpoint": 10, "light": 11}


CONTROLLER_ZONES = {1: Zone.DOOR, 2: Zone.MIDDLE, 3: Zone.EVAPORATOR, 4: Zone.RETURN_AIR}


CATEGORY = {StorageKind.STORAGE: Category.COLD_STORAGE, StorageKind.FREEZER: Category.FREEZER}


FIELDS = {
    "storageName": "name",
    "volume": "volume",
    "area": "area",
    "compressor": "compressor",
    "airCooler": "air_cooler",
    "electricBox": "electric_box",
    "brand": "brand",
    "model": "model",
    "address": "address",
    "lat": "lat",
    "lng": "lng",
    "images": "images",
    "timeZone": "time_zone",
    "remark": "remark",
    "mktEnabled": "mkt_enabled",
    "mktWindowHours": "mkt_window_hours",
    "mktLimit": "mkt_limit",
    "defrostHoldMinutes": "defrost_hold_minutes",
    "doorHoldMinutes": "door_hold_minutes",
}


def device_not_found(field: str) -> ApiError:
    """A device the account cannot use, named by its field (404: as if it did not exist)."""
    return field_error(field, gettext("The device cannot be found, please confirm and re-enter"), status=404)


def not_found() -> ApiError:
    return ApiError(gettext("The requested resource does not exist."), code=404, http_status=404)


def access_denied() -> ApiError:
    return ApiError(gettext("Access Denied"), code=403, http_status=403)


def visible_storages(kind: StorageKind | None = None):
    """Storages (of this kind) the signed-in account sees: its own, and those holding a device it
    reaches. The one rule of who sees a storage: the gate loads through it too (api/storage/access_rules)."""
    mine = ColdStorage.owner_account_id == require_account().id
    reached = visibility_params().get("viewer_reaches") or []
    if reached:
        holding = select(StorageProbe.storage_id).where(StorageProbe.device_id.in_(reached))
        mine = or_(mine, ColdStorage.id.in_(holding), ColdStorage.controller_device_id.in_(reached))
    stmt = select(ColdStorage).where(ColdStorage.platform_id == data_platform_id(), mine)
    if kind is not None:
        stmt = stmt.where(ColdStorage.kind == kind)
    return stmt.options(selectinload(ColdStorage.probes))


def visible_storage(storage_id: int) -> ColdStorage | None:
    return db.session.scalar(visible_storages().where(ColdStorage.id == storage_id))


def admitted_or_visible(storage_id: int) -> ColdStorage | None:
    """The storage the gate admitted for this call, else the visible one (of any kind)."""
    return admitted(STORAGE_KIND, storage_id) or visible_storage(storage_id)


def storage_not_found(field: str) -> ApiError:
    """A storage the account cannot see, named by its field (404: as if it did not exist)."""
    return field_error(field, gettext("The storage cannot be found, please confirm and choose again."), status=404)


def find(storage_id: int, kind: StorageKind) -> ColdStorage:
    """The storage the gate admitted for this call (or, outside a gated call, the visible one), of this kind."""
    storage = admitted_or_visible(storage_id)
    if storage is None or storage.kind != kind:
        raise not_found()
    return storage


def device_ids_of(storage: ColdStorage) -> set[int]:
    ids = {probe.device_id for probe in storage.probes}
    if storage.controller_device_id:
        ids.add(storage.controller_device_id)
    return ids


def viewer_devices(storages: list[ColdStorage]) -> dict[int, Device]:
    """The devices of these storages the signed-in account may see (with state and type)."""
    ids = set().union(*(device_ids_of(s) for s in storages)) if storages else set()
    if not ids:
        return {}
    stmt = (
        visible(select(Device), Device)
        .where(Device.id.in_(ids), Device.deleted.is_(False))
        .options(joinedload(Device.state), joinedload(Device.device_type))
    )
    return {device.id: device for device in db.session.scalars(stmt).unique()}


def param_of(device: Device, sensor: int) -> DeviceParam | None:
    return next((p for p in device.device_type.params if p.probe_id == sensor), None)


def probe_visible(device: Device | None, sensor: int, block: str | None = None) -> bool:
    if device is None:
        return False
    param = param_of(device, sensor)
    if param is None or not may_view(device, f"{param.param_key:04x}"):
        return False
    return block is None or may_view(device, block)


def blocks_of(storage: ColdStorage, devices: dict[int, Device]) -> list[str]:
    """Detail tabs the account may open: all for the owner; else those some reached device shows."""
    if storage.owner_account_id == require_account().id:
        return list(BLOCKS)
    mine = [devices[i] for i in device_ids_of(storage) if i in devices]
    return [block for block in BLOCKS if any(may_view(device, block) for device in mine)]


def require_block(storage: ColdStorage, devices: dict[int, Device], block: str) -> None:
    if block not in blocks_of(storage, devices):
        raise refuse_device_access()


def writable(storage: ColdStorage, devices: dict[int, Device]) -> bool:
    if storage.owner_account_id == require_account().id:
        return True
    ids = device_ids_of(storage)
    return bool(ids) and all(i in devices and device_access(devices[i]) == MEMBER for i in ids)


def require_write(storage: ColdStorage, devices: dict[int, Device]) -> None:
    if not writable(storage, devices):
        raise access_denied()


# ---- validation and saving -----------------------------------------------------------------------------


def _writable_device(device_id: int | None = None, guid: str | None = None) -> Device | None:
    """A device the account may put in a storage: visible and not merely shared with it."""
    stmt = visible(select(Device), Device).where(Device.deleted.is_(False), Device.scrapped_at.is_(None))
    stmt = stmt.where(Device.id == device_id) if device_id is not None else stmt.where(Device.guid == guid)
    device = db.session.scalar(stmt.options(joinedload(Device.device_type)))
    if device is None or device_access(device) not in (FULL, MEMBER):
        return None
    return device


def _controller(kind: StorageKind, guid: str | None) -> Device | None:
    if kind == StorageKind.VIRTUAL or not guid:
        return None
    device = _writable_device(guid=guid)
    if device is None:
        raise device_not_found("controllerGuid")
    if device.device_type.category != CATEGORY[kind]:
        message = (
            gettext("Choose a cold storage controller.")
            if kind == StorageKind.STORAGE
            else gettext("Choose a freezer monitor.")
        )
        raise field_error("controllerGuid", message)
    return device


def _default_probes(controller: Device) -> list[dict]:
    sensors = [p for p in controller.device_type.params if p.param_type == "sensor" and p.probe_id is not None]
    return [
        {
            "device": controller,
            "sensor": p.probe_id,
            "zone": CONTROLLER_ZONES.get(p.probe_id, Zone.MIDDLE) if len(sensors) > 1 else Zone.MIDDLE,
            "name": p.param_name,
        }
        for p in sensors
    ]


def _probes(kind: StorageKind, rows: list[dict] | None, controller: Device | None) -> list[dict] | None:
    """Checked probes ({device, sensor, zone, name}), or None to keep the current ones."""
    if rows is None:
        if kind == StorageKind.VIRTUAL:
            raise field_error("probes", gettext("Choose at least one probe."))
        return _default_probes(controller) if controller is not None else None
    if kind == StorageKind.VIRTUAL and not rows:
        raise field_error("probes", gettext("Choose at least one probe."))
    checked, seen = [], set()
    for index, row in enumerate(rows):
        device = _writable_device(device_id=row["deviceId"])
        if device is None:
            raise device_not_found(f"probes.{index}.deviceId")
        param = param_of(device, row["sensor"])
        if param is None or param.param_type != "sensor":
            raise field_error(f"probes.{index}.sensor", gettext("This device has no such probe."))
        if (device.id, row["sensor"]) in seen:
            raise field_error(f"probes.{index}.sensor", gettext("This probe is already in the list."))
        seen.add((device.id, row["sensor"]))
        checked.append(
            {"device": device, "sensor": row["sensor"], "zone": Zone(row["zone"]), "name": row.get("probeName")}
        )
    return checked


def _check_images(names: list[str]) -> None:
    slug = data_platform().slug
    for index, name in enumerate(names):
        if uploads.find_upload(slug, name) is None:
            raise field_error(f"images.{index}", gettext("Upload the image first (JPG or PNG, at most 2 MB)."))


def save(kind: StorageKind, args: dict) -> ColdStorage:
    """Create (insert: no storageId) or change a storage (update: its schema requires a positive id,
    so 0 is never read as "none"). Everything is checked before anything changes."""
    storage = None
    if "storageId" in args:
        storage = find(args["storageId"], kind)
        require_write(storage, viewer_devices([storage]))
    controller = _controller(kind, args.get("controllerGuid"))
    changed_controller = storage is None or (controller.id if controller else None) != storage.controller_device_id
    rows = args.get("probes")
    probes = _probes(kind, rows if rows is not None or changed_controller else None, controller)
    _check_images(args.get("images") or [])
    if storage is None:
        storage = ColdStorage(platform_id=data_platform_id(), owner_account_id=require_account().id, kind=kind)
        db.session.add(storage)
    for field, column in FIELDS.items():
        if field in args:
            setattr(storage, column, args[field])
    if kind != StorageKind.VIRTUAL:
        storage.controller_device_id = controller.id if controller else None
    if probes is not None:
        existing = {(p.device_id, p.sensor): p for p in storage.probes}
        kept = []
        for p in probes:  # a probe kept keeps its row; zone and name follow the input
            row = existing.pop((p["device"].id, p["sensor"]), None) or StorageProbe(
                device_id=p["device"].id, sensor=p["sensor"]
            )
            row.zone, row.name = p["zone"], p["name"]
            kept.append(row)
        for row in existing.values():
            storage.probes.remove(row)
        db.session.flush()
        storage.probes = kept
    db.session.commit()
    return storage


def delete(storage_id: int, kind: StorageKind) -> None:
    storage = find(storage_id, kind)
    if storage.owner_account_id != require_account().id:
        raise access_denied()
    # Its scheduled reports go with it (they name it: api/storage/report.STORAGE_KIND).
    for scheduled in db.session.scalars(
        select(ScheduledReport).where(
            ScheduledReport.platform_id == storage.platform_id, ScheduledReport.report_type == "storage"
        )
    ):
        if scheduled.subject_ids == [storage.id]:
            db.session.delete(scheduled)
    db.session.delete(storage)
    db.session.commit()


def store_image(file) -> dict:
    stored = uploads.store_upload(file, "image", data_platform().slug)
    return {"name": stored.name, "url": image_url(stored.name)}


def image_url(name: str) -> str:
    return f"/api/storage/ColdStorage/image/{name}"


def image_file(name: str):
    found = uploads.find_upload(data_platform().slug, name)
    if found is None:
        raise not_found()
    return uploads.send_upload(*found)


def loaded(storage_id: int, kind: StorageKind, block: str) -> tuple[ColdStorage, dict[int, Device]]:
    """A visible storage, its devices for the viewer, and the block checked."""
    storage = find(storage_id, kind)
    devices = viewer_devices([storage])
    require_block(storage, devices, block)
    return storage, devices
