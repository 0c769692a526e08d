"""Organisation members: invited, added, moved, removed, the tickets that name a looked-up account,
and the welcome of a new account. The tree and its devices are in api/organization/hierarchy.py.
Account calls of business-domain section 7 live here too."""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from flask import current_app
from flask_babel import gettext
from itsdangerous import BadSignature, URLSafeTimedSerializer
from sqlalchemy import or_, select

from api.access.keys import has_permission
from api.extensions.db import db, paginate, utcnow
from api.extensions.smorest import ApiError
from api.identity.auth import require_account
from api.identity.lookup import contact_account
from api.identity.models import Account
from api.notify.models import Channel
from api.notify.services import add_message
from api.organization.access_rules import reachable_organizations
from api.organization.hierarchy import find_organization, not_found
from api.organization.models import Invitation, Organization, OrganizationMember
from api.platform.links import public_url
from api.role.models import Role
from api.role.services import find_role, role_text
from api.tenancy import current_platform, data_platform_id, scoped

INVITATION_LIFETIME = timedelta(days=7)


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
    """Registration hook: the new account's verified phone or email accepts the organisation
    invitations that waited for it (the sharing area claims its device shares in its own hook).
    Runs in the registration's transaction."""

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
