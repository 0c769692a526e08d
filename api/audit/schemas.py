from __future__ import annotations

import marshmallow as ma
from flask_babel import gettext
from marshmallow import validate

from api.extensions.smorest import LocalDateTime, PageQuerySchema, Schema


class OperationLogSchema(Schema):
    id = ma.fields.Integer()
    accountId = ma.fields.Integer(attribute="account_id", allow_none=True)
    userName = ma.fields.String(attribute="user_name")
    action = ma.fields.String()
    summary = ma.fields.String()
    method = ma.fields.String()
    path = ma.fields.String()
    target = ma.fields.String(allow_none=True)
    before = ma.fields.List(ma.fields.Dict())
    after = ma.fields.List(ma.fields.Dict())
    ip = ma.fields.String(allow_none=True)
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
