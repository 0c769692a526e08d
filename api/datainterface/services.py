"""Connector management: an account's connectors, their equipment-code mappings and delivery log."""

from __future__ import annotations

from flask_babel import gettext
from sqlalchemy import select

from api.datainterface.delivery import align
from api.datainterface.models import Connector, ConnectorDelivery, ConnectorMapping
from api.device.models import Device
from api.extensions.db import db, paginate, utcnow
from api.extensions.smorest import ApiError
from api.identity.auth import require_account
from api.storage.models import ColdStorage
from api.tenancy import data_platform_id, scoped

FIELDS = {"name": "name", "endpoint": "endpoint", "appId": "app_id", "intervalMinutes": "interval_minutes"}


def load_connector(connector_id: int) -> Connector | None:
    """The access gate's loader (owner-only object kind)."""
    return db.session.scalar(scoped(select(Connector), Connector).where(Connector.id == connector_id))


def find(connector_id: int) -> Connector:
    connector = load_connector(connector_id)
    if connector is None or connector.owner_account_id != require_account().id:
        raise ApiError(gettext("The requested resource does not exist."), code=404, http_status=404)
    return connector


def connectors() -> list[Connector]:
    stmt = scoped(select(Connector), Connector).where(Connector.owner_account_id == require_account().id)
    return list(db.session.scalars(stmt.order_by(Connector.id)))


def insert(args: dict) -> Connector:
    connector = Connector(
        platform_id=data_platform_id(),
        owner_account_id=require_account().id,
        secret=args["secret"],
        enabled=False,
        **{column: args[field] for field, column in FIELDS.items()},
    )
    db.session.add(connector)
    _set_enabled(connector, args["enabled"])
    db.session.commit()
    return connector


def update(args: dict) -> Connector:
    connector = find(args["connectorId"])
    for field, column in FIELDS.items():
        if args.get(field) not in (None, ""):
            setattr(connector, column, args[field])
    if args.get("secret"):
        connector.secret = args["secret"]
    if args.get("enabled") is not None:
        _set_enabled(connector, args["enabled"])
    db.session.commit()
    return connector


def _set_enabled(connector: Connector, enabled: bool) -> None:
    """Enabling starts at the current interval: the time it was off is not sent afterwards."""
    if enabled and not connector.enabled:
        connector.cursor = align(utcnow(), connector.interval_minutes)
    connector.enabled = enabled


def delete(connector_id: int) -> None:
    db.session.delete(find(connector_id))
    db.session.commit()


# ---- mapping ------------------------------------------------------------------------------------------------


def _own_devices() -> dict[int, Device]:
    stmt = scoped(select(Device), Device).where(
        Device.owner_account_id == require_account().id, Device.deleted.is_(False)
    )
    return {device.id: device for device in db.session.scalars(stmt)}


def _own_storages() -> dict[int, ColdStorage]:
    stmt = scoped(select(ColdStorage), ColdStorage).where(ColdStorage.owner_account_id == require_account().id)
    return {storage.id: storage for storage in db.session.scalars(stmt)}


def targets() -> list[dict]:
    """What the account may map: its devices and its storages."""
    devices = [
        {"targetType": "device", "targetId": d.id, "targetName": d.name or d.guid} for d in _own_devices().values()
    ]
    storages = [{"targetType": "storage", "targetId": s.id, "targetName": s.name} for s in _own_storages().values()]
    return sorted(devices, key=lambda t: t["targetName"]) + sorted(storages, key=lambda t: t["targetName"])


def mapping(connector_id: int) -> list[dict]:
    connector = find(connector_id)
    names = {(t["targetType"], t["targetId"]): t["targetName"] for t in targets()}
    out = []
    for item in connector.mappings:
        kind, target = ("device", item.device_id) if item.device_id is not None else ("storage", item.storage_id)
        out.append(
            {
                "targetType": kind,
                "targetId": target,
                "targetName": names.get((kind, target), ""),
                "equipmentCode": item.equipment_code,
            }
        )
    return out


def set_mapping(args: dict) -> list[dict]:
    """Replace the whole mapping: every target must be the account's, every code and target once."""
    connector = find(args["connectorId"])
    devices, storages = _own_devices(), _own_storages()
    seen_codes: set[str] = set()
    seen_targets: set[tuple[str, int]] = set()
    for index, item in enumerate(args["items"]):
        owned = devices if item["targetType"] == "device" else storages
        if item["targetId"] not in owned:
            raise _field_error(f"items.{index}.targetId", gettext("The requested resource does not exist."))
        if item["equipmentCode"] in seen_codes:
            raise _field_error(f"items.{index}.equipmentCode", gettext("This equipment code is used twice."))
        if (item["targetType"], item["targetId"]) in seen_targets:
            raise _field_error(f"items.{index}.targetId", gettext("This device or storage is mapped twice."))
        seen_codes.add(item["equipmentCode"])
        seen_targets.add((item["targetType"], item["targetId"]))
    connector.mappings.clear()
    db.session.flush()
    for item in args["items"]:
        is_device = item["targetType"] == "device"
        connector.mappings.append(
            ConnectorMapping(
                device_id=item["targetId"] if is_device else None,
                storage_id=None if is_device else item["targetId"],
                equipment_code=item["equipmentCode"],
            )
        )
    db.session.commit()
    return mapping(connector.id)


# ---- delivery log -------------------------------------------------------------------------------------------


def deliveries(args: dict) -> dict:
    connector = find(args["connectorId"])
    stmt = select(ConnectorDelivery).where(ConnectorDelivery.connector_id == connector.id)
    if args.get("status"):
        stmt = stmt.where(ConnectorDelivery.status == args["status"])
    return paginate(stmt, args, ConnectorDelivery.window_start.desc())


def _field_error(field: str, message: str) -> ApiError:
    text = f"{gettext('Invalid input')} - {field}: {message}"
    return ApiError(text, code=422, http_status=422, data={"errors": {field: [message]}})
