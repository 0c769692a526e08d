"""The organisation tree: finding, creating, moving and deleting organisations, the transfer of the
creator's identity, and the devices bound to an organisation."""

from __future__ import annotations

from flask_babel import gettext
from sqlalchemy import func, select

from api.access.reach import visible
from api.device.listing import with_state
from api.device.models import Device
from api.extensions.db import db, paginate, utcnow
from api.extensions.smorest import ApiError
from api.identity.auth import owned, require_account
from api.identity.models import Account
from api.organization.access_rules import reachable_organizations
from api.organization.models import Organization, OrganizationDevice, OrganizationMember
from api.role.models import Role
from api.role.services import ensure_presets
from api.tenancy import data_platform_id, scoped


def not_found() -> ApiError:
    return ApiError(gettext("The requested resource does not exist."), code=404, http_status=404)


def find_organization(organization_id: int) -> Organization:
    """An organisation the signed-in account may act in, or 404 (never another tenant's)."""
    organization = db.session.scalar(
        select(Organization).where(Organization.id == organization_id, Organization.id.in_(reachable_organizations()))
    )
    if organization is None:
        raise not_found()
    return organization


# ---- the tree -----------------------------------------------------------------------------------------


def tree() -> list[dict]:
    """Reachable organisations as a forest, with member and device counts."""
    rows = db.session.scalars(
        select(Organization).where(Organization.id.in_(reachable_organizations())).order_by(Organization.path)
    ).all()
    ids = [o.id for o in rows]
    members = dict(
        db.session.execute(
            select(OrganizationMember.organization_id, func.count())
            .where(OrganizationMember.organization_id.in_(ids))
            .group_by(OrganizationMember.organization_id)
        ).all()
    )
    devices = dict(
        db.session.execute(
            select(OrganizationDevice.organization_id, func.count())
            .where(OrganizationDevice.organization_id.in_(ids))
            .group_by(OrganizationDevice.organization_id)
        ).all()
    )
    owners = dict(
        db.session.execute(
            select(Account.id, Account.user_name).where(Account.id.in_({o.owner_account_id for o in rows}))
        ).all()
    )
    nodes = {
        o.id: {
            "organization": o,
            "creatorName": owners.get(o.owner_account_id),
            "memberCount": members.get(o.id, 0),
            "deviceCount": devices.get(o.id, 0),
            "children": [],
        }
        for o in rows
    }
    roots = []
    for o in rows:
        parent = nodes.get(o.parent_id) if o.parent_id else None
        (parent["children"] if parent else roots).append(nodes[o.id])
    # The member list of an organisation shows its whole subtree: so does its member count.
    for o in reversed(rows):  # ordered by path: children after their parents
        parent = nodes.get(o.parent_id) if o.parent_id else None
        if parent:
            parent["memberCount"] += nodes[o.id]["memberCount"]
    return roots


def create(name: str, parent_id: int | None) -> Organization:

    me = require_account().id
    parent = find_organization(parent_id) if parent_id is not None else None
    owner = parent.owner_account_id if parent else me
    organization = Organization(platform_id=data_platform_id(), name=name, parent_id=parent_id, owner_account_id=owner)
    db.session.add(organization)
    db.session.flush()
    organization.path = f"{parent.path if parent else '/'}{organization.id}/"
    if parent is None:
        ensure_presets(me)
    db.session.commit()
    return organization


def update(organization_id: int, name: str, parent_id: int | None) -> Organization:
    organization = find_organization(organization_id)
    organization.name = name
    if parent_id != organization.parent_id:
        _move(organization, parent_id)
    db.session.commit()
    return organization


def _move(organization: Organization, parent_id: int | None) -> None:
    if parent_id is None:
        if organization.owner_account_id != require_account().id:
            raise ApiError(gettext("Only the creator can make an organisation a top-level one."), code=4006)
        new_prefix = "/"
    else:
        parent = find_organization(parent_id)
        if parent.path.startswith(organization.path):
            raise ApiError(gettext("An organisation cannot be moved under itself."), code=4007)
        if parent.owner_account_id != organization.owner_account_id:
            raise not_found()
        new_prefix = parent.path
    old_path = organization.path
    new_path = f"{new_prefix}{organization.id}/"
    for node in db.session.scalars(select(Organization).where(Organization.path.startswith(old_path))):
        node.path = new_path + node.path[len(old_path) :]
    organization.parent_id = parent_id


def delete(organization_id: int) -> None:
    organization = find_organization(organization_id)
    children = db.session.scalar(select(func.count()).where(Organization.parent_id == organization.id))
    if children:
        raise ApiError(gettext("Delete or move its sub-organisations first."), code=4008)
    db.session.delete(organization)
    db.session.commit()


def transfer_creator(organization_id: int, account_id: int) -> Organization:
    """Make a member the creator of the whole tree; the old creator stays as an administrator."""

    organization = find_organization(organization_id)
    me = require_account().id
    if organization.owner_account_id != me:
        raise ApiError(gettext("Only the creator can hand over the creator's identity."), code=4009)
    root_path = "/" + organization.path.strip("/").split("/")[0] + "/"
    tree_ids = select(Organization.id).where(Organization.path.startswith(root_path))
    membership = db.session.scalar(
        select(OrganizationMember).where(
            OrganizationMember.account_id == account_id, OrganizationMember.organization_id.in_(tree_ids)
        )
    )
    if membership is None:
        raise ApiError(gettext("The new creator must be a member of the organisation."), code=4010)
    root = db.session.scalar(select(Organization).where(Organization.path == root_path))
    for node in db.session.scalars(select(Organization).where(Organization.id.in_(tree_ids))):
        node.owner_account_id = account_id
    for role in db.session.scalars(scoped(select(Role), Role).where(Role.owner_account_id == me)):
        role.owner_account_id = account_id
    db.session.execute(
        OrganizationMember.__table__.delete().where(
            OrganizationMember.account_id == account_id, OrganizationMember.organization_id.in_(tree_ids)
        )
    )
    db.session.flush()
    ensure_presets(account_id)
    admin = db.session.scalar(
        select(Role.id).where(Role.owner_account_id == account_id, Role.role_name == "Administrator").limit(1)
    )
    db.session.add(OrganizationMember(organization_id=root.id, account_id=me, role_id=admin))
    db.session.commit()
    return organization


# ---- devices of an organisation -----------------------------------------------------------------------


def bind_devices(organization_id: int, device_ids: list[int]) -> None:
    """Place the signed-in account's own devices in an organisation (moving them from another)."""

    organization = find_organization(organization_id)
    found = set(
        db.session.scalars(owned(select(Device.id), Device).where(Device.id.in_(device_ids), Device.deleted.is_(False)))
    )
    if found != set(device_ids):
        raise ApiError(gettext("The device cannot be found, please confirm and re-enter"), code=3001)
    for device_id in device_ids:
        link = db.session.get(OrganizationDevice, device_id)
        if link is None:
            db.session.add(OrganizationDevice(device_id=device_id, organization_id=organization.id))
        else:
            link.organization_id = organization.id
    db.session.commit()


def unbind_devices(organization_id: int, device_ids: list[int]) -> None:
    organization = find_organization(organization_id)
    for link in db.session.scalars(
        select(OrganizationDevice).where(
            OrganizationDevice.organization_id == organization.id, OrganizationDevice.device_id.in_(device_ids)
        )
    ):
        db.session.delete(link)
    db.session.commit()


def device_page(args: dict) -> dict:

    organization = find_organization(args["organizationId"])
    subtree = select(Organization.id).where(Organization.path.startswith(organization.path))
    stmt = visible(select(Device), Device).where(
        Device.deleted.is_(False),
        Device.id.in_(select(OrganizationDevice.device_id).where(OrganizationDevice.organization_id.in_(subtree))),
    )
    found = paginate(stmt, args, Device.id.desc())
    now = utcnow()
    return {"list": [with_state(d, d.state, now) for d in found["list"]], "total": found["total"]}
