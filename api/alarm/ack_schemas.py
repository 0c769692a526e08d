"""Schemas of acknowledgements and the alarm's timeline (issue 48)."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import validate

from api.extensions.integers import Integer
from api.extensions.smorest import LocalDateTime, Schema


class AckSchema(Schema):
    alarmId = Integer(required=True)


class AckStateSchema(Schema):
    alarmId = Integer()
    recorded = ma.fields.Boolean(metadata={"description": "this call recorded the acknowledgement"})
    acknowledged = ma.fields.Boolean()
    ackTime = LocalDateTime(allow_none=True)
    ackVia = ma.fields.String(allow_none=True, metadata={"description": "sms, voice, email, console"})
    ackBy = ma.fields.String(allow_none=True, metadata={"description": "the user, phone or email"})


class AckLinkQuerySchema(Schema):
    token = ma.fields.String(required=True, validate=validate.Length(min=1, max=500))


class AckLinkSchema(AckStateSchema):
    deviceName = ma.fields.String(allow_none=True)
    kindText = ma.fields.String()
    place = ma.fields.String(allow_none=True)
    unit = ma.fields.String(allow_none=True)
    lastValue = ma.fields.Float(allow_none=True)
    limitValue = ma.fields.Float(allow_none=True)
    openTime = LocalDateTime(allow_none=True)
    status = ma.fields.String()


class TimelineEntrySchema(Schema):
    time = LocalDateTime()
    event = ma.fields.String(
        metadata={"description": "opened, queued, sent, delivered, failed, escalated, acknowledged, processed, closed"}
    )
    channel = ma.fields.String()
    recipient = ma.fields.String()
    level = Integer()
    via = ma.fields.String()
    by = ma.fields.String()
    state = ma.fields.String()
    detail = ma.fields.String()
