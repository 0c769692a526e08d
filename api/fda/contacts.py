"""An FDA owner's contacts: who is told when something threatens its records' trustworthiness (a signing
lock, a break in the audit trail). The owner itself and the members of the organisations it created who
hold the `fda` permission (those who manage its FDA mode and sign its records)."""

from __future__ import annotations

from sqlalchemy import or_, select

from api.access.keys import has_permission
from api.audit.alarms import Contact
from api.audit.models import OperationLog
from api.extensions.db import db
from api.fda.models import FdaSetting
from api.identity.models import Account
from api.organization.models import Organization, OrganizationMember

FDA_KEY = "fda"


def fda_contacts(owner_account_id: int) -> list[Account]:
    """The owner first, then its FDA-granted members in id order (cancelled accounts left out)."""
    members = (
        select(OrganizationMember.account_id)
        .join(Organization, Organization.id == OrganizationMember.organization_id)
        .where(Organization.owner_account_id == owner_account_id)
    )
    accounts = db.session.scalars(
        select(Account)
        .where(Account.cancelled.is_(False), (Account.id == owner_account_id) | Account.id.in_(members))
        .order_by(Account.id)
    ).all()
    owner = [a for a in accounts if a.id == owner_account_id]
    return owner + [a for a in accounts if a.id != owner_account_id and has_permission(a, FDA_KEY)]


def owners_in(platform_id: int):
    """The owner accounts with FDA mode on whose records lie in the platform's data space: their FDA
    setting belongs to it, or their own entries lie in its trail."""
    logged = select(OperationLog.account_id).where(OperationLog.platform_id == platform_id).distinct()
    return (
        select(Account.id)
        .join(FdaSetting, FdaSetting.account_id == Account.id)
        .where(
            FdaSetting.enabled.is_(True),
            or_(FdaSetting.platform_id == platform_id, FdaSetting.account_id.in_(logged)),
        )
        .order_by(Account.id)
    )


def trail_break_contacts(platform_id: int) -> list[Contact]:
    """Everyone to tell of a break in the platform's audit trail, on behalf of the customers in it: each
    FDA owner's contacts that can be mailed, once each."""
    seen: dict[int, Contact] = {}
    for owner_id in db.session.scalars(owners_in(platform_id)):
        for account in fda_contacts(owner_id):
            if account.email and account.id not in seen:
                seen[account.id] = Contact(account.id, account.platform_id, account.email)
    return list(seen.values())
