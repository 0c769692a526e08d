"""Stability profiles: an account's (its organisation's manager's, like its track templates)."""

from __future__ import annotations

from flask_babel import gettext
from sqlalchemy import func, select

from api.budget.models import StabilityProfile
from api.extensions.db import db
from api.extensions.smorest import ApiError, field_error
from api.organization.manager import manager_id
from api.tenancy import data_platform_id, scoped


def not_found() -> ApiError:
    return ApiError(gettext("The requested resource does not exist."), code=404, http_status=404)


def _profiles():
    return scoped(select(StabilityProfile), StabilityProfile).where(StabilityProfile.owner_account_id == manager_id())


def page(args: dict) -> dict:
    stmt = _profiles()
    if args.get("name"):
        stmt = stmt.where(StabilityProfile.name.contains(args["name"].strip(), autoescape=True))
    total = db.session.scalar(select(func.count()).select_from(stmt.subquery()))
    rows = db.session.scalars(
        stmt.order_by(StabilityProfile.name, StabilityProfile.id)
        .offset((args["start"] - 1) * args["pageSize"])
        .limit(args["pageSize"])
    ).all()
    return {"list": rows, "total": total}


def find(profile_id: int) -> StabilityProfile:
    profile = db.session.scalar(_profiles().where(StabilityProfile.id == profile_id))
    if profile is None:
        raise not_found()
    return profile


def usable(profile_id: int | None, field: str = "profileId") -> StabilityProfile | None:
    """The profile an assignment names: one of the account's, else a 422 naming the field."""
    if profile_id is None:
        return None
    profile = db.session.scalar(_profiles().where(StabilityProfile.id == profile_id))
    if profile is None:
        raise field_error(field, gettext("No such stability profile."))
    return profile


def save(args: dict) -> StabilityProfile:
    profile = find(args["id"]) if "id" in args else None
    same_name = _profiles().where(StabilityProfile.name == args["name"].strip())
    if profile is not None:
        same_name = same_name.where(StabilityProfile.id != profile.id)
    if db.session.scalar(same_name) is not None:
        raise field_error("name", gettext("A profile with this name already exists."))
    if profile is None:
        profile = StabilityProfile(platform_id=data_platform_id(), owner_account_id=manager_id())
        db.session.add(profile)
    profile.name = args["name"].strip()
    profile.range_low, profile.range_high = args["rangeLow"], args["rangeHigh"]
    profile.bands = [{"low": b["low"], "high": b["high"], "hours": b["hours"]} for b in args["bands"]]
    profile.mkt_limit, profile.alert_percent = args.get("mktLimit"), args["alertPercent"]
    db.session.commit()
    return profile


def delete(profile_id: int) -> None:
    db.session.delete(find(profile_id))
    db.session.commit()
