"""Reading the operation log: an account sees its own entries and those of the members of the
organisations it created. Nothing here (or anywhere) changes an entry. Verifying its hash chain
(api/audit/chain.py) and alarming staff when it is broken."""

from __future__ import annotations

import csv
import io
import json
import logging

from flask import Response
from flask_babel import force_locale, gettext
from sqlalchemy import or_, select

from api.account.auth import require_account
from api.account.models import Account, StaffRole
from api.audit import chain
from api.audit.models import OperationLog
from api.audit.pdf import trail_pdf
from api.extensions.db import db, paginate, utcnow
from api.extensions.i18n import caller_zone
from api.extensions.smorest import ApiError
from api.notify.models import Channel
from api.notify.services import add_message
from api.organization.models import Organization, OrganizationMember
from api.tenancy import scoped


def page(args: dict) -> dict:
    return paginate(_filtered(args), args, OperationLog.created_at.desc(), OperationLog.id.desc())


def _filtered(args: dict):
    me = require_account().id
    members = (
        select(OrganizationMember.account_id)
        .join(Organization, Organization.id == OrganizationMember.organization_id)
        .where(Organization.owner_account_id == me)
    )
    stmt = scoped(select(OperationLog), OperationLog).where(
        or_(OperationLog.account_id == me, OperationLog.account_id.in_(members))
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
TOO_MANY_FOR_PDF = 4606
CSV_COLUMNS = (
    "Entry",
    "Time",
    "User",
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
                entry.method,
                entry.path,
                entry.summary,
                entry.target or "",
                entry.reason or "",
                json.dumps(entry.before, ensure_ascii=False, sort_keys=True),
                json.dumps(entry.after, ensure_ascii=False, sort_keys=True),
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


# A PDF is built in the request: past this many entries the filter must be narrowed (or the CSV used),
# rather than a copy that silently leaves entries out.
PDF_LIMIT = 2_000


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


def export_pdf(args: dict) -> Response:
    """The filtered trail as PDF, oldest first, in the caller's time zone: the same entries as the CSV."""
    zone = caller_zone()
    stmt = _filtered(args).order_by(OperationLog.created_at, OperationLog.id).limit(PDF_LIMIT + 1)
    rows = db.session.scalars(stmt).all()
    if len(rows) > PDF_LIMIT:
        raise ApiError(
            gettext(
                "More than %(limit)s entries match: narrow the time or user for a PDF, or export CSV.", limit=PDF_LIMIT
            ),
            code=TOO_MANY_FOR_PDF,
        )
    me = require_account()
    now = utcnow()
    pdf = trail_pdf(rows, account=me.user_name, filters=_filter_text(args, zone), zone=zone, now=now)
    name = f"audit-trail-{now.astimezone(zone):%Y%m%d-%H%M}.pdf"
    return Response(pdf, mimetype="application/pdf", headers={"Content-Disposition": f'attachment; filename="{name}"'})


log = logging.getLogger(__name__)


def verify_and_alarm() -> list[str]:
    """Verify every platform's chain. A break is logged and mailed once (dedupe key: platform and
    entry) to the platform's staff and the operators."""
    breaks = []
    for verdict in chain.verify_all():
        if verdict.broken is None:
            continue
        described = verdict.broken.describe()
        breaks.append(described)
        log.error("audit trail broken: %s", described)
        staff = db.session.scalars(
            select(Account).where(
                Account.cancelled.is_(False),
                Account.email.is_not(None),
                or_(
                    (Account.platform_id == verdict.platform_id) & Account.staff_role.is_not(None),
                    Account.staff_role == StaffRole.OPERATOR,
                ),
            )
        ).all()
        for account in staff:
            with force_locale("en_US"):
                subject = gettext("Audit trail integrity alarm")
                body = gettext(
                    "The audit trail's hash chain is broken: %(where)s. Run `flask audit verify` and "
                    "investigate the database access around that entry.",
                    where=described,
                )
            add_message(
                account.platform_id,
                Channel.EMAIL,
                account.email,
                body,
                subject=subject,
                dedupe_key=f"audit-break:{verdict.platform_id}:{verdict.broken.seq}:{account.id}",
                lang="en-US",
            )
    db.session.commit()
    return breaks
