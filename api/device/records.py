"""A device's maintenance and warranty records."""

from __future__ import annotations

from flask_babel import gettext
from sqlalchemy import select

from api.access.reach import (
    require_block,
)
from api.device.models import (
    MaintenanceRecord,
    RecordKind,
)
from api.device.services import log_event, owned_device
from api.extensions.db import db, paginate
from api.extensions.smorest import ApiError
from api.identity.auth import require_account

RECORD_FIELDS = {
    "kind": "kind",
    "reportTime": "report_time",
    "startTime": "start_time",
    "endTime": "end_time",
    "person": "person",
    "approver": "approver",
    "repairer": "repairer",
    "reason": "reason",
    "content": "content",
    "standard": "standard",
    "result": "result",
}


def record_page(args: dict) -> dict:
    device = owned_device(args["deviceId"])
    require_block(device, "records")
    stmt = select(MaintenanceRecord).where(MaintenanceRecord.device_id == device.id)
    if args.get("kind"):
        stmt = stmt.where(MaintenanceRecord.kind == RecordKind(args["kind"]))
    return paginate(stmt, args, MaintenanceRecord.report_time.desc(), MaintenanceRecord.id.desc())


def save_record(args: dict) -> MaintenanceRecord:
    device = owned_device(args["deviceId"], manage=True)
    if "id" in args:
        record = db.session.scalar(
            select(MaintenanceRecord).where(
                MaintenanceRecord.id == args["id"], MaintenanceRecord.device_id == device.id
            )
        )
        if record is None:
            raise ApiError(gettext("The requested resource does not exist."), code=404, http_status=404)
    else:
        record = MaintenanceRecord(device_id=device.id, created_by=require_account().id)
        db.session.add(record)
    for field, column in RECORD_FIELDS.items():
        setattr(record, column, RecordKind(args[field]) if field == "kind" else args[field])
    log_event(device, "record", kind=args["kind"])
    db.session.commit()
    return record


def delete_record(record_id: int) -> None:
    record = db.session.get(MaintenanceRecord, record_id)
    if record is None:
        raise ApiError(gettext("The requested resource does not exist."), code=404, http_status=404)
    owned_device(record.device_id, manage=True)  # 404 unless the caller owns the device
    db.session.delete(record)
    db.session.commit()
