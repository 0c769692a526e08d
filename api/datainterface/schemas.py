from __future__ import annotations

import marshmallow as ma
from flask_babel import gettext
from marshmallow import validate

from api.datainterface.models import DeliveryStatus
from api.extensions import outbound
from api.extensions.crud import record_id
from api.extensions.integers import Integer
from api.extensions.smorest import LocalDateTime, PageQuerySchema, Schema

ID = validate.Range(min=1, max=2**31 - 1)
# Intervals a supervision platform asks for (minutes): 5 is the common provincial rule.
INTERVALS = (1, 5, 10, 15, 30, 60)
TARGET_TYPES = ("device", "storage")
MAX_MAPPINGS = 500
MIN_SECRET = 8


def validate_endpoint(value: str) -> None:
    """Checked when saved as when used (api/extensions/outbound.py): a public HTTPS address."""
    outbound.validate_url(value)


def validate_new_secret(value: str) -> None:
    """Empty keeps the stored secret; a new one has at least 8 characters."""
    if value and len(value) < MIN_SECRET:
        raise ma.ValidationError(gettext("At least %(min)s characters.", min=MIN_SECRET))


class ConnectorSchema(Schema):
    connectorId = Integer(attribute="id")
    name = ma.fields.String()
    endpoint = ma.fields.String()
    appId = ma.fields.String(attribute="app_id")
    secretSet = ma.fields.Function(lambda connector: bool(connector.secret))
    intervalMinutes = Integer(attribute="interval_minutes")
    enabled = ma.fields.Boolean()
    mappingCount = ma.fields.Function(lambda connector: len(connector.mappings))
    gmtCreate = LocalDateTime(attribute="created_at")
    gmtModified = LocalDateTime(attribute="updated_at")


class ConnectorInsertSchema(Schema):
    name = ma.fields.String(required=True, validate=validate.Length(min=1, max=50))
    endpoint = ma.fields.String(required=True, validate=[validate.Length(min=1, max=255), validate_endpoint])
    appId = ma.fields.String(required=True, validate=validate.Length(min=1, max=64))
    secret = ma.fields.String(required=True, load_only=True, validate=validate.Length(min=MIN_SECRET, max=128))
    intervalMinutes = Integer(load_default=5, validate=validate.OneOf(INTERVALS))
    enabled = ma.fields.Boolean(load_default=False)


class ConnectorUpdateSchema(Schema):
    """The fields sent change; an empty or absent secret keeps the stored one (it is write-only)."""

    connectorId = record_id()
    name = ma.fields.String(validate=validate.Length(min=1, max=50))
    endpoint = ma.fields.String(validate=[validate.Length(min=1, max=255), validate_endpoint])
    appId = ma.fields.String(validate=validate.Length(min=1, max=64))
    secret = ma.fields.String(load_only=True, validate=[validate.Length(max=128), validate_new_secret])
    intervalMinutes = Integer(validate=validate.OneOf(INTERVALS))
    enabled = ma.fields.Boolean()


class ConnectorIdSchema(Schema):
    connectorId = Integer(required=True, validate=ID)


class MappingItemSchema(Schema):
    targetType = ma.fields.String(required=True, validate=validate.OneOf(TARGET_TYPES))
    targetId = Integer(required=True, validate=ID)
    equipmentCode = ma.fields.String(
        required=True, validate=[validate.Length(min=1, max=64), validate.Regexp(r"^[A-Za-z0-9_.:-]+$")]
    )
    targetName = ma.fields.String(dump_only=True)


class MappingSetSchema(Schema):
    connectorId = Integer(required=True, validate=ID)
    items = ma.fields.List(
        ma.fields.Nested(MappingItemSchema), required=True, validate=validate.Length(max=MAX_MAPPINGS)
    )


class TargetSchema(Schema):
    targetType = ma.fields.String()
    targetId = Integer()
    targetName = ma.fields.String()


class DeliveryQuerySchema(PageQuerySchema):
    connectorId = Integer(required=True, validate=ID)
    status = ma.fields.String(load_default=None, validate=validate.OneOf([s.value for s in DeliveryStatus]))


class DeliverySchema(Schema):
    deliveryId = Integer(attribute="id")
    batchNo = ma.fields.String(attribute="batch_no")
    windowStart = LocalDateTime(attribute="window_start")
    windowEnd = LocalDateTime(attribute="window_end")
    status = ma.fields.String()
    attempts = Integer()
    recordCount = Integer(attribute="record_count", allow_none=True)
    remoteCode = ma.fields.String(attribute="remote_code", allow_none=True)
    remoteMessage = ma.fields.String(attribute="remote_message", allow_none=True)
    sentAt = LocalDateTime(attribute="sent_at", allow_none=True)
    finishedAt = LocalDateTime(attribute="finished_at", allow_none=True)
    nextAttemptAt = LocalDateTime(attribute="next_attempt_at", allow_none=True)
