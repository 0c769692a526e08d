"""The one check of every operation's declared Need (api/extensions/smorest.Blueprint.requires).

Order: signed in (401) -> the permission key down to the action (403 'Access Denied') -> for an
object call, the object in this site's data space and reached by the account (404, so existence is
not disclosed) -> for a device reached through a share, the template's block for VIEW / OPERATE
(body code 4030 'No permission to view this device's details', HTTP 200 so the user stays in).

Object kinds are registered by their areas (`register_kind`): how to load one by id in the data
space, and the device it belongs to (or None for objects that only their owner reaches).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from flask import Flask, has_request_context, request
from flask_babel import gettext

from api.access.keys import has_permission
from api.access.reach import PARAMETERS, SHARED, may_operate, may_view, parameter_codes, reaches, refuse_device_access
from api.extensions import integers
from api.extensions.smorest import MUTATING_METHODS, OPERATE, ApiError, Need, install_gatekeeper
from api.identity.auth import require_account

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


# Rules for changes (every POST / PUT / PATCH / DELETE a signed-in account makes, with its declared need),
# registered by the area that owns them (api/fda: reasons and signatures in FDA mode); each decides from
# the need whether the change concerns it, and raises its refusal.
RECORD_POLICIES: list[Callable[[Need], None]] = []


def register_record_policy(policy: Callable[[Need], None]) -> None:
    if policy not in RECORD_POLICIES:
        RECORD_POLICIES.append(policy)


def register_kind(name: str, load: Callable[[int], object | None], device_of=None, admit=None) -> None:
    KINDS[name] = Kind(load=load, device_of=device_of, admit=admit)


def not_found() -> ApiError:
    return ApiError(gettext("The requested resource does not exist."), code=404, http_status=404)


def requested_ids(need: Need, path_kwargs: dict | None = None) -> list[int]:
    """Every id the request gives for the need's object, wherever it stands: the path, each value of
    the query parameter, the form field, the JSON body's top-level field (one id or a list). The
    schema behind the gate reads one of these places in the same one form (api/extensions/integers):
    any other spelling is a 422 naming the field, and an id no row can have (0, negative, beyond the
    database's integers) too. What the gate cannot read, it refuses; it never skips a value."""
    path_kwargs = (request.view_args or {}) if path_kwargs is None else path_kwargs
    values: list = []
    if need.arg in path_kwargs:
        values.append(path_kwargs[need.arg])
    values += request.args.getlist(need.arg)
    if request.mimetype in ("multipart/form-data", "application/x-www-form-urlencoded"):
        values += request.form.getlist(need.arg)
    if request.is_json and request.get_data(cache=True):
        body = request.get_json()  # the api's JSON limits; a body it cannot read is a 400
        if isinstance(body, dict) and need.arg in body:
            value = body[need.arg]
            values += value if isinstance(value, list) else [value]
    ids = []
    for value in values:
        if value is None:
            continue  # JSON null: no object named (the schema says whether the field may be empty)
        try:
            object_id = integers.parse(value)
        except integers.NotCanonicalError:
            raise integers.not_valid_id(need.arg) from None
        if object_id < ID_MIN:
            raise integers.not_valid_id(need.arg, f"Must be greater than or equal to {ID_MIN}.")
        if object_id > ID_MAX:
            raise integers.not_valid_id(need.arg, f"Must be less than or equal to {ID_MAX}.")
        ids.append(object_id)
    return ids


def requested_objects(need: Need) -> list[object]:
    """The objects the request names for the need, each loaded afresh in the current data space
    (absent ones left out): for rules that must not rely on what the gate admitted."""
    if need.kind is None:
        return []
    kind = KINDS[need.kind]
    return [target for object_id in requested_ids(need) if (target := kind.load(object_id)) is not None]


def owner_of(need: Need, target: object) -> int | None:
    """The account owning `target` (an object of the need's kind): its own owner, else its device's."""
    owner = getattr(target, "owner_account_id", None)
    if owner is None and KINDS[need.kind].device_of is not None:
        device = KINDS[need.kind].device_of(target)
        owner = getattr(device, "owner_account_id", None)
    return owner


def check(need: Need, path_kwargs: dict) -> None:
    account = require_account()
    if need.key is not None and not has_permission(account, need.key):
        raise ApiError(gettext("Access Denied"), code=403, http_status=403)
    if need.kind is not None:
        for object_id in requested_ids(need, path_kwargs):
            check_object(need, object_id, account)
    if request.method in MUTATING_METHODS:
        for policy in RECORD_POLICIES:
            policy(need)


# Kept with the request (not `g`, which a test's outer app context shares across requests).
ADMITTED = "coldchain.admitted_objects"


def admitted(kind: str, object_id: int) -> object | None:
    """The object the gate loaded and admitted for this request, so the area need not load it again."""
    if not has_request_context():
        return None
    return request.environ.get(ADMITTED, {}).get((kind, object_id))


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


def unreadable_object_ids(app: Flask, document: dict) -> list[str]:
    """Operations naming an object whose id the gate could not find where the operation takes it: the
    declared argument is no path parameter, query parameter or top-level body field of the operation
    in the OpenAPI document (a renamed field, an id nested in the body). The gate would see no id and
    the view would act on one unchecked."""
    unreadable = []
    for rule in app.url_map.iter_rules():
        path = re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", r"{\1}", rule.rule)
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            need = declared_need(app, rule.endpoint, method) if rule.rule.startswith("/api/") else None
            if need is None or need.kind is None:
                continue
            operation = document["paths"].get(path, {}).get(method.lower(), {})
            if need.arg not in _argument_names(document, operation, rule.arguments):
                unreadable.append(f"{method} {rule.rule}: {need.arg}")
    return unreadable


def _argument_names(document: dict, operation: dict, path_names) -> set[str]:
    names = set(path_names) | {parameter["name"] for parameter in operation.get("parameters", [])}
    for media in operation.get("requestBody", {}).get("content", {}).values():
        schema = media.get("schema", {})
        while "$ref" in schema:
            schema = document["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
        names |= set(schema.get("properties", {}))
    return names


def install(app: Flask, document: dict) -> None:
    """The gate checks every operation; an operation that declares no need, or names an object whose
    id the gate cannot read, stops the app from starting."""
    install_gatekeeper(check)
    missing = undeclared_operations(app)
    if missing:
        raise RuntimeError("operations without a declared need: " + ", ".join(missing))
    unreadable = unreadable_object_ids(app, document)
    if unreadable:
        raise RuntimeError("operations whose object id the access gate cannot read: " + ", ".join(unreadable))
