"""FDA endorsements: the named meanings an account gives its signatures (its own, per site)."""

from __future__ import annotations

from flask_babel import gettext
from sqlalchemy import select

from api.extensions.db import db, paginate
from api.fda.models import (
    Endorsement,
)
from api.fda.services import field_error, not_found
from api.identity.auth import require_account
from api.tenancy import data_platform_id


def _endorsements():
    return select(Endorsement).where(
        Endorsement.owner_account_id == require_account().id, Endorsement.platform_id == data_platform_id()
    )


def endorsement_page(args: dict) -> dict:
    stmt = _endorsements()
    if args.get("endorsementName"):
        stmt = stmt.where(Endorsement.name.icontains(args["endorsementName"], autoescape=True))
    return paginate(stmt, args, Endorsement.id.desc())


def owned_endorsement(endorsement_id: int) -> Endorsement:
    endorsement = db.session.scalar(_endorsements().where(Endorsement.id == endorsement_id))
    if endorsement is None:
        raise not_found()
    return endorsement


def save_endorsement(args: dict) -> Endorsement:
    me = require_account()
    if "id" in args:
        endorsement = owned_endorsement(args["id"])
    else:
        endorsement = Endorsement(owner_account_id=me.id, platform_id=data_platform_id())
    name = args["endorsementName"].strip()
    taken = db.session.scalar(_endorsements().where(Endorsement.name == name, Endorsement.id != (endorsement.id or 0)))
    if taken is not None:
        raise field_error("endorsementName", gettext("An endorsement with this name already exists."))
    endorsement.name = name
    endorsement.description = (args.get("description") or "").strip()
    db.session.add(endorsement)
    db.session.commit()
    return endorsement


def delete_endorsement(endorsement_id: int) -> None:
    db.session.delete(owned_endorsement(endorsement_id))
    db.session.commit()
