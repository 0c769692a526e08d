from __future__ import annotations

import re

import marshmallow as ma
from flask_babel import gettext
from marshmallow import validate

from api.account.validators import LowerEmail, Phone
from api.alarm.escalation import kind_text
from api.alarm.models import AlarmKind, AlarmStatus, MessageType, ProcessState, RuleClass
from api.extensions.db import utcnow
from api.extensions.smorest import LocalDateTime, PageQuerySchema, Schema
from api.extensions.validation_messages import ItemCount
from api.notify.models import Channel

HHMM = validate.Regexp(r"^([01]\d|2[0-3]):[0-5]\d$")
LANGS = ("zh-CN", "en-US")
PROCESSED = "processed"  # state filter: any of agreed / rejected / on hold


# ---- messages ----------------------------------------------------------------------------------------


class MessagePageQuerySchema(PageQuerySchema):
    type = ma.fields.String(load_default=None, validate=validate.OneOf([t.value for t in MessageType]))
    deviceId = ma.fields.Integer(load_default=None)
    state = ma.fields.String(load_default=None, validate=validate.OneOf([s.value for s in ProcessState] + [PROCESSED]))
    startTime = ma.fields.AwareDateTime(load_default=None)
    endTime = ma.fields.AwareDateTime(load_default=None)

    @ma.validates_schema
    def _range(self, data, **kwargs):
        if data.get("startTime") and data.get("endTime") and data["endTime"] <= data["startTime"]:
            raise ma.ValidationError(gettext("The end time must be after the start time."), "endTime")


class AlarmSchema(Schema):
    id = ma.fields.Integer()
    deviceId = ma.fields.Integer(attribute="device_id")
    kind = ma.fields.Function(lambda a: a.kind.value)
    kindText = ma.fields.Function(lambda a: _kind_text(a.kind))
    sensor = ma.fields.Integer(allow_none=True)
    status = ma.fields.Function(lambda a: a.status.value)
    startTime = LocalDateTime(attribute="breach_started_at")
    openTime = LocalDateTime(attribute="opened_at", allow_none=True)
    closeTime = LocalDateTime(attribute="closed_at", allow_none=True)
    durationSeconds = ma.fields.Function(lambda a: _duration(a))
    limitValue = ma.fields.Float(attribute="limit_value", allow_none=True)
    firstValue = ma.fields.Float(attribute="first_value", allow_none=True)
    peakValue = ma.fields.Float(attribute="peak_value", allow_none=True)
    lastValue = ma.fields.Float(attribute="last_value", allow_none=True)
    processState = ma.fields.Function(lambda a: a.process_state.value)
    result = ma.fields.String(allow_none=True)
    # Loaded with the page (api.alarm.services.with_details), never one query per row.
    processedBy = ma.fields.Function(lambda a: _details(a).get("processedBy"))
    processTime = LocalDateTime(attribute="processed_at", allow_none=True)
    levelReached = ma.fields.Integer(attribute="level_reached")
    messageId = ma.fields.Function(lambda a: _details(a).get("messageId"))
    history = ma.fields.Function(
        lambda a: _details(a).get("history", []),
        metadata={"description": "every processing decision, oldest first: [{state, result, by, time}]"},
    )


def _details(alarm) -> dict:
    return getattr(alarm, "details", None) or {}


def _kind_text(kind: AlarmKind) -> str:
    return kind_text(kind)


def _duration(alarm) -> int | None:
    if alarm.opened_at is None:
        return None
    end = alarm.closed_at or utcnow()
    return max(0, int((end - alarm.breach_started_at).total_seconds()))


class MessageSchema(Schema):
    id = ma.fields.Integer(attribute="message.id")
    type = ma.fields.Function(lambda row: row["message"].type.value)
    deviceId = ma.fields.Integer(attribute="message.device_id", allow_none=True)
    deviceName = ma.fields.String(attribute="device_name", allow_none=True)
    deviceGuid = ma.fields.String(attribute="device_guid", allow_none=True)
    title = ma.fields.String()
    content = ma.fields.String()
    read = ma.fields.Function(lambda row: row["message"].read_at is not None)
    gmtCreate = LocalDateTime(attribute="message.created_at")
    alarm = ma.fields.Nested(AlarmSchema, attribute="message.alarm", allow_none=True)


class ProcessSchema(Schema):
    ids = ma.fields.List(ma.fields.Integer(), required=True, validate=ItemCount(min=1, max=200))
    processState = ma.fields.String(
        required=True,
        validate=validate.OneOf([ProcessState.AGREED.value, ProcessState.REJECTED.value, ProcessState.ON_HOLD.value]),
    )
    result = ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(max=50))


class ProcessResultSchema(Schema):
    processed = ma.fields.Integer()


class ReadSchema(Schema):
    ids = ma.fields.List(ma.fields.Integer(), load_default=None, validate=ItemCount(max=500))


class UnreadSchema(Schema):
    total = ma.fields.Integer()
    alarm = ma.fields.Integer()
    system = ma.fields.Integer()
    pendingAlarm = ma.fields.Integer()


# ---- device alarm status and history ------------------------------------------------------------------


class DeviceQuerySchema(Schema):
    deviceId = ma.fields.Integer(required=True)


class AlarmPageQuerySchema(PageQuerySchema):
    deviceId = ma.fields.Integer(required=True)
    status = ma.fields.String(load_default=None, validate=validate.OneOf([AlarmStatus.OPEN, AlarmStatus.CLOSED]))


class DeviceAlarmStatusSchema(Schema):
    deviceId = ma.fields.Integer()
    alarmActive = ma.fields.Boolean()
    open = ma.fields.List(ma.fields.Nested(AlarmSchema))
    pendingCount = ma.fields.Integer()
    smsCount = ma.fields.Integer()
    voiceCount = ma.fields.Integer()


class AlarmQuerySchema(Schema):
    alarmId = ma.fields.Integer(required=True)


class OutboxSchema(Schema):
    id = ma.fields.Integer()
    channel = ma.fields.Function(lambda m: m.channel.value)
    recipient = ma.fields.String()
    subject = ma.fields.String(allow_none=True)
    body = ma.fields.String()
    status = ma.fields.Function(lambda m: m.status.value)
    attempts = ma.fields.Integer()
    lastError = ma.fields.String(attribute="last_error", allow_none=True)
    providerRef = ma.fields.String(attribute="provider_ref", allow_none=True)
    gmtCreate = LocalDateTime(attribute="created_at")
    sendTime = LocalDateTime(attribute="sent_at", allow_none=True)


# ---- limits ------------------------------------------------------------------------------------------


class SensorLimitSchema(Schema):
    sensor = ma.fields.Integer(required=True, validate=validate.Range(min=0, max=255))
    upperLimit = ma.fields.Float(attribute="upper", load_default=None, allow_none=True, allow_nan=False)
    lowerLimit = ma.fields.Float(attribute="lower", load_default=None, allow_none=True, allow_nan=False)
    delayMinutes = ma.fields.Integer(attribute="delay_minutes", load_default=0, validate=validate.Range(0, 1440))
    enabled = ma.fields.Boolean(load_default=True)

    @ma.validates_schema
    def _order(self, data, **kwargs):
        upper, lower = data.get("upper"), data.get("lower")
        if upper is not None and lower is not None and upper <= lower:
            raise ma.ValidationError(gettext("The upper limit must be greater than the lower limit."), "upperLimit")


class SensorLimitSaveSchema(Schema):
    deviceId = ma.fields.Integer(required=True)
    limits = ma.fields.List(ma.fields.Nested(SensorLimitSchema), required=True, validate=ItemCount(max=64))


# ---- push settings -----------------------------------------------------------------------------------


class RecipientSchema(Schema):
    name = ma.fields.String(required=True, validate=validate.Length(min=1, max=50))
    phone = Phone(load_default=None, allow_none=True)
    email = LowerEmail(load_default=None, allow_none=True)
    lang = ma.fields.String(load_default="zh-CN", validate=validate.OneOf(LANGS))

    @ma.pre_load
    def _blank_to_none(self, data, **kwargs):
        if isinstance(data, dict):
            data = {k: (None if k in ("phone", "email") and v == "" else v) for k, v in data.items()}
        return data

    @ma.validates_schema
    def _reachable(self, data, **kwargs):
        if not data.get("phone") and not data.get("email"):
            raise ma.ValidationError(gettext("Enter at least one of phone or email."), "phone")


class LevelSchema(Schema):
    level = ma.fields.Integer(required=True, validate=validate.Range(1, 3))
    minutes = ma.fields.Integer(required=True, validate=validate.Range(0, 10080))
    recipients = ma.fields.List(ma.fields.Nested(RecipientSchema), required=True, validate=ItemCount(1, 20))


class PushSettingSchema(Schema):
    deviceId = ma.fields.Integer(attribute="device_id", required=True)
    enabled = ma.fields.Boolean(load_default=True)
    multiLevel = ma.fields.Boolean(attribute="multi_level", load_default=False)
    levels = ma.fields.List(ma.fields.Nested(LevelSchema), required=True, validate=ItemCount(1, 3))
    channels = ma.fields.List(ma.fields.String(validate=validate.OneOf([c.value for c in Channel])), load_default=list)
    repeatCount = ma.fields.Integer(attribute="repeat_count", load_default=0, validate=validate.Range(0, 10))
    intervalMinutes = ma.fields.Integer(attribute="interval_minutes", load_default=10, validate=validate.Range(1, 1440))
    delayMinutes = ma.fields.Integer(attribute="delay_minutes", load_default=0, validate=validate.Range(0, 1440))
    scheduleStart = ma.fields.String(attribute="schedule_start", load_default=None, allow_none=True, validate=HHMM)
    scheduleEnd = ma.fields.String(attribute="schedule_end", load_default=None, allow_none=True, validate=HHMM)
    urgentKinds = ma.fields.List(
        ma.fields.String(validate=validate.OneOf([k.value for k in AlarmKind])),
        attribute="urgent_kinds",
        load_default=list,
    )
    webhookUrl = ma.fields.String(
        attribute="webhook_url", load_default=None, allow_none=True, validate=validate.Length(max=500)
    )
    # Write-only: the receiver's signing secret is entered, never sent back; answers say whether one is set.
    webhookSecret = ma.fields.String(
        attribute="webhook_secret",
        load_only=True,
        load_default=None,
        allow_none=True,
        validate=validate.Length(16, 128),
    )
    webhookSecretSet = ma.fields.Boolean(attribute="webhook_secret_set", dump_only=True)
    smsCount = ma.fields.Integer(attribute="sms_count", dump_only=True)
    voiceCount = ma.fields.Integer(attribute="voice_count", dump_only=True)

    @ma.validates_schema
    def _consistent(self, data, **kwargs):
        if bool(data.get("schedule_start")) != bool(data.get("schedule_end")):
            raise ma.ValidationError(gettext("Enter both the start and the end of the scheduled hours."), "scheduleEnd")
        if Channel.WEBHOOK.value in data.get("channels", []) and not data.get("webhook_url"):
            raise ma.ValidationError(gettext("This field is required."), "webhookUrl")


# ---- operator rules and templates ---------------------------------------------------------------------


class AlarmRuleSchema(Schema):
    id = ma.fields.Integer(dump_only=True)
    deviceTypeId = ma.fields.Integer(attribute="device_type_id", required=True)
    alarmKind = ma.fields.String(
        attribute="alarm_kind", required=True, validate=validate.OneOf([k.value for k in AlarmKind])
    )
    ruleClass = ma.fields.String(
        attribute="rule_class",
        load_default=RuleClass.ALARM.value,
        validate=validate.OneOf([c.value for c in RuleClass]),
    )
    ruleName = ma.fields.String(attribute="rule_name", required=True, validate=validate.Length(min=1, max=100))
    content = ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(max=500))
    alarmLevel = ma.fields.Integer(attribute="alarm_level", load_default=1, validate=validate.Range(1, 3))
    activeDefault = ma.fields.Boolean(attribute="active_default", load_default=True)
    threshold = ma.fields.Float(load_default=None, allow_none=True, allow_nan=False)
    templateId = ma.fields.Integer(attribute="template_id", load_default=None, allow_none=True)


class RuleQuerySchema(Schema):
    deviceTypeId = ma.fields.Integer(load_default=None)
    ruleClass = ma.fields.String(load_default=None, validate=validate.OneOf([c.value for c in RuleClass]))


# The placeholders a template may use (api/alarm/escalation.text_fields).
TEMPLATE_FIELDS = ("device", "guid", "sensor", "value", "limit", "time", "level", "alarm")
TEMPLATE_NAMES = " ".join(f"{{{name}}}" for name in TEMPLATE_FIELDS)
_PLACEHOLDER = re.compile(r"{([^{}]*)}")


class MessageTemplateSchema(Schema):
    id = ma.fields.Integer(load_default=None)
    msgName = ma.fields.String(attribute="msg_name", required=True, validate=validate.Length(min=1, max=20))
    type = ma.fields.String(required=True, validate=validate.OneOf([c.value for c in Channel]))
    content = ma.fields.Dict(
        keys=ma.fields.String(validate=validate.OneOf(LANGS)),
        values=ma.fields.String(validate=validate.Length(min=1, max=1000)),
        required=True,
        validate=validate.Length(min=1),
    )

    @ma.validates("content")
    def _has_a_placeholder(self, content: dict, **kwargs) -> None:
        """Business-domain section 5: the body must carry the template message (a placeholder), and
        only known ones (an unknown one would make every send fall back to the built-in text)."""
        for text in content.values():
            names = _PLACEHOLDER.findall(text)
            if not names or any(name not in TEMPLATE_FIELDS for name in names):
                raise ma.ValidationError(
                    gettext("Use at least one of the placeholders %(names)s, and no other.", names=TEMPLATE_NAMES)
                )
