"""Series and firmware versions (/operation/device/series, /operation/device/version).

A series is a name device types belong to: DeviceType.type_series holds the name, which must be a
series of the operator's platform (a rename follows into the types, a series in use is not deleted).
A firmware version is a file for one device model (type), at most the upload cap of
rules/fields.json (`upgrade.firmwareMaxMB`), stored through api/extensions/uploads.py with its
SHA-256; it cannot be deleted while a rollout that is not finished sends it. Operator only; a
refused write changes nothing (every check runs before anything is stored)."""

from __future__ import annotations

from flask_babel import gettext
from sqlalchemy import func, select, update
from werkzeug.datastructures import FileStorage

from api.device.models import DeviceType
from api.extensions import uploads
from api.extensions.db import db, escape_like, paginate
from api.extensions.smorest import ApiError
from api.identity.auth import require_account
from api.product.models import DeviceSeries, FirmwareVersion, RolloutStatus, UpgradeRollout
from api.product.services import field_error, not_found, operator
from api.tenancy import current_platform

FIRMWARE_FOLDER = "firmware"


# ---- series ------------------------------------------------------------------------------------------------


def _series_query():
    return select(DeviceSeries).where(DeviceSeries.platform_id == current_platform().id)


def series_page(args: dict) -> dict:
    operator()
    stmt = _series_query()
    if args.get("keyword"):
        pattern = f"%{escape_like(args['keyword'].lower())}%"
        stmt = stmt.where(func.lower(DeviceSeries.series_name).like(pattern, escape="\\"))
    page = paginate(stmt, args, DeviceSeries.series_name)
    counts = dict(
        db.session.execute(
            select(DeviceType.type_series, func.count())
            .where(DeviceType.type_series.in_([s.series_name for s in page["list"]]))
            .group_by(DeviceType.type_series)
        ).all()
    )
    for series in page["list"]:
        series.type_count = counts.get(series.series_name, 0)
    return page


def series_options() -> list[DeviceSeries]:
    operator()
    return list(db.session.scalars(_series_query().order_by(DeviceSeries.series_name)))


def _own_series(series_id: int) -> DeviceSeries:
    series = db.session.get(DeviceSeries, series_id)
    if series is None or series.platform_id != current_platform().id:
        raise not_found()
    return series


def save_series(args: dict) -> DeviceSeries:
    operator()
    series = _own_series(args["id"]) if "id" in args else DeviceSeries(platform_id=current_platform().id)
    name = args["seriesName"].strip()
    taken = _series_query().where(DeviceSeries.series_name == name)
    if series.id is not None:
        taken = taken.where(DeviceSeries.id != series.id)
    if db.session.scalar(taken) is not None:
        raise field_error("seriesName", gettext("This series already exists."))
    if series.id is not None and series.series_name != name:
        # The types of the series follow its new name.
        db.session.execute(
            update(DeviceType).where(DeviceType.type_series == series.series_name).values(type_series=name)
        )
    series.series_name = name
    db.session.add(series)
    db.session.commit()
    series.type_count = db.session.scalar(
        select(func.count()).select_from(DeviceType).where(DeviceType.type_series == name)
    )
    return series


def delete_series(series_id: int) -> None:
    operator()
    series = _own_series(series_id)
    used = select(DeviceType.id).where(DeviceType.type_series == series.series_name).limit(1)
    if db.session.scalar(used) is not None:
        raise ApiError(gettext("Device types belong to this series; it cannot be deleted."), code=409, http_status=409)
    db.session.delete(series)
    db.session.commit()


# ---- firmware versions ---------------------------------------------------------------------------------------


def firmware_page(args: dict) -> dict:
    operator()
    stmt = select(FirmwareVersion)
    if args.get("deviceTypeId"):
        stmt = stmt.where(FirmwareVersion.device_type_id == args["deviceTypeId"])
    if args.get("keyword"):
        pattern = f"%{escape_like(args['keyword'].lower())}%"
        stmt = stmt.where(func.lower(FirmwareVersion.version_value).like(pattern, escape="\\"))
    return paginate(stmt, args, FirmwareVersion.created_at.desc(), FirmwareVersion.id.desc())


def get_firmware(firmware_id: int) -> FirmwareVersion:
    firmware = db.session.get(FirmwareVersion, firmware_id)
    if firmware is None:
        raise not_found()
    return firmware


def upload_firmware(args: dict, file: FileStorage | None) -> FirmwareVersion:
    """Check the fields and the file (cap, not empty), then store the file and the version."""
    operator()
    device_type = db.session.get(DeviceType, args["deviceTypeId"])
    if device_type is None:
        raise field_error("deviceTypeId", gettext("No such device model."))
    value = args["latestVersionValue"].strip()
    taken = select(FirmwareVersion.id).where(
        FirmwareVersion.device_type_id == device_type.id, FirmwareVersion.version_value == value
    )
    if db.session.scalar(taken) is not None:
        raise field_error("latestVersionValue", gettext("This model has this version already."))
    try:
        stored = uploads.store_upload(file, "firmware", FIRMWARE_FOLDER)
    except ApiError as exc:
        raise ApiError(
            exc.msg, code=exc.code, http_status=exc.http_status, data={"errors": {"upgradeMultipartFile": [exc.msg]}}
        ) from None
    firmware = FirmwareVersion(
        device_type_id=device_type.id,
        version_value=value,
        version_label=args["latestVersionLabel"].strip(),
        version_descrip=args.get("versionDescrip") or None,
        file_name=stored.name,
        original_name=(file.filename or "")[:255] or None,
        file_size=stored.size,
        sha256=stored.sha256,
        created_by=require_account().id,
    )
    db.session.add(firmware)
    db.session.commit()
    return firmware


def delete_firmware(firmware_id: int) -> None:
    """Delete a version no rollout is sending (running, or stopped and retryable); the history of
    its finished rollouts goes with it."""
    operator()
    firmware = get_firmware(firmware_id)
    rollouts = list(db.session.scalars(select(UpgradeRollout).where(UpgradeRollout.firmware_id == firmware.id)))
    if any(r.status in (RolloutStatus.RUNNING, RolloutStatus.STOPPED) for r in rollouts):
        raise ApiError(gettext("A rollout uses this version; it cannot be deleted."), code=409, http_status=409)
    for rollout in rollouts:
        db.session.delete(rollout)
    db.session.delete(firmware)
    db.session.commit()
    uploads.delete_upload(FIRMWARE_FOLDER, firmware.file_name)
