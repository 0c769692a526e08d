"""The usual calls of a kind an account manages (a page, one, add, change, delete), registered from
one description instead of five hand-written method views that differ only in names and schemas.

Each call keeps what a hand-written one declares: the permission key down to its action (query,
add, edit, delete), its schemas, its 404, and its docstring (the OpenAPI summary and the operation
log's summary). Class names are `<Name>Page`, `<Name>Detail`, ... as the hand-written ones were, so
endpoints and the documented operations stay the same.

A kind with further calls of its own (a storage's overview, chart, report ...) declares them as
`Action`s in the same description, so a kind's calls are declared one way (docs/conventions.md).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import marshmallow as ma
from flask.views import MethodView

from api.extensions.integers import Integer
from api.extensions.smorest import Blueprint, ErrorEnvelopeSchema

# The id an update names: required and at least 1, so a missing or zero id is a 422 naming the
# field before any view runs, never read as "no id, so create one".
RECORD_ID = ma.validate.Range(min=1)


def record_id(**kwargs: Any) -> Integer:
    """The id field of an update schema (`id = record_id()`): required, positive."""
    return Integer(required=True, validate=RECORD_ID, **kwargs)


@dataclass(frozen=True)
class Call:
    """One call: what it runs, its docstring, the schema of its arguments (page and writes) and
    where they are read (`location="query"` for a GET), and what its need names beyond the
    permission key: the object and the access (`need={"storage": "storageId", "access": OPERATE}`,
    as `blp.requires` takes them)."""

    handler: Callable[..., Any]
    doc: str
    arguments: Any = None
    location: str = "json"
    need: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Action:
    """A call of the kind beside the five: `name` ends its class name (`<Name><name>`), `path`
    follows the prefix, `action` ends its permission key (`query`, `edit`, `export` ...),
    `response` is the schema of its answer (None: an empty answer), `page` marks a paged answer,
    and `missing=False` a call that names no object (so no documented 404). Its Call has a schema:
    an Action reads its arguments (the id of the object it names among them)."""

    name: str
    path: str
    method: str
    action: str
    call: Call
    response: Any = None
    page: bool = False
    missing: bool = True


def _with_args(call: Call) -> Callable:
    def view(_self, args):
        return call.handler(args)

    view.__doc__ = call.doc
    return view


def _with_id(call: Call, id_name: str) -> Callable:
    def view(_self, **path):
        return call.handler(path[id_name])

    view.__doc__ = call.doc
    return view


def register_crud(
    blp: Blueprint,
    name: str,
    *,
    prefix: str = "",
    key: str,
    item: Any,
    missing: str,
    id_name: str,
    page: Call | None = None,
    detail: Call | None = None,
    insert: Call | None = None,
    update: Call | None = None,
    delete: Call | None = None,
    actions: Sequence[Action] = (),
) -> None:
    """`prefix` + /page (POST), /detail/<id> (GET), /insert (POST), /update (PUT), /delete/<id>
    (DELETE), each only when given, then each of `actions`; `id_name` names the path's id
    (`asset_id`)."""

    def not_found(view):
        return blp.alt_response(404, schema=ErrorEnvelopeSchema, description=missing)(view)

    def route(suffix: str, path: str, method: str, view) -> None:
        blp.route(f"{prefix}{path}")(type(f"{name}{suffix}", (MethodView,), {method: view}))

    def requires(action: str, call: Call):
        return blp.requires(f"{key}.{action}", **call.need)

    def arguments(call: Call):
        return blp.arguments(call.arguments, location=call.location)

    if page is not None:
        view = blp.response(200, item, page=True)(_with_args(page))
        route("Page", "/page", "post", requires("query", page)(arguments(page)(view)))
    if detail is not None:
        view = blp.response(200, item)(not_found(_with_id(detail, id_name)))
        route("Detail", f"/detail/<int:{id_name}>", "get", requires("query", detail)(view))
    if insert is not None:
        view = blp.response(200, item)(_with_args(insert))
        route("Insert", "/insert", "post", requires("add", insert)(arguments(insert)(view)))
    if update is not None:
        view = blp.response(200, item)(not_found(_with_args(update)))
        route("Update", "/update", "put", requires("edit", update)(arguments(update)(view)))
    if delete is not None:
        view = blp.response(200)(not_found(_with_id(delete, id_name)))
        route("Delete", f"/delete/<int:{id_name}>", "delete", requires("delete", delete)(view))
    for extra in actions:
        call = extra.call
        if call.arguments is None:
            raise TypeError(f"{name}{extra.name}: an Action reads its arguments (give the Call a schema)")
        view = _with_args(call)
        if extra.missing:
            view = not_found(view)
        if extra.response is None:
            view = blp.response(200)(view)
        else:
            view = blp.response(200, extra.response, page=extra.page)(view)
        route(extra.name, extra.path, extra.method, requires(extra.action, call)(arguments(call)(view)))
