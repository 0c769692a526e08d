from __future__ import annotations

from flask_babel import gettext
from sqlalchemy import select

from api.extensions.db import db, paginate
from api.extensions.smorest import ApiError
from api.identity.auth import current_account
from api.notice.models import Notice
from api.tenancy import current_platform, site_scoped

FIELDS = {
    "noticeTitle": "title",
    "noticeContent": "content",
    "noticeType": "notice_type",
    "noticePlatform": "notice_platform",
    "noticeCamp": "notice_camp",
    "enabled": "enabled",
}


def page(args: dict) -> dict:
    stmt = site_scoped(select(Notice), Notice)
    if args.get("noticeType"):
        stmt = stmt.where(Notice.notice_type == args["noticeType"])
    if args.get("noticeTitle"):
        stmt = stmt.where(Notice.title.contains(args["noticeTitle"], autoescape=True))
    return paginate(stmt, args, Notice.created_at.desc(), Notice.id.desc())


def current_notices(args: dict) -> list[Notice]:
    stmt = site_scoped(select(Notice), Notice).where(
        Notice.enabled.is_(True),
        Notice.notice_platform == args["noticePlatform"],
        Notice.notice_type == args["noticeType"],
        Notice.notice_camp == args["noticeCamp"],
    )
    return list(db.session.scalars(stmt.order_by(Notice.created_at.desc()).limit(20)))


def insert(args: dict) -> Notice:
    notice = Notice(
        platform_id=current_platform().id,
        created_by=current_account().id,
        **{column: args[field] for field, column in FIELDS.items()},
    )
    db.session.add(notice)
    db.session.commit()
    return notice


def update(args: dict) -> Notice:
    notice = db.session.scalar(site_scoped(select(Notice), Notice).where(Notice.id == args["noticeId"]))
    if notice is None:
        raise ApiError(gettext("The requested resource does not exist."), code=404, http_status=404)
    for field, column in FIELDS.items():
        if args.get(field) not in (None, ""):
            setattr(notice, column, args[field])
    db.session.commit()
    return notice
