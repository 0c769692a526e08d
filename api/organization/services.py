"""Organisations: the tree, its members (invited, added, moved, removed), its devices, and the
transfer of the creator's identity. Account calls of business-domain section 7 live here too."""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from flask import current_app
from flask_babel import gettext
from itsdangerous import BadSignature, URLSafeTimedSerializer
from sqlalchemy import func, or_, select

from api.access.keys import has_permission
from api.access.reach import visible
from api.account.auth import owned, require_account
from api.account.lookup import contact_account
from api.account.models import Account
from api.device.models import Device
from api.device.services import with_state
from api.extensions.db import db, paginate, utcnow
from api.extensions.smorest import ApiError
from api.notify.models import Channel
from api.notify.services import add_message
from api.organization.access_rules import reachable_organizations
from api.organization.models import Invitation, Organization, OrganizationDevice, OrganizationMember
from api.platform.links import public_url
from api.role.models import Role
from api.role.services import ensure_presets, find_role, role_text
from api.sharing.services import claim_pending_shares
from api.tenancy import current_platform, data_platform_id, scoped

INVITATION_LIFETIME = timedelta(days=7)


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


# ---- members --------------------------------------------------------------------------------------------


def _platform_account(account_id: int) -> Account:
    account = db.session.scalar(
        scoped(select(Account), Account).where(Account.id == account_id, Account.cancelled.is_(False))
    )
    if account is None:
        raise not_found()
    return account


# A looked-up account is named to the manager only by an opaque ticket that organizationAddUser
# takes instead of its id: signed, for this manager, on this site, for a quarter of an hour.
TICKET_SALT = "organization.member-ticket"
TICKET_LIFETIME = timedelta(minutes=15)


def _tickets() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(current_app.config["SECRET_KEY"], salt=TICKET_SALT)


def member_ticket(account: Account) -> str:
    return _tickets().dumps({"a": account.id, "m": require_account().id, "p": data_platform_id()})


def account_of_ticket(ticket: str) -> int | None:
    """The account id a ticket of the signed-in manager names, or None (forged, expired, someone else's)."""
    try:
        payload = _tickets().loads(ticket, max_age=int(TICKET_LIFETIME.total_seconds()))
    except BadSignature:
        return None
    if not isinstance(payload, dict):
        return None
    if payload.get("m") != require_account().id or payload.get("p") != data_platform_id():
        return None
    return payload.get("a") if isinstance(payload.get("a"), int) else None


def may_add_members(account: Account) -> bool:
    """Managers: creators of an organisation, and accounts holding the member-add key."""
    creates = db.session.scalar(
        scoped(select(Organization.id), Organization).where(Organization.owner_account_id == account.id).limit(1)
    )
    return creates is not None or has_permission(account, "consumer.list.add")


def mask_name(value: str | None) -> str | None:
    """张** / d**: a hint that the right person was found, neither the name nor its length."""
    return f"{value[0]}**" if value else value


def find_contact(*, phone: str | None = None, email: str | None = None, keyword: str | None = None) -> dict | None:
    """What an invitation needs to know about another account (getAccountInfoByPhone / ByEamil,
    queryAccountByUEP): whether it can be added, a masked name and contact, and a ticket that
    organizationAddUser takes. Never its id, user name or real name; only for managers."""
    me = require_account()
    if not may_add_members(me):
        raise ApiError(gettext("Only accounts that may add members can look up other accounts."), code=4013)
    account = contact_account(phone=phone, email=email, keyword=keyword)
    if account is None:
        return None
    return {
        "canInvite": account.id != me.id,
        "name": mask_name(account.real_name or account.user_name),
        "phone": mask(account.phone),
        "email": mask(account.email),
        "ticket": member_ticket(account) if account.id != me.id else None,
    }


def _role_for(role_id: int | None) -> Role | None:

    return find_role(role_id)


def require_colleague(account_id: int) -> None:
    """An account named by its bare id must already be a member of an organisation the manager
    reaches; otherwise it is unknown (404, like an absent id: ids cannot be probed for names)."""
    known = db.session.scalar(
        select(OrganizationMember.id)
        .where(
            OrganizationMember.account_id == account_id,
            OrganizationMember.organization_id.in_(reachable_organizations()),
        )
        .limit(1)
    )
    if known is None:
        raise not_found()


def add_member(organization_id: int, account_id: int, role_id: int | None) -> OrganizationMember:
    organization = find_organization(organization_id)
    account = _platform_account(account_id)
    role = _role_for(role_id)
    if account.id == organization.owner_account_id:
        raise ApiError(gettext("The user is already in the list"), code=4011)
    exists = db.session.scalar(
        select(OrganizationMember).where(
            OrganizationMember.organization_id == organization.id, OrganizationMember.account_id == account.id
        )
    )
    if exists is not None:
        raise ApiError(gettext("The user is already in the list"), code=4011)
    member = OrganizationMember(organization_id=organization.id, account_id=account.id, role_id=role and role.id)
    db.session.add(member)
    db.session.commit()
    return member


def invite(args: dict) -> dict:
    """Invite by phone or email: a registered account is added at once; otherwise an invitation is
    sent by SMS or email (through the outbox) and accepted by registering with that contact."""
    organization = find_organization(args["organizationId"])
    role = _role_for(args.get("roleId"))
    phone, email = args.get("phone"), args.get("email")
    account = contact_account(phone=phone, email=email)
    if account is not None:
        add_member(organization.id, account.id, role and role.id)
        return {"added": True, "invited": False}
    token = secrets.token_urlsafe(24)
    invitation = Invitation(
        platform_id=data_platform_id(),
        organization_id=organization.id,
        role_id=role and role.id,
        phone=phone,
        email=email,
        inviter_account_id=require_account().id,
        inviter_name=args["inviterName"],
        token_hash=hashlib.sha256(token.encode()).hexdigest(),
        expires_at=utcnow() + INVITATION_LIFETIME,
    )
    db.session.add(invitation)
    link = public_url(current_platform(), f"/user/register?invitation={token}")
    body = gettext(
        "%(inviter)s invites you to join %(organization)s. Register within 7 days to accept: %(link)s",
        inviter=args["inviterName"],
        organization=organization.name,
        link=link,
    )
    db.session.flush()
    add_message(
        current_platform().id,
        Channel.SMS if phone else Channel.EMAIL,
        phone or email,
        body,
        subject=gettext("Invitation to %(organization)s", organization=organization.name),
        dedupe_key=f"invitation:{invitation.id}",
    )
    db.session.commit()
    return {"added": False, "invited": True}


def accept_invitation(token: str) -> OrganizationMember:
    """A signed-in account accepts an invitation it received (the token proves it)."""
    digest = hashlib.sha256(token.encode()).hexdigest()
    invitation = db.session.scalar(
        scoped(select(Invitation), Invitation).where(Invitation.token_hash == digest).with_for_update()
    )
    if invitation is None or invitation.accepted_at is not None or invitation.expires_at < utcnow():
        raise ApiError(gettext("The invitation is invalid or has expired."), code=4012)
    member = _join(invitation, require_account())
    db.session.commit()
    return member


def _join(invitation: Invitation, account: Account) -> OrganizationMember:
    invitation.accepted_at = utcnow()
    invitation.accepted_account_id = account.id
    member = db.session.scalar(
        select(OrganizationMember).where(
            OrganizationMember.organization_id == invitation.organization_id,
            OrganizationMember.account_id == account.id,
        )
    )
    if member is None:
        member = OrganizationMember(
            organization_id=invitation.organization_id, account_id=account.id, role_id=invitation.role_id
        )
        db.session.add(member)
    return member


def welcome_new_account(account: Account) -> None:
    """Registration hook: the new account's verified phone or email accepts what waited for it
    (organisation invitations, device shares). Runs in the registration's transaction."""

    contact = Invitation.phone == account.phone if account.phone else Invitation.email == account.email
    for invitation in db.session.scalars(
        select(Invitation).where(
            Invitation.platform_id == account.platform_id,
            contact,
            Invitation.accepted_at.is_(None),
            Invitation.expires_at > utcnow(),
        )
    ):
        _join(invitation, account)
    claim_pending_shares(account)


def remove_member(organization_id: int, account_id: int) -> None:
    organization = find_organization(organization_id)
    member = db.session.scalar(
        select(OrganizationMember).where(
            OrganizationMember.organization_id == organization.id, OrganizationMember.account_id == account_id
        )
    )
    if member is None:
        raise not_found()
    db.session.delete(member)
    db.session.commit()


def move_member(account_id: int, from_id: int, to_id: int, role_id: int | None) -> OrganizationMember:
    source, target = find_organization(from_id), find_organization(to_id)
    member = db.session.scalar(
        select(OrganizationMember).where(
            OrganizationMember.organization_id == source.id, OrganizationMember.account_id == account_id
        )
    )
    if member is None:
        raise not_found()
    if target.id != source.id:
        clash = db.session.scalar(
            select(OrganizationMember).where(
                OrganizationMember.organization_id == target.id, OrganizationMember.account_id == account_id
            )
        )
        if clash is not None:
            raise ApiError(gettext("The user is already in the list"), code=4011)
        member.organization_id = target.id
    if role_id is not None:
        member.role_id = _role_for(role_id).id
    db.session.commit()
    return member


def set_member_role(organization_id: int, account_id: int, role_id: int) -> OrganizationMember:
    return move_member(account_id, organization_id, organization_id, role_id)


def member_page(args: dict) -> dict:
    """Members of the organisations the signed-in account may act in (optionally one subtree)."""
    reachable = reachable_organizations()
    if args.get("organizationId"):
        organization = find_organization(args["organizationId"])
        reachable = select(Organization.id).where(Organization.path.startswith(organization.path))
    stmt = (
        select(OrganizationMember, Account, Organization, Role)
        .join(Account, Account.id == OrganizationMember.account_id)
        .join(Organization, Organization.id == OrganizationMember.organization_id)
        .outerjoin(Role, Role.id == OrganizationMember.role_id)
        .where(OrganizationMember.organization_id.in_(reachable))
    )
    keyword = args.get("keyword") or args.get("userName")
    if keyword:
        stmt = stmt.where(
            or_(
                Account.user_name.icontains(keyword, autoescape=True),
                Account.real_name.icontains(keyword, autoescape=True),
            )
        )
    if args.get("phone"):
        stmt = stmt.where(Account.phone.contains(args["phone"], autoescape=True))
    if args.get("email"):
        stmt = stmt.where(Account.email.icontains(args["email"], autoescape=True))
    if args.get("roleId"):
        stmt = stmt.where(OrganizationMember.role_id == args["roleId"])
    found = paginate(stmt, args, OrganizationMember.id.desc(), rows=True)
    return {
        "list": [
            {"member": member, "account": account, "organization": organization, "role": role}
            for member, account, organization, role in found["list"]
        ],
        "total": found["total"],
    }


def organizations_with_my_role(account_id: int) -> list[dict]:
    """accountInfo's orgWithMyRole: the trees the account created and the organisations it is in."""
    created = db.session.scalars(
        scoped(select(Organization), Organization).where(
            Organization.owner_account_id == account_id, Organization.parent_id.is_(None)
        )
    )
    rows = [{"organizationId": o.id, "organizationName": o.name, "roleName": "creator"} for o in created]
    for organization, role in db.session.execute(
        select(Organization, Role)
        .join(OrganizationMember, OrganizationMember.organization_id == Organization.id)
        .outerjoin(Role, Role.id == OrganizationMember.role_id)
        .where(OrganizationMember.account_id == account_id)
    ):
        rows.append(
            {
                "organizationId": organization.id,
                "organizationName": organization.name,
                "roleName": role and role_text(role, role.role_name),
            }
        )
    return rows


def mask(value: str | None) -> str | None:
    """138****8000 / de***@example.com: enough to recognise a contact, not to harvest it."""
    if not value:
        return value
    if "@" in value:
        name, _, domain = value.partition("@")
        return f"{name[:2]}***@{domain}"
    return f"{value[:-8]}****{value[-4:]}" if len(value) > 8 else "****"
