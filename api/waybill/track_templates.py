"""Map track templates: an account's saved ways of drawing a track (line colour and width, stops,
excursions in the alarm colours), shared by the members of its organisation like its fences."""

from __future__ import annotations

from flask_babel import gettext
from sqlalchemy import func, select, update

from api.extensions.db import db
from api.extensions.smorest import field_error
from api.organization.manager import manager_id
from api.tenancy import data_platform_id, scoped
from api.waybill.fences import not_found
from api.waybill.models import TrackTemplate

MAX_TEMPLATES = 20


def _templates():
    return scoped(select(TrackTemplate), TrackTemplate).where(TrackTemplate.owner_account_id == manager_id())


def listed() -> list[TrackTemplate]:
    """The default first, then by name."""
    return list(db.session.scalars(_templates().order_by(TrackTemplate.is_default.desc(), TrackTemplate.name)))


def find(template_id: int) -> TrackTemplate:
    template = db.session.scalar(_templates().where(TrackTemplate.id == template_id))
    if template is None:
        raise not_found()
    return template


def save(args: dict) -> TrackTemplate:
    template = find(args["id"]) if "id" in args else None
    same_name = _templates().where(TrackTemplate.name == args["name"])
    if template is not None:
        same_name = same_name.where(TrackTemplate.id != template.id)
    if db.session.scalar(same_name) is not None:
        raise field_error("name", gettext("A template with this name already exists."))
    if template is None:
        count = db.session.scalar(select(func.count()).select_from(_templates().subquery()))
        if count >= MAX_TEMPLATES:
            raise field_error("name", gettext("At most %(count)d templates.", count=MAX_TEMPLATES))
        template = TrackTemplate(platform_id=data_platform_id(), owner_account_id=manager_id())
        db.session.add(template)
    template.name, template.line_color, template.line_width = args["name"], args["lineColor"].lower(), args["lineWidth"]
    template.stop_minutes, template.color_by_limits = args["stopMinutes"], args["colorByLimits"]
    if args["isDefault"]:
        # One default per account: the others give it up in the same transaction.
        db.session.execute(
            update(TrackTemplate)
            .where(TrackTemplate.owner_account_id == manager_id(), TrackTemplate.is_default.is_(True))
            .values(is_default=False)
        )
    template.is_default = args["isDefault"]
    db.session.commit()
    return template


def delete(template_id: int) -> None:
    db.session.delete(find(template_id))
    db.session.commit()
