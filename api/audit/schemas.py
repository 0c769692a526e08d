from __future__ import annotations

import marshmallow as ma
from flask import current_app
from flask_babel import gettext
from marshmallow import validate

from api.access.gate import declared_need
from api.audit.redaction import redact
from api.extensions.integers import Integer
from api.extensions.smorest import LocalDateTime, PageQuerySchema, Schema


def permission_key_of(entry) -> str | None:
    """The permission key the logged call declared (None for events and calls no longer served)."""
    if entry.action not in current_app.view_functions:
        return None
    need = declared_need(current_app, entry.action, entry.method)
    return need.key if need is not None else None


class RedactedRows(ma.fields.List):
    """Old or new values as the page shows them: never a secret, whenever the entry was written."""

    def _serialize(self, value, attr, obj, **kwargs):
        return super()._serialize(redact(value or []), attr, obj, **kwargs)


class OperationLogSchema(Schema):
    id = Integer()
    accountId = Integer(attribute="account_id", allow_none=True)
    userName = ma.fields.String(attribute="user_name")
    action = ma.fields.String()
    summary = ma.fields.String(metadata={"description": "what the call does, as its developer wrote it (English)"})
    permissionKey = ma.fields.Function(
        permission_key_of,
        allow_none=True,
        metadata={"description": "the key the call declared (route and action), named by pages in their language"},
    )
    method = ma.fields.String()
    path = ma.fields.String()
    target = ma.fields.String(allow_none=True)
    before = RedactedRows(ma.fields.Dict())
    after = RedactedRows(ma.fields.Dict())
    ip = ma.fields.String(allow_none=True)
    reason = ma.fields.String(allow_none=True)
    gmtCreate = LocalDateTime(attribute="created_at")


class OperationLogQuerySchema(PageQuerySchema):
    userName = ma.fields.String(load_default=None, validate=validate.Length(max=50))
    keyword = ma.fields.String(load_default=None, validate=validate.Length(max=100))
    startTime = ma.fields.AwareDateTime(load_default=None)
    endTime = ma.fields.AwareDateTime(load_default=None)

    @ma.validates_schema
    def end_after_start(self, data, **kwargs):
        if data.get("startTime") and data.get("endTime") and data["endTime"] <= data["startTime"]:
            raise ma.ValidationError(gettext("End time must be after start time."), "endTime")
