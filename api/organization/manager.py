"""Whose organisation the signed-in account works in.

Roles, projects, assets and fences belong to an organisation's creator; its members work with the
creator's. Kept apart from organization.services so that roles (which the organisation services use)
can ask it without a cycle.
"""

from __future__ import annotations

from flask import g
from sqlalchemy import select

from api.extensions.db import db
from api.identity.auth import require_account
from api.organization.models import Organization, OrganizationMember


def manager_id() -> int:
    """Whose roles, projects and assets the signed-in account works with: the creator of the
    organisation it is a member of, or itself when it is a member of no one else's organisation."""
    if "manager_id" not in g:
        me = require_account().id
        owner = db.session.scalar(
            select(Organization.owner_account_id)
            .join(OrganizationMember, OrganizationMember.organization_id == Organization.id)
            .where(OrganizationMember.account_id == me, Organization.owner_account_id != me)
            .order_by(OrganizationMember.id)
            .limit(1)
        )
        g.manager_id = owner or me
    return g.manager_id
