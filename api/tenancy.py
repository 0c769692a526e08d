"""Who is asking: the platform of the request's host and, later, the signed-in account.

This is the one place where tenant scoping lives. Handlers and services call `current_platform()`
and `scoped()`; none of them filters by platform on its own.
"""

from __future__ import annotations

import functools
from typing import TypeVar

from flask import current_app, g, request
from flask_babel import gettext
from sqlalchemy import ForeignKey, Select, and_, bindparam, case, inspect, or_, select
from sqlalchemy.orm import Mapped, declared_attr, make_transient_to_detached, mapped_column

from api.extensions.db import db
from api.extensions.smorest import SESSION_EXPIRED, ApiError
from api.extensions.snapshots import Snapshots
from api.platform.models import Platform, PlatformDomain

# Endpoints that answer on any host: load balancer health checks address the api by IP.
HOST_EXEMPT_ENDPOINTS = frozenset({"health.Health"})

T = TypeVar("T")


def normalize_host(host: str) -> str:
    """`Junjia.Example.com:443` -> `junjia.example.com`; IPv6 literals keep their brackets off."""
    host = host.strip().lower().rstrip(".")
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def find_platform(host: str) -> Platform | None:
    """The platform answering `host`: a configured domain, else a development alias. Every request
    resolves its host, so a per-process snapshot (api/extensions/snapshots) is attached to the
    session without a query."""
    name = normalize_host(host)
    key = (str(db.engine.url), name, current_app.config["HOST_ALIASES"].get(name))
    snapshot = _platforms.get(key, lambda: _detached_copy(_query_platform(name)))
    return db.session.merge(snapshot, load=False) if snapshot is not None else None


_platforms: Snapshots[Platform] = Snapshots(Platform, PlatformDomain)


def _query_platform(name: str) -> Platform | None:
    matches = [PlatformDomain.domain == name, Platform.top_domain == name]
    alias = current_app.config["HOST_ALIASES"].get(name)
    if alias:
        matches.append(Platform.slug == alias)
    preference = case((PlatformDomain.domain == name, 0), (Platform.top_domain == name, 1), else_=2)
    stmt = select(Platform).outerjoin(PlatformDomain).where(or_(*matches)).order_by(preference).limit(1)
    return db.session.scalar(stmt)


def _detached_copy(platform: Platform | None) -> Platform | None:
    """The platform's columns as a detached instance (its relationships load when asked)."""
    if platform is None:
        return None
    copy = Platform(**{column.key: getattr(platform, column.key) for column in inspect(Platform).column_attrs})
    make_transient_to_detached(copy)
    return copy


def resolve_request_platform() -> None:
    """before_request: bind the host's platform, or refuse the request (421 Misdirected Request)."""
    if request.endpoint in HOST_EXEMPT_ENDPOINTS:
        return
    platform = find_platform(request.host)
    if platform is None:
        raise ApiError(
            gettext("This site (%(host)s) is not configured on the platform.", host=normalize_host(request.host)),
            code=421,
            http_status=421,
        )
    g.platform = platform


def current_platform() -> Platform:
    return g.platform


def operator_platform() -> Platform:
    slug = current_app.config["OPERATOR_TENANT"]
    platform = db.session.scalar(select(Platform).where(Platform.slug == slug))
    if platform is None:
        raise RuntimeError(f"operator tenant {slug!r} is missing: run `flask sync-tenants`")
    return platform


def data_platform() -> Platform:
    """Whose accounts and devices this site shows: its own if independent, else the operator's."""
    platform = current_platform()
    return platform if platform.independent else operator_platform()


def data_platform_id() -> int:
    """data_platform().id without a query per request: the operator's id is fixed for a process."""
    platform = current_platform()
    if platform.independent:
        return platform.id
    cache = current_app.extensions.setdefault("tenancy", {})
    if "operator_platform_id" not in cache:
        cache["operator_platform_id"] = operator_platform().id
    return cache["operator_platform_id"]


class TenantOwned:
    """Mixin for rows that belong to a platform's data space (accounts, devices ...)."""

    @declared_attr
    def platform_id(cls) -> Mapped[int]:  # noqa: N805 - SQLAlchemy declared_attr convention
        return mapped_column(ForeignKey("platform.id"), index=True)


def scoped(stmt: Select[tuple[T]], model: type[TenantOwned]) -> Select[tuple[T]]:
    """Restrict a query to the data space of the current request's platform."""
    return stmt.where(model.platform_id == data_platform_id())


def bearer_token() -> str | None:
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


def require_account(permission: str | None = None):
    """The signed-in account of this request on this site, or 401 (no token) / 401 + 2010 (expired,
    revoked, cancelled, or issued on another site) / 403 (the permission key is not granted)."""
    from api.account.permissions import has_permission
    from api.account.sessions import is_live, token_digest

    if "account" not in g:
        token = bearer_token()
        if token is None:
            raise ApiError(gettext("Logon timeout, please login again"), code=401, http_status=401)
        found = db.session.execute(_signed_in_query(), {"token_hash": token_digest(token)}).one_or_none()
        session = found.AccountSession if found else None
        if not is_live(session, current_platform()):
            raise ApiError(gettext("Logon timeout, please login again"), code=SESSION_EXPIRED, http_status=401)
        g.account, g.account_session = session.account, session
        g.account_takes_part = {"organizations": found.in_organizations, "shares": found.shared_with}
    if permission is not None and not has_permission(g.account, permission):
        raise ApiError(gettext("Access Denied"), code=403, http_status=403)
    return g.account


@functools.cache
def _signed_in_query():
    """A bearer token's session with its account, and whether the account takes part in any
    organization or share at all: most accounts do not, and then their keys and the devices they
    reach need no queries of their own (takes_part()). Built once: every signed-in call runs it."""
    from sqlalchemy import exists
    from sqlalchemy.orm import joinedload

    from api.account.models import AccountSession
    from api.organization.models import Organization, OrganizationMember
    from api.sharing.models import DeviceShare

    me = AccountSession.account_id
    in_organizations = or_(
        exists().where(OrganizationMember.account_id == me), exists().where(Organization.owner_account_id == me)
    )
    return (
        select(
            AccountSession,
            in_organizations.label("in_organizations"),
            exists().where(DeviceShare.recipient_account_id == me).label("shared_with"),
        )
        .options(joinedload(AccountSession.account))
        .where(AccountSession.token_hash == bindparam("token_hash"))
    )


def takes_part(account_id: int, what: str) -> bool:
    """Whether the account is in any organization ("organizations") or has any share, even an
    expired one ("shares"); True when unknown (another account than the signed-in one)."""
    if "account" in g and g.account.id == account_id:
        return g.account_takes_part[what]
    return True


def current_account():
    return require_account()


def site_scoped(stmt: Select[tuple[T]], model) -> Select[tuple[T]]:
    """Restrict a query to rows published by the current request's site."""
    return stmt.where(model.platform_id == current_platform().id)


def owned(stmt: Select[tuple[T]], model) -> Select[tuple[T]]:
    """Restrict a query to rows the signed-in account owns in this site's data space."""
    return scoped(stmt, model).where(model.owner_account_id == require_account().id)


# ---- organisations, sharing and device-level permissions ---------------------------------------------
#
# Who may see a device: its owner; members of the device's organisation or of an organisation above
# it (what they may do comes from their roles' keys); and accounts it is shared with, until the share
# expires, as far as the share's permission template allows (per parameter or per detail block).

# The blocks (device-detail tabs) a permission template can show or hide, besides parameters.
DEVICE_BLOCKS = ("realtime", "chart", "map", "info", "params", "energy", "log", "records", "alarm", "push")
FULL, MEMBER, SHARED = "owner", "member", "shared"


def reachable_organizations(account_id: int | None = None) -> Select[tuple[int]]:
    """Ids of the organisations the account may act in: every node of the trees it created, and
    the organisations it is a member of with everything below them."""
    me = account_id if account_id is not None else require_account().id
    return _reachable_organizations(me, data_platform_id())


def _reachable_organizations(me, platform_id) -> Select[tuple[int]]:
    """reachable_organizations() for values or bind parameters."""
    from sqlalchemy.orm import aliased

    from api.organization.models import Organization, OrganizationMember

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


@functools.cache
def _reached_devices_query() -> Select[tuple[int]]:
    """Devices an account reaches without owning them, with bind parameters (me, platform_id,
    now). It runs on every device call, and building it costs more than running it: built once."""
    from api.organization.models import OrganizationDevice
    from api.sharing.models import DeviceShare

    me = bindparam("me")
    of_organizations = select(OrganizationDevice.device_id).where(
        OrganizationDevice.organization_id.in_(_reachable_organizations(me, bindparam("platform_id")))
    )
    shared = select(DeviceShare.device_id).where(
        DeviceShare.recipient_account_id == me, DeviceShare.expires_at > bindparam("now")
    )
    return of_organizations.union(shared)


def _reached_device_ids() -> list[int]:
    """Devices the signed-in account reaches without owning them: those of its organisations and
    those shared with it (live shares). Computed once per request, so the common case (an account
    on its own) keeps the plain owner filter and its index."""
    if "reached_device_ids" not in g:
        from api.extensions.db import utcnow

        me = require_account().id
        if not (takes_part(me, "organizations") or takes_part(me, "shares")):
            g.reached_device_ids = []
            return g.reached_device_ids
        params = {"me": me, "platform_id": data_platform_id(), "now": utcnow()}
        g.reached_device_ids = sorted(set(db.session.scalars(_reached_devices_query(), params)))
    return g.reached_device_ids


def visible(stmt: Select[tuple[T]], model) -> Select[tuple[T]]:
    """Restrict a device query to the devices the signed-in account may see (owned, of its
    organisations, shared with it and not expired) in this site's data space."""
    return stmt.where(visibility_clause(model)).params(visibility_params())


def visibility_clause(model, reaches_others: bool | None = None):
    """visible()'s condition with bind parameters, for queries built once and run with
    visibility_params(): `reaches_others` (default: the signed-in account's) picks the shape."""
    if reaches_others is None:
        reaches_others = signed_in_reaches_others()
    mine = model.owner_account_id == bindparam("viewer_id")
    in_space = model.platform_id == bindparam("viewer_platform_id")
    if not reaches_others:  # an account on its own keeps the plain owner filter and its index
        return and_(in_space, mine)
    return and_(in_space, or_(mine, model.id.in_(bindparam("viewer_reaches", expanding=True))))


def signed_in_reaches_others() -> bool:
    """Whether the signed-in account sees devices it does not own (which shape visibility_clause takes)."""
    return bool(_reached_device_ids())


def visibility_params() -> dict:
    reached = _reached_device_ids()
    params = {"viewer_id": require_account().id, "viewer_platform_id": data_platform_id()}
    return {**params, "viewer_reaches": reached} if reached else params


def _share_templates() -> dict[int, list[dict]]:
    """{device id: template items} of the signed-in account's live shares (once per request)."""
    if "share_templates" not in g:
        from api.extensions.db import utcnow
        from api.organization.models import OrganizationDevice
        from api.sharing.models import DeviceShare, PermissionTemplate

        me = require_account().id
        rows = db.session.execute(
            select(DeviceShare.device_id, PermissionTemplate.items)
            .join(PermissionTemplate, PermissionTemplate.id == DeviceShare.template_id)
            .where(DeviceShare.recipient_account_id == me, DeviceShare.expires_at > utcnow())
        ).all()
        shares = {device_id: items for device_id, items in rows}
        if shares:  # an organisation's device is the member's by role, not by the share
            in_organizations = db.session.scalars(
                select(OrganizationDevice.device_id).where(
                    OrganizationDevice.device_id.in_(list(shares)),
                    OrganizationDevice.organization_id.in_(reachable_organizations(me)),
                )
            )
            for device_id in in_organizations:
                shares.pop(device_id, None)
        g.share_templates = shares
    return g.share_templates


def device_access(device) -> str:
    """How the signed-in account reaches a visible device: owner, member or shared."""
    if device.owner_account_id == require_account().id:
        return FULL
    return SHARED if device.id in _share_templates() else MEMBER


def device_permissions(device) -> list[dict] | None:
    """Device permission list of console-shell section 3 ({permissionCode, setStatus, viewStatus})
    for a shared device; None for owners and members (the account's keys apply)."""
    if device_access(device) != SHARED:
        return None
    return [
        {"permissionCode": item["permissionCode"], "setStatus": item["setStatus"], "viewStatus": item["viewStatus"]}
        for item in _share_templates()[device.id]
    ]


def _item(device, code: str) -> dict | None:
    return next((i for i in _share_templates().get(device.id, ()) if i["permissionCode"] == code), None)


def may_view(device, code: str) -> bool:
    """Whether a parameter (hex key) or block of the device is visible to the signed-in account."""
    if device_access(device) != SHARED:
        return True
    item = _item(device, code)
    return item is not None and item["viewStatus"] == 1 and item["setStatus"] != -1


def may_operate(device, code: str) -> bool:
    if device_access(device) != SHARED:
        return True
    item = _item(device, code)
    return item is not None and item["viewStatus"] == 1 and item["setStatus"] == 1


def visible_params(device, params):
    """The device type's parameters the signed-in account may see."""
    return [p for p in params if may_view(device, f"{p.param_key:04x}")]


def visible_values(device, values: dict | None) -> dict:
    """Latest values ({sensor number: value}) without the hidden parameters' sensors."""
    if not values or device_access(device) != SHARED:
        return values or {}
    shown = {str(p.probe_id) for p in visible_params(device, device.device_type.params) if p.probe_id is not None}
    return {sensor: value for sensor, value in values.items() if sensor in shown}


def refuse_device_access() -> ApiError:
    return ApiError(gettext("No permission to view this device's details"), code=403, http_status=403)


def require_block(device, block: str) -> None:
    """Refuse (403) a detail block the share's template hides."""
    if not may_view(device, block):
        raise refuse_device_access()


def require_device_write(device, codes=None) -> None:
    """Changing a device: owners and members (by their keys) may; a shared user only sets the
    parameters its template marks operable (`codes`), and nothing else."""
    if device_access(device) != SHARED:
        return
    if not codes or not all(may_operate(device, code) for code in codes):
        raise ApiError(gettext("Access Denied"), code=403, http_status=403)
