"""Reading the operation log: an account sees its own entries and those of the members of the
organisations it created. Nothing here (or anywhere) changes an entry."""

from __future__ import annotations

from sqlalchemy import or_, select

from api.audit.models import OperationLog
from api.extensions.db import paginate
from api.tenancy import require_account, scoped


def page(args: dict) -> dict:
    from api.organization.models import Organization, OrganizationMember

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
    return paginate(stmt, args, OperationLog.created_at.desc(), OperationLog.id.desc())
