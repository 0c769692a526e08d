"""Reading the operation log: an account sees its own entries and those of the members of the
organisations it created. Nothing here (or anywhere) changes an entry. Verifying its hash chain and
alarming when it is broken: api/audit/chain.py, heads.py and alarms.py."""

from __future__ import annotations

import csv
import io
import json

from flask import Response
from sqlalchemy import or_, select

from api.audit.models import OperationLog
from api.audit.redaction import redact
from api.extensions.db import db, paginate, utcnow
from api.extensions.i18n import caller_zone
from api.identity.auth import require_account
from api.organization.models import Organization, OrganizationMember
from api.tenancy import data_platform_id


def page(args: dict) -> dict:
    return paginate(_filtered(args), args, OperationLog.created_at.desc(), OperationLog.id.desc())


def _filtered(args: dict):
    return filtered(args, require_account().id, data_platform_id())


def filtered(args: dict, me: int, platform_id: int):
    """The entries account `me` may read in the data space `platform_id` (its own and those of the
    members of the organisations it created), narrowed by the filters of `args`."""
    members = (
        select(OrganizationMember.account_id)
        .join(Organization, Organization.id == OrganizationMember.organization_id)
        .where(Organization.owner_account_id == me)
    )
    stmt = (
        select(OperationLog)
        .where(OperationLog.platform_id == platform_id)
        .where(or_(OperationLog.account_id == me, OperationLog.account_id.in_(members)))
    )
    if args.get("userName"):
        stmt = stmt.where(OperationLog.user_name.icontains(args["userName"], autoescape=True))
    if args.get("keyword"):
        keyword = args["keyword"]
        stmt = stmt.where(
            or_(
                OperationLog.summary.icontains(keyword, autoescape=True),
                OperationLog.path.icontains(keyword, autoescape=True),
                OperationLog.target.icontains(keyword, autoescape=True),
            )
        )
    if args.get("startTime"):
        stmt = stmt.where(OperationLog.created_at >= args["startTime"])
    if args.get("endTime"):
        stmt = stmt.where(OperationLog.created_at < args["endTime"])
    return stmt


EXPORT_LIMIT = 50_000
CSV_COLUMNS = (
    "Entry",
    "Time",
    "User",
    "Account id",
    "Method",
    "Path",
    "Summary",
    "Target",
    "Reason",
    "Before",
    "After",
    "IP",
    "Previous hash",
    "Entry hash",
)


def export_csv(args: dict) -> Response:
    """The filtered trail as CSV, oldest first, in the caller's time zone: an accurate and complete
    copy in human-readable form (21 CFR 11.10(b)), with each entry's chain hashes so that the copy
    can be checked against the database."""
    zone = caller_zone()
    rows = db.session.scalars(
        _filtered(args).order_by(OperationLog.created_at, OperationLog.id).limit(EXPORT_LIMIT)
    ).all()
    out = io.StringIO()
    out.write("\ufeff")  # spreadsheet programs then read UTF-8
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for entry in rows:
        writer.writerow(
            (
                entry.seq or "",
                entry.created_at.astimezone(zone).isoformat(timespec="seconds"),
                entry.user_name,
                entry.account_id or "",
                entry.method,
                entry.path,
                entry.summary,
                entry.target or "",
                entry.reason or "",
                json.dumps(redact(entry.before), ensure_ascii=False, sort_keys=True),
                json.dumps(redact(entry.after), ensure_ascii=False, sort_keys=True),
                entry.ip or "",
                entry.prev_hash or "",
                entry.entry_hash or "",
            )
        )
    name = f"audit-trail-{utcnow().astimezone(zone):%Y%m%d-%H%M}.csv"
    return Response(
        out.getvalue(),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )
