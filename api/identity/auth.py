"""Sign-in of a request: the bearer token's live session on this site, or 401.

The signed-in lookup also tells, in the same query, whether the account takes part in anything
that lets it reach other accounts' devices (organizations, shares). Those areas register their
condition here (`register_participation`), so this layer names no business area, and an account on
its own needs no reach or role-key queries at all.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from flask import g, request
from flask_babel import gettext
from sqlalchemy import ColumnElement, Select, bindparam, select
from sqlalchemy.orm import joinedload

from api.extensions.db import db
from api.extensions.smorest import SESSION_EXPIRED, ApiError
from api.identity.models import Account, AccountSession
from api.identity.sessions import is_live, token_digest
from api.tenancy import current_platform, scoped

T = TypeVar("T")

# name -> builder of an EXISTS condition on the signed-in account id (a column expression)
_participation: dict[str, Callable[[ColumnElement], ColumnElement]] = {}
_query_cache: dict[tuple[str, ...], object] = {}


def register_participation(name: str, condition: Callable[[ColumnElement], ColumnElement]) -> None:
    """An area says how an account takes part in it (e.g. "organizations": member or creator)."""
    _participation[name] = condition
    _query_cache.clear()


# Rules an area adds to every signed-in call, given the live session (FDA mode's idle sign-out): each
# raises its refusal. Registered like participation, so this layer names no area.
_session_policies: list[Callable[[AccountSession], None]] = []


def register_session_policy(policy: Callable[[AccountSession], None]) -> None:
    if policy not in _session_policies:
        _session_policies.append(policy)


def bearer_token() -> str | None:
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


def _signed_in_query():
    """Built once per set of registered areas: every signed-in call runs it."""
    names = tuple(sorted(_participation))
    if names not in _query_cache:
        me = AccountSession.account_id
        columns = [_participation[name](me).label(name) for name in names]
        _query_cache[names] = (
            select(AccountSession, *columns)
            .options(joinedload(AccountSession.account))
            .where(AccountSession.token_hash == bindparam("token_hash"))
        )
    return names, _query_cache[names]


def require_account() -> Account:
    """The signed-in account of this request on this site, or 401 (no token) / 401 + 2010 (expired,
    revoked, cancelled, or issued on another site)."""
    if "account" not in g:
        token = bearer_token()
        if token is None:
            raise ApiError(gettext("Logon timeout, please login again"), code=401, http_status=401)
        names, query = _signed_in_query()
        found = db.session.execute(query, {"token_hash": token_digest(token)}).one_or_none()
        session = found.AccountSession if found else None
        if not is_live(session, current_platform()):
            raise ApiError(gettext("Logon timeout, please login again"), code=SESSION_EXPIRED, http_status=401)
        g.account, g.account_session = session.account, session
        g.account_takes_part = {name: bool(getattr(found, name)) for name in names}
        try:
            for policy in _session_policies:
                policy(session)
        except ApiError:
            for name in ("account", "account_session", "account_takes_part"):
                g.pop(name, None)
            raise
    return g.account


current_account = require_account


def takes_part(account_id: int, what: str) -> bool:
    """Whether the account takes part in a registered area ("organizations", "shares"); True when
    unknown (another account than the signed-in one, or an area that registered nothing)."""
    if "account" in g and g.account.id == account_id:
        return g.account_takes_part.get(what, True)
    return True


def owned(stmt: Select[tuple[T]], model) -> Select[tuple[T]]:
    """Restrict a query to rows the signed-in account owns in this site's data space."""
    return scoped(stmt, model).where(model.owner_account_id == require_account().id)
