"""Roles: named sets of permission keys an account defines for the members of its organisations."""

from __future__ import annotations

import functools

from flask_babel import gettext
from sqlalchemy import bindparam, func, select

from api.extensions.db import db, paginate
from api.extensions.i18n import N_
from api.extensions.smorest import ApiError
from api.organization.manager import manager_id
from api.organization.models import Organization, OrganizationMember
from api.role.models import OrganizationType, Role
from api.role.permissions import all_keys, tree
from api.tenancy import data_platform_id, scoped

# The roles every organisation creator starts with (names are shown as they are; edit freely).
PRESETS = (
    (N_("Administrator"), N_("All permissions of the organisation"), None),
    (
        N_("Operator"),
        N_("Devices, assets and projects, without deleting"),
        (
            "home",
            "message.list",
            "device.list.query",
            "device.list.edit",
            "device.list.enable",
            "device.list.disable",
            "device.list.export",
            "alarm.limit.query",
            "alarm.limit.edit",
            "alarm.push.query",
            "alarm.push.edit",
            "alarm.oncall.query",
            "alarm.oncall.add",
            "alarm.oncall.edit",
            "storage.list.query",
            "freezer.list.query",
            "asset.list.query",
            "asset.list.edit",
            "project.list.query",
            "organization.list.query",
            "consumer.info",
            "consumer.download",
        ),
    ),
    (
        N_("Observer"),
        N_("View only"),
        (
            "home",
            "message.list.query",
            "device.list.query",
            "alarm.limit.query",
            "storage.list.query",
            "freezer.list.query",
            "asset.list.query",
            "project.list.query",
            "organization.list.query",
            "consumer.info",
        ),
    ),
)


def role_text(role: Role, text: str | None) -> str | None:
    """Name or description of a role for the reader: the presets' are translated."""
    return gettext(text) if text and role.preset else text


def not_found() -> ApiError:
    return ApiError(gettext("The requested resource does not exist."), code=404, http_status=404)


def member_keys(account_id: int) -> list[str] | None:
    """Keys an account's roles grant it as a member of another account's organisation (stored keys;
    the access layer expands route keys and adds the member baseline). None when it is no such member."""
    rows = db.session.execute(_memberships_query(), {"account_id": account_id}).all()
    if not rows:
        return None
    keys: dict[str, None] = {}
    for _member, permissions in rows:
        keys.update(dict.fromkeys(permissions or ()))
    return list(keys)


@functools.cache
def _memberships_query():
    """Built once: every signed-in request of an account holder runs it."""

    me = bindparam("account_id")
    return (
        select(OrganizationMember.id, Role.permissions)
        .join(Organization, Organization.id == OrganizationMember.organization_id)
        .outerjoin(Role, Role.id == OrganizationMember.role_id)
        .where(OrganizationMember.account_id == me, Organization.owner_account_id != me)
    )


def ensure_presets(owner_id: int) -> None:
    """Create the preset roles of an organisation creator once."""
    exists = db.session.scalar(select(func.count()).where(Role.owner_account_id == owner_id, Role.preset.is_(True)))
    if exists:
        return
    every = sorted(node["key"] for node in tree())
    for name, description, keys in PRESETS:
        db.session.add(
            Role(
                platform_id=data_platform_id(),
                owner_account_id=owner_id,
                role_name=name,
                role_type=OrganizationType.ENTERPRISE,
                description=description,
                permissions=list(keys) if keys else every,
                preset=True,
            )
        )
    db.session.flush()


def _roles():
    return scoped(select(Role), Role).where(Role.owner_account_id == manager_id())


def find_role(role_id: int | None) -> Role | None:
    if role_id is None:
        return None
    role = db.session.scalar(_roles().where(Role.id == role_id))
    if role is None:
        raise ApiError(gettext("The role does not exist."), code=4004)
    return role


def page(args: dict) -> dict:
    stmt = _roles()
    if args.get("roleName"):
        stmt = stmt.where(Role.role_name.icontains(args["roleName"], autoescape=True))
    return paginate(stmt, args, Role.preset.desc(), Role.id)


def by_organization_type(organization_type: OrganizationType) -> list[Role]:
    return list(db.session.scalars(_roles().where(Role.role_type == organization_type).order_by(Role.id)))


def check_keys(keys: list[str]) -> list[str]:
    unknown = sorted(set(keys) - all_keys())
    if unknown:
        raise ApiError(
            gettext("Unknown permission keys: %(keys)s", keys=", ".join(unknown)),
            code=422,
            http_status=422,
            data={"errors": {"permissions": [gettext("Unknown permission keys: %(keys)s", keys=", ".join(unknown))]}},
        )
    return sorted(set(keys))


def save(args: dict) -> Role:
    if "id" in args:
        role = db.session.scalar(_roles().where(Role.id == args["id"]))
        if role is None:
            raise not_found()
    else:
        role = Role(platform_id=data_platform_id(), owner_account_id=manager_id())
        db.session.add(role)
    role.role_name = args["roleName"]
    role.role_type = args["roleType"]
    role.description = args.get("description")
    role.permissions = check_keys(args["permissions"])
    db.session.commit()
    return role


def delete(role_id: int) -> None:

    role = db.session.scalar(_roles().where(Role.id == role_id))
    if role is None:
        raise not_found()
    in_use = db.session.scalar(select(func.count()).where(OrganizationMember.role_id == role.id))
    if in_use:
        raise ApiError(
            gettext("The role is given to %(n)s member(s); give them another role first.", n=in_use), code=4005
        )
    db.session.delete(role)
    db.session.commit()
