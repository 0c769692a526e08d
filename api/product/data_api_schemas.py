"""Data-API keys and the open calls' answers."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import validate

from api.device.guids import GUID_PATTERN
from api.extensions.integers import Integer
from api.extensions.smorest import LocalDateTime, PageQuerySchema, Schema
from api.extensions.validation_messages import not_blank


class DataApiKeySchema(Schema):
    id = Integer(attribute="key.id")
    accountId = Integer(attribute="key.account_id")
    userName = ma.fields.String(attribute="user_name")
    name = ma.fields.String(attribute="key.name")
    keyPrefix = ma.fields.String(attribute="key.key_prefix", metadata={"description": "the key's first characters"})
    ratePerMinute = Integer(attribute="key.rate_per_minute")
    gmtCreate = LocalDateTime(attribute="key.created_at")
    lastUsedTime = LocalDateTime(attribute="key.last_used_at")
    revokedTime = LocalDateTime(attribute="key.revoked_at")


class DataApiKeyCreatedSchema(DataApiKeySchema):
    secret = ma.fields.String(metadata={"description": "the key itself: shown this once, never again"})


class DataApiKeyInputSchema(Schema):
    accountId = Integer(required=True)
    name = ma.fields.String(required=True, validate=[validate.Length(min=1, max=50), not_blank])
    ratePerMinute = Integer(load_default=60, validate=validate.Range(min=1, max=600))


class DataApiKeyQuerySchema(PageQuerySchema):
    keyword = ma.fields.String(load_default=None, validate=validate.Length(max=50))


class OpenDeviceSchema(Schema):
    deviceGuid = ma.fields.String(attribute="device.guid")
    deviceName = ma.fields.String(attribute="device.name", allow_none=True)
    lastDataTime = LocalDateTime(attribute="state.last_data_at", allow_none=True)
    values = ma.fields.Function(lambda row: row["state"].values if row["state"] else {})
    battery = ma.fields.Function(lambda row: row["state"].battery if row["state"] else None)


class RangeQuerySchema(Schema):
    startTime = ma.fields.AwareDateTime(required=True)
    endTime = ma.fields.AwareDateTime(required=True)


class ReadingQuerySchema(RangeQuerySchema):
    deviceGuid = ma.fields.String(required=True, validate=validate.Regexp(GUID_PATTERN))


class OpenReadingSchema(Schema):
    sensor = Integer()
    time = LocalDateTime()
    value = ma.fields.Float()


class OpenReadingsSchema(Schema):
    deviceGuid = ma.fields.String()
    truncated = ma.fields.Boolean(metadata={"description": "more than 10,000 readings: narrow the range"})
    list = ma.fields.List(ma.fields.Nested(OpenReadingSchema))


class AlarmQuerySchema(PageQuerySchema, RangeQuerySchema):
    deviceGuid = ma.fields.String(load_default=None, validate=validate.Regexp(GUID_PATTERN))


class OpenAlarmSchema(Schema):
    id = Integer(attribute="alarm.id")
    deviceGuid = ma.fields.String(attribute="guid")
    kind = ma.fields.Function(lambda row: row["alarm"].kind.value)
    sensor = Integer(attribute="alarm.sensor", allow_none=True)
    status = ma.fields.Function(lambda row: row["alarm"].status.value)
    startTime = LocalDateTime(attribute="alarm.breach_started_at")
    endTime = LocalDateTime(attribute="alarm.closed_at", allow_none=True)
    limitValue = ma.fields.Float(attribute="alarm.limit_value", allow_none=True)
    peakValue = ma.fields.Float(attribute="alarm.peak_value", allow_none=True)
