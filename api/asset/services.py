"""Assets: up to five devices, a custom key/value list, a state that switches its devices."""

from __future__ import annotations

from flask_babel import gettext
from sqlalchemy import select

from api.asset.hooks import asset_devices_switched
from api.asset.models import MAX_DEVICES, Asset, AssetDevice
from api.device.models import Device
from api.device.services import log_event
from api.extensions.db import db, paginate
from api.extensions.smorest import ApiError
from api.organization.hierarchy import find_organization
from api.organization.manager import manager_id
from api.project.services import visible_device_ids
from api.tenancy import data_platform_id, scoped

FIELDS = {
    "combName": "comb_name",
    "combTypeName": "comb_type_name",
    "combNum": "comb_num",
    "brand": "brand",
    "model": "model",
    "volume": "volume",
    "remark": "remark",
    "custom": "custom",
}


def not_found() -> ApiError:
    return ApiError(gettext("The requested resource does not exist."), code=404, http_status=404)


def _assets():

    return scoped(select(Asset), Asset).where(Asset.owner_account_id == manager_id())


def find(asset_id: int) -> Asset:
    asset = db.session.scalar(_assets().where(Asset.id == asset_id))
    if asset is None:
        raise not_found()
    return asset


def devices_of(asset_ids: list[int]) -> dict[int, list[Device]]:
    found: dict[int, list[Device]] = {}
    for link, device in db.session.execute(
        select(AssetDevice, Device)
        .join(Device, Device.id == AssetDevice.device_id)
        .where(AssetDevice.asset_id.in_(asset_ids))
    ):
        found.setdefault(link.asset_id, []).append(device)
    return found


def page(args: dict) -> dict:
    stmt = _assets()
    if args.get("combName"):
        stmt = stmt.where(Asset.comb_name.icontains(args["combName"], autoescape=True))
    if args.get("organizationId"):
        stmt = stmt.where(Asset.organization_id == args["organizationId"])
    if args.get("enabled") is not None:
        stmt = stmt.where(Asset.enabled.is_(args["enabled"]))
    found = paginate(stmt, args, Asset.id.desc())
    devices = devices_of([a.id for a in found["list"]])
    return {"list": [{"asset": a, "devices": devices.get(a.id, [])} for a in found["list"]], "total": found["total"]}


def detail(asset_id: int) -> dict:
    asset = find(asset_id)
    return {"asset": asset, "devices": devices_of([asset.id]).get(asset.id, [])}


def save(args: dict) -> dict:

    device_ids = visible_device_ids(args["deviceIds"]) if args["deviceIds"] else []
    if len(device_ids) > MAX_DEVICES:
        raise ApiError(
            gettext("An asset has at most five devices."),
            code=422,
            http_status=422,
            data={"errors": {"deviceIds": [gettext("An asset has at most five devices.")]}},
        )
    if args.get("organizationId") is not None:
        find_organization(args["organizationId"])
    asset = find(args["id"]) if "id" in args else None
    taken = db.session.scalar(
        select(AssetDevice.device_id)
        .where(AssetDevice.device_id.in_(device_ids), AssetDevice.asset_id != (asset.id if asset else 0))
        .limit(1)
    )
    if taken is not None:
        raise ApiError(gettext("A device already belongs to another asset."), code=6001)
    if asset is None:
        asset = Asset(platform_id=data_platform_id(), owner_account_id=manager_id())
        db.session.add(asset)
    for field, column in FIELDS.items():
        setattr(asset, column, args.get(field))
    asset.organization_id = args.get("organizationId")
    db.session.flush()
    current = {
        link.device_id: link for link in db.session.scalars(select(AssetDevice).where(AssetDevice.asset_id == asset.id))
    }
    for device_id, link in current.items():
        if device_id not in device_ids:
            db.session.delete(link)
    added = [device_id for device_id in device_ids if device_id not in current]
    for device_id in added:
        db.session.add(AssetDevice(asset_id=asset.id, device_id=device_id))
    db.session.flush()
    if not asset.enabled and added:
        _switch(asset, False, only=added)
    db.session.commit()
    return detail(asset.id)


def delete(asset_id: int) -> None:
    asset = find(asset_id)
    if not asset.enabled:
        _switch(asset, True)  # the devices it disabled come back on
    db.session.delete(asset)
    db.session.commit()


def _switch(asset: Asset, enabled: bool, only: list[int] | None = None) -> list[int]:
    """Disable the asset's enabled devices (remembering which), or enable the ones it disabled."""
    switched = []
    for link, device in db.session.execute(
        select(AssetDevice, Device)
        .join(Device, Device.id == AssetDevice.device_id)
        .where(AssetDevice.asset_id == asset.id)
    ):
        if only is not None and device.id not in only:
            continue
        if device.scrapped_at is not None or device.deleted:
            continue
        if not enabled and device.enabled:
            device.enabled = False
            link.disabled_by_asset = True
            switched.append(device.id)
            log_event(device, "stopUsing", asset=asset.id)
        elif enabled and link.disabled_by_asset:
            device.enabled = True
            link.disabled_by_asset = False
            switched.append(device.id)
            log_event(device, "enable", asset=asset.id)
    if switched:
        asset_devices_switched(switched, enabled)
    return switched


def set_enabled(asset_id: int, enabled: bool) -> dict:
    asset = find(asset_id)
    if asset.enabled != enabled:
        asset.enabled = enabled
        _switch(asset, enabled)
        db.session.commit()
    return detail(asset.id)
