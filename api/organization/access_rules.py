"""How organisations let members reach devices, registered with the access layer."""

from __future__ import annotations

from sqlalchemy import Select, exists, or_, select
from sqlalchemy.orm import aliased

from api.access.reach import MEMBER, ReachRule, register_reach
from api.identity.auth import register_participation, require_account
from api.organization.models import Organization, OrganizationDevice, OrganizationMember
from api.tenancy import data_platform_id


def reachable_organizations(account_id: int | None = None) -> Select[tuple[int]]:
    """Ids of the organisations the account may act in: every node of the trees it created, and
    the organisations it is a member of with everything below them."""
    me = account_id if account_id is not None else require_account().id
    return organizations_of(me, data_platform_id())


def organizations_of(me, platform_id) -> Select[tuple[int]]:
    """reachable_organizations() for values or bind parameters."""
    above = aliased(Organization)
    via_membership = (
        select(Organization.id)
        .join(above, Organization.path.startswith(above.path))
        .join(OrganizationMember, OrganizationMember.organization_id == above.id)
        .where(OrganizationMember.account_id == me)
    )
    return select(Organization.id).where(
        Organization.platform_id == platform_id,
        or_(Organization.owner_account_id == me, Organization.id.in_(via_membership)),
    )


def _member_devices(me, platform_id, now) -> Select[tuple[int]]:
    return select(OrganizationDevice.device_id).where(
        OrganizationDevice.organization_id.in_(organizations_of(me, platform_id))
    )


def _takes_part(me):
    return or_(exists().where(OrganizationMember.account_id == me), exists().where(Organization.owner_account_id == me))


def register() -> None:
    register_participation("organizations", _takes_part)
    register_reach(
        ReachRule(
            relation=MEMBER,
            participation="organizations",
            device_ids=_member_devices,
            placed=lambda: select(OrganizationDevice.device_id),
        )
    )
