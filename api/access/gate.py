"""The one check of every operation's declared Need (api/extensions/smorest.Blueprint.requires).

Order: signed in (401) -> the permission key down to the action (403 'Access Denied') -> for an
object call, the object in this site's data space and reached by the account (404, so existence is
not disclosed) -> for a device reached through a share, the template's block for VIEW / OPERATE
(body code 4030 'No permission to view this device's details', HTTP 200 so the user stays in).

Object kinds are registered by their areas (`register_kind`): how to load one by id in the data
space, and the device it belongs to (or None for objects that only their owner reaches).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from flask import Flask, has_request_context, request
from flask_babel import gettext

from api.access.keys import has_permission
from api.access.reach import PARAMETERS, SHARED, may_operate, may_view, parameter_codes, reaches, refuse_device_access
from api.account.auth import require_account
from api.extensions.smorest import OPERATE, ApiError, Need, install_gatekeeper

# Ids are database integers (PostgreSQL integer): anything outside is refused before a query runs.
ID_MIN, ID_MAX = 1, 2**31 - 1


@dataclass(frozen=True)
class Kind:
    """load(id) -> the object in the current data space (None if absent or deleted);
    device_of(obj) -> its device (reach and templates come from the device), or None when only the
    owner (`owner_account_id`) reaches it; admit(obj, need) -> for objects that several devices
    make visible (a cold room and its probes' loggers): the area's rule, raising the gate's refusals."""

    load: Callable[[int], object | None]
    device_of: Callable[[object], object | None] | None = None
    admit: Callable[[object, Need], None] | None = None


KINDS: dict[str, Kind] = {}


# Rules for changes to GxP records (operations declaring `gxp`), registered by the area that owns them
# (api/fda: reasons and signatures in FDA mode); each raises its refusal.
RECORD_POLICIES: list[Callable[[Need], None]] = []


def register_record_policy(policy: Callable[[Need], None]) -> None:
    if policy not in RECORD_POLICIES:
        RECORD_POLICIES.append(policy)


def register_kind(name: str, load: Callable[[int], object | None], device_of=None, admit=None) -> None:
    KINDS[name] = Kind(load=load, device_of=device_of, admit=admit)


def not_found() -> ApiError:
    return ApiError(gettext("The requested resource does not exist."), code=404, http_status=404)


def _object_id(need: Need, path_kwargs: dict):
    """The id naming the object: a path parameter, a query parameter or a top-level JSON field.
    None when absent (an optional filter: the area's scoping applies); 422 when it is no id."""
    if need.arg in path_kwargs:
        raw = path_kwargs[need.arg]
    elif need.arg in request.args:
        raw = request.args.get(need.arg)
    else:
        body = request.get_json(silent=True) if request.is_json else None
        raw = body.get(need.arg) if isinstance(body, dict) else None
    if raw is None:
        return None
    values = raw if isinstance(raw, list) else [raw]
    ids = []
    for value in values:
        if isinstance(value, bool):
            raise _bad_id(need.arg)
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, str) and value.strip().isdigit():
            value = int(value)
        if not isinstance(value, int) or not ID_MIN <= value <= ID_MAX:
            # Not an id the database holds: the operation's schema refuses it with its own message
            # (integers are bounded there too), so no object is looked up and the view never runs.
            continue
        ids.append(value)
    return ids


def _bad_id(field: str) -> ApiError:
    message = gettext("Not a valid id.")
    text = f"{gettext('Invalid input')} - {field}: {message}"
    return ApiError(text, code=422, http_status=422, data={"errors": {field: [message]}})


def check(need: Need, path_kwargs: dict) -> None:
    account = require_account()
    if need.key is not None and not has_permission(account, need.key):
        raise ApiError(gettext("Access Denied"), code=403, http_status=403)
    if need.kind is not None:
        for object_id in _object_id(need, path_kwargs) or ():
            check_object(need, object_id, account)
    if need.gxp is not None:
        for policy in RECORD_POLICIES:
            policy(need)


# Kept with the request (not `g`, which a test's outer app context shares across requests).
ADMITTED = "coldchain.admitted_objects"


def admitted(kind: str, object_id: int) -> object | None:
    """The object the gate loaded and admitted for this request, so the area need not load it again."""
    if not has_request_context():
        return None
    return request.environ.get(ADMITTED, {}).get((kind, object_id))


def admitted_objects() -> list[object]:
    """Every object the gate admitted for this request (the records a call touches)."""
    return list(request.environ.get(ADMITTED, {}).values()) if has_request_context() else []


def check_object(need: Need, object_id: int, account) -> None:
    kind = KINDS[need.kind]
    target = kind.load(object_id)
    if target is None:
        raise not_found()
    _admit(kind, target, need, account)
    request.environ.setdefault(ADMITTED, {})[(need.kind, object_id)] = target


def _admit(kind: Kind, target, need: Need, account) -> None:
    if kind.admit is not None:
        kind.admit(target, need)
        return
    device = kind.device_of(target) if kind.device_of else None
    if device is None:
        if getattr(target, "owner_account_id", None) != account.id:
            raise not_found()
        return
    relation = reaches(device)
    if relation is None:
        raise not_found()
    if relation != SHARED:
        return
    allowed = may_operate if need.access == OPERATE else may_view
    if need.block == PARAMETERS:
        # Settings go per parameter: the template must make at least one parameter operable (the area
        # then checks the very parameters of the call with require_device_write).
        if not any(allowed(device, code) for code in parameter_codes(device)):
            raise refuse_device_access()
        return
    if need.block is not None and not allowed(device, need.block):
        raise refuse_device_access()
    if need.block is None and need.access == OPERATE:
        raise refuse_device_access()


# The docs page and its static files: documentation, not operations.
DOCUMENTATION_ENDPOINTS = frozenset({"api-docs", "docs_assets", "static"})


def declared_need(app: Flask, endpoint: str, method: str) -> Need | None:
    view = app.view_functions[endpoint]
    view_class = getattr(view, "view_class", None)
    function = getattr(view_class, method.lower(), None) if view_class else view
    return getattr(function, "access_need", None)


def undeclared_operations(app: Flask) -> list[str]:
    """Operations of the api that declare no Need: each must say what it needs (or that it is public)."""
    missing = []
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/") or rule.endpoint.split(".")[0] in DOCUMENTATION_ENDPOINTS:
            continue
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            if declared_need(app, rule.endpoint, method) is None:
                missing.append(f"{method} {rule.rule}")
    return missing


def install(app: Flask) -> None:
    install_gatekeeper(check)
    missing = undeclared_operations(app)
    if missing:
        raise RuntimeError("operations without a declared need: " + ", ".join(missing))
