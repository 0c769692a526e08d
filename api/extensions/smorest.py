"""The API's shared bases: Api, Blueprint, Schema, the `{code, msg, data}` envelope and errors.

Views return plain data; `Blueprint.response` wraps it in the envelope and documents the wrapped
shape, so `/api/openapi.json` describes exactly what clients receive. Business failures raise
`ApiError`; every HTTP error (404, 405, 422 ...) leaves through one handler with a localized `msg`.
"""

from __future__ import annotations

import functools
import logging
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

import marshmallow as ma
from babel import Locale
from flask import current_app, request
from flask_babel import force_locale, get_locale, gettext
from flask_smorest import Api as BaseApi
from flask_smorest import Blueprint as BaseBlueprint
from sqlalchemy.exc import DataError
from webargs import core as webargs_core
from webargs.flaskparser import FlaskParser, abort, is_json_request
from werkzeug.exceptions import HTTPException, InternalServerError, MethodNotAllowed

from api.extensions import jsonlimits
from api.extensions.bounds import bound_integers, bound_times
from api.extensions.db import db
from api.extensions.i18n import N_, caller_zone
from api.extensions.integers import Integer, require_canonical
from api.extensions.names import is_name_field, validate_name
from api.extensions.validation_messages import first_errors, localize_tree

log = logging.getLogger(__name__)

# Body codes beyond the HTTP status ones; the spec names 0 (success) and 2010 (session expired).
SUCCESS = 0
SESSION_EXPIRED = 2010

# Messages for HTTP errors; 401 / 403 / 500 / network wording comes from the spec's catalogue.
HTTP_MESSAGES = {
    400: N_("Bad request."),
    401: N_("Logon timeout, please login again"),
    403: N_("Access Denied"),
    404: N_("The requested resource does not exist."),
    405: N_("This method is not allowed here."),
    409: N_("The request conflicts with the current state."),
    413: N_("The file is too large"),
    415: N_("Unsupported content type."),
    421: N_("This site is not configured on the platform."),
    422: N_("Invalid input"),
    429: N_("Too many requests, please try again later."),
    500: N_("Server Exception"),
}
WEBARGS_LOCATIONS = {"json", "query", "querystring", "form", "files", "headers", "cookies", "path", "view_args"}


class ApiError(Exception):
    """A business failure: a non-zero body code and a localized message (already translated).

    Business refusals (wrong password, code expired ...) answer HTTP 200 with the code, as the web's
    error catalogue expects; protocol-level ones (401, 403, 404, 421, 429) also set the HTTP status."""

    def __init__(self, msg: str, *, code: int = 400, http_status: int = 200, data: Any = None):
        super().__init__(msg)
        self.msg = msg
        self.code = code
        self.http_status = http_status
        self.data = data


def field_error(field: str, message: str, *, status: int = 422) -> ApiError:
    """A refusal naming its field, shaped as the schema's own validation errors
    ("Invalid input - deviceId: ...", data.errors.deviceId), so the web shows it under that field."""
    return ApiError(
        gettext("Invalid input") + f" - {field}: {message}",
        code=status,
        http_status=status,
        data={"errors": {field: [message]}},
    )


def envelope(data: Any = None, *, code: int = SUCCESS, msg: str | None = None) -> dict[str, Any]:
    return {"code": code, "msg": msg if msg is not None else success_message(get_locale()), "data": data}


@functools.lru_cache(maxsize=16)
def success_message(locale: Locale | None) -> str:
    """Every answer's message in `locale`, looked up once (flask-babel's lookup of the catalogue took
    about 30 us of each answer). No locale outside a request or app context: the message untranslated,
    as gettext gives it."""
    with force_locale(locale):
        return gettext("success")


class Schema(ma.Schema):
    """Base of every schema: unknown fields are refused, datetimes render in the caller's zone and
    are taken from 1970 to 2999, integers are read in their one form (api/extensions/integers.py) and
    stay within what the database holds, name fields refuse control and bidi characters."""

    class Meta:
        unknown = ma.RAISE
        ordered = True

    def __deepcopy__(self, memo):
        # flask-smorest deep-copies an operation's documentation at each of its decorators, the
        # schema instances in it included: a third of create_app's time (10-15 s on a slow machine,
        # paid by every worker, CLI command and test process). A schema is never changed once built
        # (loading and dumping leave it as it is), so a copy of it is the schema itself.
        return self

    def on_bind_field(self, field_name: str, field_obj: ma.fields.Field) -> None:
        require_canonical(field_obj, f"{type(self).__name__}.{field_name}")
        bound_integers(field_obj)
        bound_times(field_obj)
        if (
            isinstance(field_obj, ma.fields.String)
            and is_name_field(field_name)
            and not field_obj.dump_only
            and validate_name not in field_obj.validators
        ):
            field_obj.validators.append(validate_name)


class LocalDateTime(ma.fields.DateTime):
    """A UTC timestamp rendered as ISO 8601 with the caller's offset (X-Timezone header)."""

    def _serialize(self, value, attr, obj, **kwargs):
        if value is None:
            return None
        return super()._serialize(value.astimezone(caller_zone()), attr, obj, **kwargs)


class ErrorEnvelopeSchema(Schema):
    code = Integer(required=True, metadata={"description": "Non-zero body code"})
    msg = ma.fields.String(required=True, metadata={"description": "Localized message"})
    data = ma.fields.Raw(allow_none=True, metadata={"description": "Details, e.g. field errors"})


class PageQuerySchema(Schema):
    start = Integer(load_default=1, validate=ma.validate.Range(min=1), metadata={"description": "1-based page"})
    pageSize = Integer(load_default=10, validate=ma.validate.Range(min=1, max=200))  # noqa: N815 - spec name


_envelopes: dict[tuple[str, str], type[ma.Schema]] = {}

MUTATING_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
VIEW, OPERATE = "view", "operate"
# A change to a GxP record (21 CFR Part 11): in FDA mode it states a reason, or is signed (the user
# name and password again, and the reason as the signature's meaning).
GXP_REASON, GXP_SIGNATURE = "reason", "signature"


@dataclass(frozen=True)
class Need:
    """What one operation needs; Blueprint.requires / Blueprint.public declare it, the access layer
    (api/access/gate.py) checks it, the OpenAPI document shows it, the function-level probe reads it."""

    key: str | None = None
    kind: str | None = None
    arg: str | None = None
    access: str = VIEW
    block: str | None = None
    public: bool = False
    why: str | None = None
    gxp: str | None = None

    def document(self) -> dict:
        if self.public:
            return {"public": True, "why": self.why}
        doc: dict[str, Any] = {"key": self.key}
        if self.gxp:
            doc["gxp"] = self.gxp
        if self.kind:
            doc.update({"object": self.kind, "arg": self.arg, "access": self.access, "block": self.block})
        return doc


# The access layer installs the one check of every Need (api.access.install): this layer only declares.
_gatekeeper: list = []


def install_gatekeeper(check) -> None:
    _gatekeeper[:] = [check]


# Recorders of signed-in accounts' mutating calls (the operation log, api/audit/recorder.py):
# objects with begin(view) before the view, finish(view) after it returned and abandon() when it
# raised. The recorder writes its entry in the transaction of the changes (at their commit).
mutation_recorders: list = []


def envelope_schema(schema: type[ma.Schema] | ma.Schema | None, kind: str = "one") -> type[ma.Schema]:
    """Schema class describing `{code, msg, data}` around `schema` (one object, a list or a page)."""
    if isinstance(schema, ma.Schema):
        kind = "list" if schema.many and kind == "one" else kind
        schema_cls = type(schema)
    else:
        schema_cls = schema
    name = schema_cls.__name__.removesuffix("Schema") if schema_cls else "Empty"
    key = (name, kind)
    known = _envelopes.get(key)
    if known is not None and schema_cls is not None and known._wrapped is not schema_cls:
        # The envelope and the OpenAPI component are named after the schema: two schemas of one name
        # would answer one call with the other's fields.
        raise TypeError(f"two response schemas are named {schema_cls.__name__}: rename one ({schema_cls.__module__})")
    if known is None:
        if schema_cls is None:
            data_field: ma.fields.Field = ma.fields.Raw(allow_none=True)
        elif kind == "list":
            # data is null on a refusal (code != 0, still HTTP 200), for lists and pages as for objects.
            data_field = ma.fields.List(ma.fields.Nested(schema_cls), allow_none=True)
        elif kind == "page":
            page_cls = type(
                f"{name}PageSchema",
                (Schema,),
                {
                    "list": ma.fields.List(ma.fields.Nested(schema_cls), required=True),
                    "total": Integer(required=True),
                },
            )
            data_field = ma.fields.Nested(page_cls, allow_none=True)
        else:
            data_field = ma.fields.Nested(schema_cls, allow_none=True)
        suffix = {"one": "", "list": "List", "page": "Page"}[kind]
        _envelopes[key] = type(
            f"{name}{suffix}EnvelopeSchema",
            (Schema,),
            {
                "code": Integer(required=True),
                "msg": ma.fields.String(required=True),
                "data": data_field,
                "_wrapped": schema_cls,
            },
        )
    return _envelopes[key]


class LimitedParser(FlaskParser):
    """webargs' parser with the platform's JSON limits (api/extensions/jsonlimits.py): a body nested
    too deeply, too large or not JSON is a 400 with a localized message, never a crash."""

    def _raw_load_json(self, req):
        if not is_json_request(req):
            return webargs_core.missing
        data = req.get_data(cache=True)
        if not data:
            return webargs_core.missing
        try:
            return jsonlimits.loads(data)
        except jsonlimits.JsonLimitError:
            abort(400, message=gettext("The JSON body is nested too deeply or too large."))
        except ValueError:
            abort(400, message=gettext("The request body is not valid JSON."))


class Blueprint(BaseBlueprint):
    """A smorest Blueprint whose `response` wraps the view's result in the envelope."""

    ARGUMENTS_PARSER = LimitedParser()

    def arguments(self, schema, *args, **kwargs):
        # webargs builds a schema given as a class on every request (its fields, hooks and options);
        # one instance, built here, serves every request (loading keeps no state in it).
        return super().arguments(schema() if isinstance(schema, type) else schema, *args, **kwargs)

    def response(self, status_code=200, schema=None, *, page: bool = False, **kwargs):
        wrapped_schema = envelope_schema(schema, "page" if page else "one")
        document = super().response(status_code, wrapped_schema, **kwargs)

        def decorator(view):
            @functools.wraps(view)
            def wrapper(*args, **view_kwargs):
                result = view(*args, **view_kwargs)
                if isinstance(result, current_app.response_class):
                    return result
                return envelope(result)

            return document(wrapper)

        return decorator

    def requires(
        self,
        key: str | None = None,
        *,
        access: str = VIEW,
        block: str | None = None,
        gxp: str | None = None,
        **objects: str,
    ):
        """What the operation needs, checked before anything else runs (the access layer's gate):
        the permission key down to the action (`device.list.edit`; None: any signed-in account),
        and for an object call the object (`device="deviceId"`: its kind and the path parameter or
        request field naming it), the access (VIEW / OPERATE) and the share-template block it touches.
        `gxp` marks a change to a GxP record (GXP_REASON / GXP_SIGNATURE: what FDA mode asks of it).
        The need is published in the OpenAPI document as `x-access`."""
        if len(objects) > 1:
            raise TypeError("an operation names at most one object")
        kind, arg = next(iter(objects.items())) if objects else (None, None)
        if access not in (VIEW, OPERATE):
            raise ValueError(f"access must be {VIEW!r} or {OPERATE!r}")
        if gxp not in (None, GXP_REASON, GXP_SIGNATURE):
            raise ValueError(f"gxp must be {GXP_REASON!r} or {GXP_SIGNATURE!r}")
        return self._guard(Need(key=key, kind=kind, arg=arg, access=access, block=block, gxp=gxp))

    def public(self, why: str):
        """An operation anyone may call, signed out (sign-in, registration, device uploads ...)."""
        return self._guard(Need(public=True, why=why))

    def _guard(self, need: Need):
        def decorator(view):
            @functools.wraps(view)
            def wrapper(*args, **kwargs):
                if need.public:
                    return view(*args, **kwargs)
                if not _gatekeeper:
                    raise RuntimeError("no access gate installed (api.access.install)")
                _gatekeeper[0](need, kwargs)
                if request.method not in MUTATING_METHODS or not mutation_recorders:
                    return view(*args, **kwargs)
                for recorder in mutation_recorders:
                    recorder.begin(view)
                try:
                    result = view(*args, **kwargs)
                except BaseException:
                    for recorder in mutation_recorders:
                        recorder.abandon()
                    raise
                for recorder in mutation_recorders:
                    recorder.finish(view)
                return result

            wrapper.access_need = need
            documented = self.doc(**{"x-access": need.document()})(wrapper)
            if need.public:
                return documented
            documented = self.doc(security=[{"bearerAuth": []}])(documented)
            documented = self.alt_response(403, schema=ErrorEnvelopeSchema, description="Permission key not granted")(
                documented
            )
            return self.alt_response(401, schema=ErrorEnvelopeSchema, description="Not signed in")(documented)

        return decorator

    def file_response(self, content_type: str, *other_types: str, description: str | None = None):
        """Document a view that returns a file (a Response) instead of an envelope: every content type
        it may answer (a download that is CSV or XLSX names both)."""
        binary = {"type": "string", "format": "binary"}
        file = super().response(200, binary, content_type=content_type, description=description)
        content = {other: {"schema": binary} for other in other_types}
        # A refusal (file not generated yet, expired) answers 200 with the envelope, as every call does.
        content["application/json"] = {"schema": ErrorEnvelopeSchema}
        others = self.doc(responses={200: {"content": content}})
        return lambda view: others(file(view))


class Api(BaseApi):
    ERROR_SCHEMA = ErrorEnvelopeSchema

    def init_app(self, app, *, spec_kwargs=None):
        super().init_app(app, spec_kwargs=spec_kwargs)
        self.spec.components.security_scheme("bearerAuth", {"type": "http", "scheme": "bearer"})

    def _register_error_handlers(self):
        self._app.register_error_handler(HTTPException, self.handle_http_exception)
        self._app.register_error_handler(ApiError, handle_api_error)
        self._app.register_error_handler(Exception, handle_unexpected_error)

    def handle_http_exception(self, error: HTTPException):
        status = error.code or 500
        data = getattr(error, "data", None) or {}
        headers = data.get("headers") or {}
        msg = data.get("message") or gettext(HTTP_MESSAGES.get(status, HTTPStatus(status).phrase))
        details = None
        messages = data.get("errors") or data.get("messages")
        if messages:
            details = localize_tree(_without_locations(messages))
            fields = first_errors(details)
            if fields:
                listed = "; ".join(f"{field}: {message}" for field, message in fields)
                msg = gettext("Invalid input") + " - " + listed
            details = {"errors": details}
        if isinstance(error, MethodNotAllowed) and error.valid_methods:
            headers = {**headers, "Allow": ", ".join(error.valid_methods)}
        return envelope(details, code=status, msg=msg), status, headers


def _without_locations(messages: dict) -> dict:
    """webargs nests errors under their location (json, query ...); clients want the field names."""
    if isinstance(messages, dict) and messages and set(messages) <= WEBARGS_LOCATIONS:
        merged: dict = {}
        for location_errors in messages.values():
            if isinstance(location_errors, dict):
                merged.update(location_errors)
        return merged
    return messages


def handle_api_error(error: ApiError):
    return envelope(error.data, code=error.code, msg=error.msg), error.http_status


def handle_unexpected_error(error: Exception):
    if isinstance(error, HTTPException):  # pragma: no cover - routed to handle_http_exception
        raise error
    if isinstance(error, DataError):
        # A value the database cannot hold (an id beyond its integer range ...) is bad input, not a crash.
        db.session.rollback()
        return envelope(None, code=422, msg=gettext(HTTP_MESSAGES[422])), 422
    log.exception("unhandled error", exc_info=error)
    return envelope(None, code=500, msg=gettext(HTTP_MESSAGES[500])), InternalServerError.code


api = Api()
