"""Which platform a request is for: the site of its host, and the data space it shows.

This is the one place where tenant scoping lives. Handlers and services call `current_platform()`
and `scoped()`; none of them filters by platform on its own. Sign-in is api/identity/auth.py; who
may do what is api/access.
"""

from __future__ import annotations

from typing import TypeVar

from flask import current_app, g, request
from flask_babel import gettext
from sqlalchemy import ForeignKey, Select, case, inspect, or_, select
from sqlalchemy.orm import Mapped, declared_attr, make_transient_to_detached, mapped_column

from api.extensions.db import db
from api.extensions.smorest import ApiError
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
    snapshot = platform_snapshot(host)
    return db.session.merge(snapshot, load=False) if snapshot is not None else None


def platform_snapshot(host: str) -> Platform | None:
    """The per-process detached copy of the platform answering `host` (not in the session)."""
    name = normalize_host(host)
    key = (name, current_app.config["HOST_ALIASES"].get(name))
    return _platforms.get(key, lambda: _detached_copy(_query_platform(name)))


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
    snapshot = platform_snapshot(request.host)
    if snapshot is None:
        raise ApiError(
            gettext("This site (%(host)s) is not configured on the platform.", host=normalize_host(request.host)),
            code=421,
            http_status=421,
        )
    if snapshot.closed_at is not None:  # switched off on the customization page
        raise ApiError(gettext("This site is closed."), code=410, http_status=410)
    g.platform_snapshot = snapshot


def current_platform() -> Platform:
    """The request's platform, attached to the session when first asked for (a device's upload
    never asks: merging it cost 5% of a one-record upload's CPU)."""
    platform = g.get("platform")
    if platform is None:
        platform = g.platform = db.session.merge(g.platform_snapshot, load=False)
    return platform


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


def site_scoped(stmt: Select[tuple[T]], model) -> Select[tuple[T]]:
    """Restrict a query to rows published by the current request's site."""
    return stmt.where(model.platform_id == current_platform().id)
