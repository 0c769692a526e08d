from __future__ import annotations

import re

import marshmallow as ma
from flask_babel import gettext
from marshmallow import validate

from api.alarm.models import AlarmKind, AlarmStatus, MessageType, ProcessState, RuleClass
from api.alarm.texts import kind_text
from api.extensions.crud import RECORD_ID
from api.extensions.db import utcnow
from api.extensions.integers import Integer
from api.extensions.smorest import LocalDateTime, PageQuerySchema, Schema
from api.extensions.validation_messages import ItemCount
from api.identity.validators import LowerEmail, Phone
from api.notify.models import Channel

HHMM = validate.Regexp(r"^([01]\d|2[0-3]):[0-5]\d$")
LANGS = ("zh-CN", "en-US")
PROCESSED = "processed"  # state filter: any of agreed / rejected / on hold


# ---- messages ----------------------------------------------------------------------------------------


class MessagePageQuerySchema(PageQuerySchema):
    type = ma.fields.String(load_default=None, validate=validate.OneOf([t.value for t in MessageType]))
    deviceId = Integer(load_default=None)
    state = ma.fields.String(load_default=None, validate=validate.OneOf([s.value for s in ProcessState] + [PROCESSED]))
    startTime = ma.fields.AwareDateTime(load_default=None)
    endTime = ma.fields.AwareDateTime(load_default=None)

    @ma.validates_schema
    def _range(self, data, **kwargs):
        if data.get("startTime") and data.get("endTime") and data["endTime"] <= data["startTime"]:
            raise ma.ValidationError(gettext("The end time must be after the start time."), "endTime")


class AlarmSchema(Schema):
    id = Integer()
    deviceId = Integer(attribute="device_id")
    kind = ma.fields.Function(lambda a: a.kind.value)
    kindText = ma.fields.Function(lambda a: _kind_text(a.kind))
    sensor = Integer(allow_none=True)
    status = ma.fields.Function(lambda a: a.status.value)
    startTime = LocalDateTime(attribute="breach_started_at")
    openTime = LocalDateTime(attribute="opened_at", allow_none=True)
    closeTime = LocalDateTime(attribute="closed_at", allow_none=True)
    closeReason = ma.fields.String(
        attribute="close_reason",
        allow_none=True,
        metadata={
            "description": "why it closed without recovering: device_disabled, device_scrapped, asset_disabled, "
            "waybill_completed; null: recovered"
        },
    )
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
    levelReached = Integer(attribute="level_reached")
    ackTime = LocalDateTime(attribute="acknowledged_at", allow_none=True)
    ackVia = ma.fields.String(
        attribute="ack_via", allow_none=True, metadata={"description": "sms, voice, email, console"}
    )
    ackBy = ma.fields.String(attribute="ack_by", allow_none=True, metadata={"description": "the user, phone or email"})
    messageId = ma.fields.Function(lambda a: _details(a).get("messageId"))
    # The probe's name, room · zone · probe, and the unit of the values (api/alarm/places.describe).
    sensorName = ma.fields.Function(lambda a: _details(a).get("sensorName"))
    place = ma.fields.Function(lambda a: _details(a).get("place"))
    unit = ma.fields.Function(
        lambda a: _details(a).get("unit"), metadata={"description": "the unit of the sensor's values and limit"}
    )
    unitCode = ma.fields.Function(lambda a: _details(a).get("unitCode"))
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
    id = Integer(attribute="message.id")
    type = ma.fields.Function(lambda row: row["message"].type.value)
    deviceId = Integer(attribute="message.device_id", allow_none=True)
    deviceName = ma.fields.String(attribute="device_name", allow_none=True)
    deviceGuid = ma.fields.String(attribute="device_guid", allow_none=True)
    title = ma.fields.String()
    content = ma.fields.String()
    read = ma.fields.Function(lambda row: row["message"].read_at is not None)
    gmtCreate = LocalDateTime(attribute="message.created_at")
    alarm = ma.fields.Nested(AlarmSchema, attribute="message.alarm", allow_none=True)


class ProcessSchema(Schema):
    ids = ma.fields.List(Integer(), required=True, validate=ItemCount(min=1, max=200))
    processState = ma.fields.String(
        required=True,
        validate=validate.OneOf([ProcessState.AGREED.value, ProcessState.REJECTED.value, ProcessState.ON_HOLD.value]),
    )
    result = ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(max=50))


class ProcessResultSchema(Schema):
    processed = Integer()


class ReadSchema(Schema):
    ids = ma.fields.List(Integer(), load_default=None, validate=ItemCount(max=500))


class UnreadSchema(Schema):
    total = Integer()
    alarm = Integer()
    system = Integer()
    pendingAlarm = Integer()


# ---- device alarm status and history ------------------------------------------------------------------


class DeviceQuerySchema(Schema):
    deviceId = Integer(required=True)


class AlarmPageQuerySchema(PageQuerySchema):
    deviceId = Integer(required=True)
    status = ma.fields.String(load_default=None, validate=validate.OneOf([AlarmStatus.OPEN, AlarmStatus.CLOSED]))


class DeviceAlarmStatusSchema(Schema):
    deviceId = Integer()
    alarmActive = ma.fields.Boolean()
    open = ma.fields.List(ma.fields.Nested(AlarmSchema))
    pendingCount = Integer()
    smsCount = Integer()
    voiceCount = Integer()


class AlarmQuerySchema(Schema):
    alarmId = Integer(required=True)


class OutboxSchema(Schema):
    id = Integer()
    channel = ma.fields.Function(lambda m: m.channel.value)
    recipient = ma.fields.String()
    subject = ma.fields.String(allow_none=True)
    body = ma.fields.String()
    status = ma.fields.Function(lambda m: m.status.value)
    attempts = Integer()
    lastError = ma.fields.String(attribute="last_error", allow_none=True)
    providerRef = ma.fields.String(attribute="provider_ref", allow_none=True)
    gmtCreate = LocalDateTime(attribute="created_at")
    sendTime = LocalDateTime(attribute="sent_at", allow_none=True)


# ---- limits ------------------------------------------------------------------------------------------


class SensorLimitSchema(Schema):
    sensor = Integer(required=True, validate=validate.Range(min=0, max=255))
    upperLimit = ma.fields.Float(attribute="upper", load_default=None, allow_none=True, allow_nan=False)
    lowerLimit = ma.fields.Float(attribute="lower", load_default=None, allow_none=True, allow_nan=False)
    delayMinutes = Integer(attribute="delay_minutes", load_default=0, validate=validate.Range(0, 1440))
    enabled = ma.fields.Boolean(load_default=True)

    @ma.validates_schema
    def _order(self, data, **kwargs):
        upper, lower = data.get("upper"), data.get("lower")
        if upper is not None and lower is not None and upper <= lower:
            raise ma.ValidationError(gettext("The upper limit must be greater than the lower limit."), "upperLimit")


class SensorLimitSaveSchema(Schema):
    deviceId = Integer(required=True)
    limits = ma.fields.List(ma.fields.Nested(SensorLimitSchema), required=True, validate=ItemCount(max=64))


class SensorLimitPeriodSchema(Schema):
    """One period of a sensor's limits: in force from validFrom until validTo (open: still in force)."""

    sensor = Integer()
    upperLimit = ma.fields.Float(attribute="upper", allow_none=True)
    lowerLimit = ma.fields.Float(attribute="lower", allow_none=True)
    delayMinutes = Integer(attribute="delay_minutes")
    enabled = ma.fields.Boolean()
    validFrom = LocalDateTime(attribute="valid_from")
    validTo = LocalDateTime(attribute="valid_to", allow_none=True)
    changedBy = ma.fields.String(attribute="changed_by_name", allow_none=True)
    reason = ma.fields.String(allow_none=True)


# ---- push settings -----------------------------------------------------------------------------------


class RecipientSchema(Schema):
    """A contact (name, phone and / or email) or, with `kind: onCall`, the person on call of a schedule
    at each send (`scheduleId`; omitted: the device's schedule by scope, api/alarm/recipients.py)."""

    kind = ma.fields.String(load_default="contact", validate=validate.OneOf(("contact", "onCall")))
    scheduleId = Integer(attribute="schedule_id", load_default=None, allow_none=True)
    name = ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(min=1, max=50))
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
        if data.get("kind") == "onCall":
            return
        if not data.get("name"):
            raise ma.ValidationError(gettext("This field is required."), "name")
        if not data.get("phone") and not data.get("email"):
            raise ma.ValidationError(gettext("Enter at least one of phone or email."), "phone")


class LevelSchema(Schema):
    """One level; omitted minutes or recipients keep the stored level's (api/alarm/push.merged)."""

    level = Integer(required=True, validate=validate.Range(1, 3))
    minutes = Integer(validate=validate.Range(0, 10080))
    recipients = ma.fields.List(ma.fields.Nested(RecipientSchema), validate=ItemCount(1, 20))


class PushSettingSchema(Schema):
    """A save sends what its form shows: every omitted field keeps its stored value (a first save
    starts from enabled, single-level, no channels, no repeats, a 10-minute interval, no delay)."""

    deviceId = Integer(attribute="device_id", required=True)
    enabled = ma.fields.Boolean()
    multiLevel = ma.fields.Boolean(attribute="multi_level")
    levels = ma.fields.List(ma.fields.Nested(LevelSchema), validate=ItemCount(1, 3))
    levelCount = Integer(
        attribute="level_count",
        load_only=True,
        validate=validate.Range(1, 3),
        metadata={"description": "levels kept (those numbered above are removed); omitted: all stored levels"},
    )
    channels = ma.fields.List(ma.fields.String(validate=validate.OneOf([c.value for c in Channel])))
    repeatCount = Integer(attribute="repeat_count", validate=validate.Range(0, 10))
    repeatUntilAck = ma.fields.Boolean(
        attribute="repeat_until_ack",
        metadata={"description": "every level reached repeats at the interval until the alarm is acknowledged"},
    )
    intervalMinutes = Integer(attribute="interval_minutes", validate=validate.Range(1, 1440))
    delayMinutes = Integer(attribute="delay_minutes", validate=validate.Range(0, 1440))
    scheduleStart = ma.fields.String(attribute="schedule_start", allow_none=True, validate=HHMM)
    scheduleEnd = ma.fields.String(attribute="schedule_end", allow_none=True, validate=HHMM)
    urgentKinds = ma.fields.List(
        ma.fields.String(validate=validate.OneOf([k.value for k in AlarmKind])), attribute="urgent_kinds"
    )
    webhookUrl = ma.fields.String(attribute="webhook_url", allow_none=True, validate=validate.Length(max=500))
    # Write-only: the receiver's signing secret is entered, never sent back; answers say whether one is set.
    webhookSecret = ma.fields.String(
        attribute="webhook_secret",
        load_only=True,
        load_default=None,
        allow_none=True,
        validate=validate.Length(16, 128),
    )
    webhookSecretSet = ma.fields.Boolean(attribute="webhook_secret_set", dump_only=True)
    smsCount = Integer(attribute="sms_count", dump_only=True)
    voiceCount = Integer(attribute="voice_count", dump_only=True)
    # Whether anything is saved (the tab shows "off, nothing saved" rather than a default form).
    saved = ma.fields.Boolean(dump_only=True)


# ---- operator rules and templates ---------------------------------------------------------------------


class AlarmRuleSchema(Schema):
    id = Integer(dump_only=True)
    deviceTypeId = Integer(attribute="device_type_id", required=True)
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
    alarmLevel = Integer(attribute="alarm_level", load_default=1, validate=validate.Range(1, 3))
    activeDefault = ma.fields.Boolean(attribute="active_default", load_default=True)
    threshold = ma.fields.Float(load_default=None, allow_none=True, allow_nan=False)
    templateId = Integer(attribute="template_id", load_default=None, allow_none=True)


class RuleQuerySchema(Schema):
    deviceTypeId = Integer(load_default=None)
    ruleClass = ma.fields.String(load_default=None, validate=validate.OneOf([c.value for c in RuleClass]))


# The placeholders a template may use (api/alarm/texts.text_fields): {sensor} is the probe's name, {value}
# and {limit} carry the unit, {place} is room · zone · probe.
TEMPLATE_FIELDS = (
    "device",
    "guid",
    "sensor",
    "value",
    "limit",
    "time",
    "level",
    "alarm",
    "room",
    "zone",
    "place",
    "unit",
)
TEMPLATE_NAMES = " ".join(f"{{{name}}}" for name in TEMPLATE_FIELDS)
_PLACEHOLDER = re.compile(r"{([^{}]*)}")


class MessageTemplateSchema(Schema):
    # Absent or null: a new template; else the template changed (0 is a 422, never "new").
    id = Integer(load_default=None, allow_none=True, validate=RECORD_ID)
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
