"""The audit trail as a numbered PDF, made by a job in the download centre (api/report owns files,
jobs and downloads): laying out thousands of entries takes minutes, not a request's seconds. The
request fixes what the file covers (the caller, its data space, the filters, the entries up to the
newest one matching now, its zone and language); the job lays them out and the file appears in the
caller's download centre."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from flask_babel import gettext
from sqlalchemy import func, select

from api.audit.models import OperationLog
from api.audit.pdf import trail_pdf
from api.audit.services import filtered
from api.extensions.db import db, utcnow
from api.extensions.i18n import N_, caller_zone
from api.extensions.smorest import ApiError
from api.identity.auth import owned, require_account
from api.identity.models import Account
from api.report.kinds import ReportKind
from api.report.models import ExportFile, FileStatus, FileType
from api.report.services import MAX_GENERATING, next_version, request_locale
from api.tenancy import data_platform_id

KIND = "audit_trail"
# One PDF holds at most this many entries: past that the filter must be narrowed (or the CSV used),
# rather than a copy that silently leaves entries out.
PDF_LIMIT = 10_000
TOO_MANY_FOR_PDF = 4606
BUSY = 3103
FILTERS = ("userName", "keyword", "startTime", "endTime")


def _filter_text(args: dict, zone) -> str:
    def moment(value):
        return value.astimezone(zone).isoformat(timespec="seconds")

    labelled = (
        (gettext("User"), args.get("userName")),
        (gettext("Keyword"), args.get("keyword")),
        (gettext("From"), moment(args["startTime"]) if args.get("startTime") else None),
        (gettext("Until"), moment(args["endTime"]) if args.get("endTime") else None),
    )
    return "; ".join(f"{label}: {value}" for label, value in labelled if value) or gettext("the whole trail")


def request_pdf(args: dict) -> ExportFile:
    """Queue the PDF of the entries matching the filters now (the caller enqueues its generation)."""
    me = require_account()
    platform_id = data_platform_id()
    generating = db.session.scalar(
        select(func.count()).select_from(
            owned(select(ExportFile.id), ExportFile).where(ExportFile.status == FileStatus.GENERATING).subquery()
        )
    )
    if generating >= MAX_GENERATING:
        raise ApiError(
            gettext("%(n)s files are being generated; please wait until one is finished.", n=generating), code=BUSY
        )
    matching = filtered(args, me.id, platform_id).with_only_columns(
        func.count(OperationLog.id), func.max(OperationLog.id)
    )
    count, newest = db.session.execute(matching).one()
    if count > PDF_LIMIT:
        raise ApiError(
            gettext(
                "More than %(limit)s entries match: narrow the time or user for a PDF, or export CSV.", limit=PDF_LIMIT
            ),
            code=TOO_MANY_FOR_PDF,
        )
    zone = caller_zone()
    now = utcnow()
    chosen = {key: args.get(key) for key in FILTERS}
    export = ExportFile(
        platform_id=platform_id,
        owner_account_id=me.id,
        name=f"audit-trail-{now.astimezone(zone):%Y%m%d-%H%M%S}.pdf",
        file_type=FileType.PDF,
        kind=KIND,
        params={
            "platformId": platform_id,
            "filters": {k: (v.isoformat() if isinstance(v, datetime) else v) for k, v in chosen.items()},
            "filterText": _filter_text(args, zone),
            "upToId": newest or 0,
            "entries": count,
            "timeZone": zone.key,
            "locale": request_locale(),
        },
    )
    export.version = next_version(export)
    db.session.add(export)
    db.session.commit()
    return export


def write_pdf(path: str, export: ExportFile, progress) -> None:
    """The job's part: the entries the request fixed, oldest first, laid out in its zone and language."""
    params = export.params
    filters = {
        key: (datetime.fromisoformat(value) if key in ("startTime", "endTime") and value else value)
        for key, value in params["filters"].items()
    }
    stmt = (
        filtered(filters, export.owner_account_id, params["platformId"])
        .where(OperationLog.id <= params["upToId"])
        .order_by(OperationLog.created_at, OperationLog.id)
        .limit(PDF_LIMIT)
    )
    entries = db.session.scalars(stmt).all()
    owner = db.session.get(Account, export.owner_account_id)
    pdf = trail_pdf(
        entries,
        account=owner.user_name if owner else "",
        filters=params["filterText"],
        zone=ZoneInfo(params["timeZone"]),
        now=export.created_at,
        progress=progress,
    )
    with open(path, "wb") as out:
        out.write(pdf)


AUDIT_TRAIL_KIND = ReportKind(KIND, N_("Audit trail"), lambda params, owner: [], listed=False, write=write_pdf)
