"""The usual calls of a kind an account manages (a page, one, add, change, delete), registered from
one description instead of five hand-written method views that differ only in names and schemas.

Each call keeps what a hand-written one declares: the permission key down to its action (query,
add, edit, delete), its schemas, its 404, and its docstring (the OpenAPI summary and the operation
log's summary). Class names are `<Name>Page`, `<Name>Detail`, ... as the hand-written ones were, so
endpoints and the documented operations stay the same.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask.views import MethodView

from api.extensions.smorest import Blueprint, ErrorEnvelopeSchema


@dataclass(frozen=True)
class Call:
    """One call: what it runs, its docstring, and the schema of its arguments (page and writes)."""

    handler: Callable[..., Any]
    doc: str
    arguments: Any = None


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
) -> None:
    """`prefix` + /page (POST), /detail/<id> (GET), /insert (POST), /update (PUT), /delete/<id>
    (DELETE), each only when given; `id_name` names the path's id (`asset_id`)."""

    def not_found(view):
        return blp.alt_response(404, schema=ErrorEnvelopeSchema, description=missing)(view)

    def route(suffix: str, path: str, method: str, view) -> None:
        blp.route(f"{prefix}{path}")(type(f"{name}{suffix}", (MethodView,), {method: view}))

    if page is not None:
        view = blp.response(200, item, page=True)(_with_args(page))
        route("Page", "/page", "post", blp.requires(f"{key}.query")(blp.arguments(page.arguments)(view)))
    if detail is not None:
        view = blp.response(200, item)(not_found(_with_id(detail, id_name)))
        route("Detail", f"/detail/<int:{id_name}>", "get", blp.requires(f"{key}.query")(view))
    if insert is not None:
        view = blp.response(200, item)(_with_args(insert))
        route("Insert", "/insert", "post", blp.requires(f"{key}.add")(blp.arguments(insert.arguments)(view)))
    if update is not None:
        view = blp.response(200, item)(not_found(_with_args(update)))
        route("Update", "/update", "put", blp.requires(f"{key}.edit")(blp.arguments(update.arguments)(view)))
    if delete is not None:
        view = blp.response(200)(not_found(_with_id(delete, id_name)))
        route("Delete", f"/delete/<int:{id_name}>", "delete", blp.requires(f"{key}.delete")(view))
