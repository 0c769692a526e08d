"""Demo organisation facts for `flask seed-demo`: demouser's organisation tree with a sub-user
(`demomember`, Observer role; `demoqa`, quality assurance holding `fda`: the second person of FDA mode)
and a device shared with `demoviewer` for seven days through a
template that hides the humidity. Idempotent: re-running finds the rows and renews the share."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from api.account.services import ensure_account
from api.device.models import Device
from api.extensions.db import db, utcnow
from api.identity.models import Account, AccountType
from api.organization.models import Organization, OrganizationDevice, OrganizationMember
from api.platform.models import Platform
from api.role.models import Role
from api.role.permissions import tree
from api.role.services import PRESETS
from api.sharing.models import DeviceShare, PermissionTemplate

DEMO_MEMBER = ("demomember", {"real_name": "Demo Member", "email": "demomember@example.com"})
DEMO_VIEWER = ("demoviewer", {"real_name": "Demo Viewer", "email": "demoviewer@example.com"})
# A second person for FDA mode (21 CFR Part 11): turning it off takes a second signature, and a signing
# sequence's reviewer or approver is never the author. demouser's quality assurance holds `fda`.
DEMO_QA = ("demoqa", {"real_name": "Demo QA", "email": "demoqa@example.com"})
QA_ROLE = ("Quality assurance", "Reviews and approves signed records; the second person of FDA mode")
QA_KEYS = ["home", "device.list.query", "fda"]
TEMPLATE_ITEMS = [
    {"permissionCode": "0001", "viewStatus": 1, "setStatus": 0},
    {"permissionCode": "0002", "viewStatus": 0, "setStatus": 0},
    {"permissionCode": "realtime", "viewStatus": 1, "setStatus": 0},
    {"permissionCode": "chart", "viewStatus": 1, "setStatus": 0},
    {"permissionCode": "info", "viewStatus": 1, "setStatus": 0},
]


def _organization(platform: Platform, owner: Account, name: str, parent: Organization | None) -> Organization:
    parent_filter = Organization.parent_id == parent.id if parent else Organization.parent_id.is_(None)
    found = db.session.scalar(
        select(Organization).where(Organization.owner_account_id == owner.id, Organization.name == name, parent_filter)
    )
    if found is None:
        found = Organization(
            platform_id=platform.id, name=name, parent_id=parent and parent.id, owner_account_id=owner.id
        )
        db.session.add(found)
        db.session.flush()
        found.path = f"{parent.path if parent else '/'}{found.id}/"
    return found


def _presets(platform: Platform, owner: Account) -> dict[str, Role]:

    roles = {r.role_name: r for r in db.session.scalars(select(Role).where(Role.owner_account_id == owner.id))}
    for name, description, keys in PRESETS:
        if name not in roles:
            roles[name] = Role(
                platform_id=platform.id,
                owner_account_id=owner.id,
                role_name=name,
                role_type="enterprise",
                description=description,
                permissions=list(keys) if keys else sorted(n["key"] for n in tree()),
                preset=True,
            )
            db.session.add(roles[name])
    db.session.flush()
    return roles


def seed_organizations(platform: Platform, owner: Account, password: str) -> list[tuple[str, str]]:
    member = ensure_account(platform, DEMO_MEMBER[0], password, account_type=AccountType.PERSONAL, **DEMO_MEMBER[1])
    viewer = ensure_account(platform, DEMO_VIEWER[0], password, account_type=AccountType.PERSONAL, **DEMO_VIEWER[1])
    qa = ensure_account(platform, DEMO_QA[0], password, account_type=AccountType.PERSONAL, **DEMO_QA[1])
    db.session.flush()
    hq = _organization(platform, owner, "Demo Cold Chain HQ", None)
    warehouse = _organization(platform, owner, "Shanghai Warehouse", hq)
    roles = _presets(platform, owner)
    if db.session.scalar(select(OrganizationMember).where(OrganizationMember.account_id == member.id)) is None:
        db.session.add(
            OrganizationMember(organization_id=warehouse.id, account_id=member.id, role_id=roles["Observer"].id)
        )
    if db.session.scalar(select(OrganizationMember).where(OrganizationMember.account_id == qa.id)) is None:
        qa_role = _qa_role(platform, owner)
        db.session.add(OrganizationMember(organization_id=hq.id, account_id=qa.id, role_id=qa_role.id))
    devices = {
        d.name: d
        for d in db.session.scalars(
            select(Device).where(Device.owner_account_id == owner.id, Device.deleted.is_(False))
        )
    }
    room = devices.get("Cold Room 1")
    if room is not None and db.session.get(OrganizationDevice, room.id) is None:
        db.session.add(OrganizationDevice(device_id=room.id, organization_id=warehouse.id))
    template = db.session.scalar(
        select(PermissionTemplate).where(
            PermissionTemplate.owner_account_id == owner.id, PermissionTemplate.name == "Temp only"
        )
    )
    if template is None:
        template = PermissionTemplate(platform_id=platform.id, owner_account_id=owner.id, name="Temp only")
        db.session.add(template)
    template.items = TEMPLATE_ITEMS
    db.session.flush()
    fridge = devices.get("Pharmacy Fridge")
    if fridge is not None:
        share = db.session.scalar(
            select(DeviceShare).where(DeviceShare.device_id == fridge.id, DeviceShare.recipient_account_id == viewer.id)
        )
        if share is None:
            share = DeviceShare(
                platform_id=platform.id, device_id=fridge.id, owner_account_id=owner.id, recipient_account_id=viewer.id
            )
            db.session.add(share)
        share.sharer_name, share.template_id = "Demo Viewer", template.id
        share.expires_at = utcnow() + timedelta(days=7)
    db.session.commit()
    return [(DEMO_MEMBER[0], password), (DEMO_VIEWER[0], password), (DEMO_QA[0], password)]


def _qa_role(platform: Platform, owner: Account) -> Role:
    name, description = QA_ROLE
    role = db.session.scalar(select(Role).where(Role.owner_account_id == owner.id, Role.role_name == name))
    if role is None:
        role = Role(
            platform_id=platform.id,
            owner_account_id=owner.id,
            role_name=name,
            role_type="enterprise",
            description=description,
            permissions=QA_KEYS,
        )
        db.session.add(role)
        db.session.flush()
    return role
