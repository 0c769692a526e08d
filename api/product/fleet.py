"""GUID batches (/operation/device/guid/content, /guid/record) on api/device's issuance, and SIM
cards (/operation/sim/list). Operator only. Credentials are derived from the GUID
(api/device/credentials.py), so a batch's file is rebuilt on each download and every download is
recorded (GuidExport)."""

from __future__ import annotations

import csv
import io

from flask import send_file
from flask_babel import gettext
from openpyxl import Workbook
from sqlalchemy import func, or_, select

from api.device.credentials import device_secret
from api.device.models import Device, DeviceType, GuidBatch
from api.device.services import issue_guids
from api.extensions.db import db, escape_like, paginate
from api.identity.auth import require_account
from api.identity.models import Account
from api.platform.models import Platform
from api.product.models import GuidExport, SimCard, SimRechargeState, SimUseState
from api.product.services import field_error, not_found, operator

MIME = {"csv": "text/csv", "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"}

# ---- GUID batches ----------------------------------------------------------------------------------------


def domains() -> list[Platform]:
    operator()
    return list(db.session.scalars(select(Platform).order_by(Platform.id)))


def issue(args: dict) -> dict:
    operator()
    device_type = db.session.get(DeviceType, args["deviceTypeId"])
    if device_type is None:
        raise field_error("deviceTypeId", gettext("The requested resource does not exist."))
    platform = db.session.get(Platform, args["domainId"])
    if platform is None:
        raise field_error("domainId", gettext("The requested resource does not exist."))
    if len(str(device_type.type_code)) > 7:  # GUIDs are at most 20 digits: code, 12 random, check digit
        raise field_error("deviceTypeId", gettext("The type code is too long to issue GUIDs."))
    issued = issue_guids(platform, device_type, args["num"], args["orderCode"], args.get("deviceTag"))
    # The batch of these GUIDs (not "the newest batch": another operator may issue at the same time).
    batch_id = db.session.scalar(select(Device.batch_id).where(Device.guid == issued[0][0]))
    return batch_page({"start": 1, "pageSize": 1, "batchId": batch_id})["list"][0]


def batch_page(args: dict) -> dict:
    operator()
    claimed = (
        select(func.count(Device.id))
        .where(Device.batch_id == GuidBatch.id, Device.owner_account_id.is_not(None))
        .scalar_subquery()
    )
    exports = select(func.count(GuidExport.id)).where(GuidExport.batch_id == GuidBatch.id).scalar_subquery()
    stmt = (
        select(GuidBatch, DeviceType.type_name, Platform.top_domain, claimed, exports)
        .join(DeviceType, DeviceType.id == GuidBatch.device_type_id)
        .join(Platform, Platform.id == GuidBatch.platform_id)
    )
    if args.get("batchId"):
        stmt = stmt.where(GuidBatch.id == args["batchId"])
    if args.get("orderCode"):
        stmt = stmt.where(GuidBatch.order_code.ilike(f"%{escape_like(args['orderCode'])}%", escape="\\"))
    if args.get("deviceTypeId"):
        stmt = stmt.where(GuidBatch.device_type_id == args["deviceTypeId"])
    page = paginate(stmt, args, GuidBatch.id.desc(), rows=True)
    page["list"] = [
        {"batch": b, "type_name": t, "platform_name": p, "claimed": c, "exports": e} for b, t, p, c, e in page["list"]
    ]
    return page


def batch_guids(args: dict) -> dict:
    operator()
    if db.session.get(GuidBatch, args["batchId"]) is None:
        raise not_found()
    return paginate(select(Device).where(Device.batch_id == args["batchId"]), args, Device.guid)


def export(batch_id: int, file_format: str):
    """The batch's GUIDs and device credentials as CSV or XLSX; the download is recorded."""
    operator()
    batch = db.session.get(GuidBatch, batch_id)
    if batch is None:
        raise not_found()
    rows = [
        (device.guid, device_secret(device.guid, device.credential_version))
        for device in db.session.scalars(select(Device).where(Device.batch_id == batch.id).order_by(Device.guid))
    ]
    header = (gettext("GUID"), gettext("Device credential"))
    buffer = io.BytesIO()
    if file_format == "csv":
        text = io.StringIO()
        writer = csv.writer(text)
        writer.writerow(header)
        writer.writerows(rows)
        buffer.write(("\ufeff" + text.getvalue()).encode())
    else:
        book = Workbook(write_only=True)
        sheet = book.create_sheet(batch.order_code[:31] or "GUID")
        sheet.append(header)
        for row in rows:
            sheet.append(row)
        book.save(buffer)
    db.session.add(GuidExport(batch_id=batch.id, account_id=require_account().id, file_format=file_format))
    db.session.commit()
    buffer.seek(0)
    name = f"guid-{batch.order_code}-{batch.id}.{file_format}"
    return send_file(buffer, mimetype=MIME[file_format], as_attachment=True, download_name=name)


def export_page(args: dict) -> dict:
    operator()
    stmt = (
        select(GuidExport, GuidBatch.order_code, GuidBatch.num, Account.user_name)
        .join(GuidBatch, GuidBatch.id == GuidExport.batch_id)
        .outerjoin(Account, Account.id == GuidExport.account_id)
    )
    if args.get("orderCode"):
        stmt = stmt.where(GuidBatch.order_code.ilike(f"%{escape_like(args['orderCode'])}%", escape="\\"))
    page = paginate(stmt, args, GuidExport.id.desc(), rows=True)
    page["list"] = [{"export": e, "order_code": o, "num": n, "user_name": u} for e, o, n, u in page["list"]]
    return page


# ---- SIM cards -------------------------------------------------------------------------------------------

SIM_FIELDS = {
    "cardNum": "card_num",
    "iccId": "icc_id",
    "operator": "operator",
    "openTime": "open_time",
    "activeTime": "active_time",
    "expiredTime": "expired_time",
    "balance": "balance",
    "remark": "remark",
}


def sim_page(args: dict) -> dict:
    operator()
    stmt = select(SimCard)
    if args.get("keyword"):
        pattern = f"%{escape_like(args['keyword'])}%"
        stmt = stmt.where(or_(SimCard.card_num.like(pattern, escape="\\"), SimCard.icc_id.ilike(pattern, escape="\\")))
    if args.get("useState"):
        stmt = stmt.where(SimCard.use_state == SimUseState(args["useState"]))
    return paginate(stmt, args, SimCard.id.desc())


def check_sim(args: dict, sim_id: int | None) -> None:
    taken = select(SimCard.id).where(SimCard.icc_id == args["iccId"])
    if sim_id is not None:
        taken = taken.where(SimCard.id != sim_id)
    if db.session.scalar(taken) is not None:
        raise field_error("iccId", gettext("This ICCID is already registered."))
    opened, expires = args.get("openTime"), args.get("expiredTime")
    if opened and expires and expires <= opened:
        raise field_error("expiredTime", gettext("The end time must be after the start time."))


def apply_sim(sim: SimCard, args: dict) -> None:
    for field, column in SIM_FIELDS.items():
        setattr(sim, column, args[field])
    sim.use_state = SimUseState(args["useState"])
    sim.recharge_state = SimRechargeState(args["rechargeState"])


def save_sim(args: dict) -> SimCard:
    operator()
    sim = db.session.get(SimCard, args["id"]) if "id" in args else SimCard()
    if sim is None:
        raise not_found()
    check_sim(args, sim.id)
    apply_sim(sim, args)
    db.session.add(sim)
    db.session.commit()
    return sim


def delete_sim(sim_id: int) -> None:
    operator()
    sim = db.session.get(SimCard, sim_id)
    if sim is None:
        raise not_found()
    db.session.delete(sim)
    db.session.commit()


def bind(sim_id: int, guid: str | None) -> SimCard:
    """Bind the card to the device of that GUID (any platform), or unbind with None."""
    operator()
    sim = db.session.get(SimCard, sim_id)
    if sim is None:
        raise not_found()
    if guid is None:
        sim.device_id = None
        sim.use_state = SimUseState.UNUSED
    else:
        device = db.session.scalar(select(Device).where(Device.guid == guid, Device.deleted.is_(False)))
        if device is None:
            raise field_error("deviceGuid", gettext("The device cannot be found, please confirm and re-enter"))
        holder = db.session.scalar(select(SimCard).where(SimCard.device_id == device.id, SimCard.id != sim.id))
        if holder is not None:
            raise field_error("deviceGuid", gettext("This device already has a SIM card."))
        sim.device_id = device.id
        sim.use_state = SimUseState.IN_USE
    db.session.commit()
    return sim
