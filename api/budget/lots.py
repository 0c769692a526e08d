"""A storage's lots: a product held in a storage from when it was placed until it was removed, under
a stability profile, and its disposition once a band is exhausted (signed in FDA mode: the route's
`gxp`)."""

from __future__ import annotations

from flask_babel import gettext
from sqlalchemy import func, select

from api.access.gate import admitted, register_kind
from api.budget.models import LotDisposition, StorageLot
from api.budget.profiles import not_found, usable
from api.budget.services import lot_budget
from api.extensions.db import db, utcnow
from api.extensions.smorest import OPERATE, Need, field_error
from api.identity.auth import require_account
from api.storage import services as storages
from api.storage.access_rules import admit_storage

LOT_KIND = "storageLot"


def _load(lot_id: int) -> StorageLot | None:
    """A lot of a storage the account sees (the storage's rule)."""
    lot = db.session.get(StorageLot, lot_id)
    if lot is None or storages.visible_storage(lot.storage_id) is None:
        return None
    return lot


def _admit(lot: StorageLot, need: Need) -> None:
    if need.access == OPERATE:
        admit_storage(storages.visible_storage(lot.storage_id), need)


def register() -> None:
    register_kind(LOT_KIND, _load, admit=_admit)


def find(lot_id: int) -> StorageLot:
    lot = admitted(LOT_KIND, lot_id) or _load(lot_id)
    if lot is None:
        raise not_found()
    return lot


def page(args: dict) -> dict:
    stmt = select(StorageLot).where(StorageLot.storage_id == args["storageId"])
    total = db.session.scalar(select(func.count()).select_from(stmt.subquery()))
    rows = db.session.scalars(
        stmt.order_by(StorageLot.placed_at.desc(), StorageLot.id.desc())
        .offset((args["start"] - 1) * args["pageSize"])
        .limit(args["pageSize"])
    ).all()
    return {"list": rows, "total": total}


def detail(lot_id: int) -> StorageLot:
    return find(lot_id)


def save(args: dict) -> StorageLot:
    lot = find(args["id"]) if "id" in args else None
    if lot is not None and lot.storage_id != args["storageId"]:
        raise field_error("storageId", gettext("A lot cannot move to another storage."))
    profile = usable(args.get("profileId"))
    if lot is None:
        storage = storages.visible_storage(args["storageId"])
        if storage is None:
            raise not_found()
        lot = StorageLot(platform_id=storage.platform_id, storage_id=storage.id)
        db.session.add(lot)
    elif lot.profile_id != (profile.id if profile else None):
        lot.alerted_at, lot.alarm_id = None, None  # a new profile: its own threshold alarm
    lot.product, lot.lot_number, lot.quantity = args["product"].strip(), args.get("lotNumber"), args["quantity"]
    lot.placed_at, lot.removed_at = args["placedAt"], args.get("removedAt")
    lot.profile_id = profile.id if profile else None
    db.session.commit()
    return lot


def delete(lot_id: int) -> None:
    db.session.delete(find(lot_id))
    db.session.commit()


def budget(args: dict) -> dict:
    return lot_budget(find(args["id"]))


def dispose(args: dict) -> StorageLot:
    """What happens to the lot (released, quarantined, rejected with a reason); a later decision
    replaces it, and the audit trail keeps each."""
    lot = find(args["id"])
    lot.disposition = LotDisposition(args["disposition"])
    lot.disposition_reason = (args.get("reason") or "").strip() or None
    lot.disposed_by, lot.disposed_at = require_account().id, utcnow()
    db.session.commit()
    return lot
