from __future__ import annotations

import re
from collections.abc import Mapping

import marshmallow as ma
from flask_babel import gettext
from marshmallow import validate

from api.extensions.crud import record_id
from api.extensions.field_rules import length, validate_colour
from api.extensions.integers import Integer
from api.extensions.smorest import LocalDateTime, PageQuerySchema, Schema
from api.identity.validators import LowerEmail, Phone
from api.waybill.models import Disposition, FenceEventKind, FenceShape, Trigger, WaybillState

MAX_FENCE_POINTS = 10
EXPRESS = re.compile(r"^[A-Za-z0-9-]+(,[A-Za-z0-9-]+)*$")
EXPIRES = ("8h", "1d", "3d", "7d", "custom")


def _text(max_length: int, *, required: bool = False, min_length: int | None = None):
    kwargs = {"required": True} if required else {"load_default": None, "allow_none": True}
    return ma.fields.String(
        validate=validate.Length(min=min_length or (1 if required else None), max=max_length), **kwargs
    )


def validate_express(value: str | None) -> None:
    if value and not EXPRESS.match(value):
        raise ma.ValidationError(gettext("Tracking numbers are letters, digits or '-', separated by commas."))


def tracking_numbers(value: str | None) -> list[str]:
    return [part for part in (value or "").split(",") if part]


# ---- fences -------------------------------------------------------------------------------------------


class LatLngField(ma.fields.List):
    """[lat, lng]"""

    def __init__(self, **kwargs):
        super().__init__(ma.fields.Float(allow_nan=False), validate=validate.Length(equal=2), **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        # Validators run after _deserialize: check the pair's length here, before unpacking it.
        pair = super()._deserialize(value, attr, data, **kwargs)
        if len(pair) != 2:
            raise ma.ValidationError(gettext("Not a position on the map."))
        lat, lng = pair
        if not (-90 <= lat <= 90 and -180 <= lng <= 180):
            raise ma.ValidationError(gettext("Not a position on the map."))
        return [lat, lng]


class FenceInputSchema(Schema):
    """Business-domain section 5: click the map first; name required, max 20; at most ten points;
    radius required."""

    name = ma.fields.String(required=True, validate=validate.Length(min=1, max=20))
    shape = ma.fields.String(required=True, validate=validate.OneOf([s.value for s in FenceShape]))
    center = LatLngField(load_default=None, allow_none=True, metadata={"description": "[lat, lng] of a circle"})
    radius = ma.fields.Float(
        load_default=None, allow_none=True, validate=validate.Range(min=1, max=100_000), metadata={"description": "m"}
    )
    points = ma.fields.List(LatLngField(), load_default=list, metadata={"description": "[[lat, lng], ...]"})
    alarmEnter = ma.fields.Boolean(load_default=False)
    alarmLeave = ma.fields.Boolean(load_default=False)

    @ma.validates_schema
    def geometry(self, data, **kwargs):
        if data["shape"] == FenceShape.CIRCLE:
            if data.get("center") is None:
                raise ma.ValidationError(gettext("Click the map first."), "center")
            if data.get("radius") is None:
                raise ma.ValidationError(gettext("Please enter the radius."), "radius")
        else:
            points = data.get("points") or []
            if len(points) > MAX_FENCE_POINTS:
                raise ma.ValidationError(gettext("A fence has at most ten points."), "points")
            if len(points) < 3:
                raise ma.ValidationError(gettext("Click the map first."), "points")


class FenceUpdateSchema(FenceInputSchema):
    id = record_id()


class FenceSchema(Schema):
    id = Integer()
    name = ma.fields.String()
    shape = ma.fields.String()
    center = ma.fields.Method("_center", allow_none=True)
    radius = ma.fields.Float(allow_none=True)
    points = ma.fields.List(ma.fields.List(ma.fields.Float()))
    alarmEnter = ma.fields.Boolean(attribute="alarm_enter")
    alarmLeave = ma.fields.Boolean(attribute="alarm_leave")
    gmtCreate = LocalDateTime(attribute="created_at")

    def _center(self, fence):
        return [fence.lat, fence.lng] if fence.shape == FenceShape.CIRCLE else None


class FencePageQuerySchema(PageQuerySchema):
    name = ma.fields.String(load_default=None, validate=validate.Length(max=20))


# ---- waybills ------------------------------------------------------------------------------------------


class WaybillInputSchema(Schema):
    """Business-domain section 5: goods name 20; order number 20; tracking numbers 100 characters
    comma-separated; cooler code 20; contacts 20 (sender 2-20); phones valid; upper limit required
    and greater than the lower limit (both within the device's range, checked by the service)."""

    orderNum = _text(20, required=True)
    waybillNum = ma.fields.String(load_default=None, allow_none=True, validate=validate.Regexp(r"^[A-Za-z0-9-]{1,32}$"))
    goodsName = _text(20, required=True)
    expressNumber = ma.fields.String(
        load_default=None, allow_none=True, validate=[validate.Length(max=100), validate_express]
    )
    coolerCode = _text(20)
    deviceId = Integer(required=True)
    recordInterval = Integer(load_default=None, allow_none=True, validate=validate.Range(min=1, max=1440))
    upperLimit = ma.fields.Float(required=True, allow_nan=False)
    lowerLimit = ma.fields.Float(required=True, allow_nan=False)
    airFlag = ma.fields.Boolean(load_default=False)
    fenceModelId = Integer(load_default=None, allow_none=True)
    originFenceId = Integer(load_default=None, allow_none=True)
    destinationFenceId = Integer(load_default=None, allow_none=True)
    startMode = ma.fields.String(load_default="manual", validate=validate.OneOf([t.value for t in Trigger]))
    stopMode = ma.fields.String(load_default="manual", validate=validate.OneOf([t.value for t in Trigger]))
    startAt = ma.fields.AwareDateTime(load_default=None, allow_none=True)
    stopAt = ma.fields.AwareDateTime(load_default=None, allow_none=True)
    ignoreMinutes = Integer(load_default=10, validate=validate.Range(min=0, max=1440))
    senderName = _text(20, required=True, min_length=2)
    senderPhone = Phone(required=True)
    receiverCompany = _text(20)
    receiverName = _text(20, required=True)
    receiverPhone = Phone(required=True)
    alarmName = _text(20)
    alarmPhone = Phone(load_default=None, allow_none=True)
    alarmEmail = LowerEmail(load_default=None, allow_none=True, validate=validate.Length(max=100))

    @ma.validates_schema
    def rules(self, data, **kwargs):
        if data["upperLimit"] <= data["lowerLimit"]:
            raise ma.ValidationError(gettext("The upper limit must be greater than the lower limit."), "upperLimit")
        for mode, at, fence in (
            ("startMode", "startAt", "originFenceId"),
            ("stopMode", "stopAt", "destinationFenceId"),
        ):
            if data[mode] == Trigger.TIME and data.get(at) is None:
                raise ma.ValidationError(gettext("Please choose the time."), at)
            if data[mode] == Trigger.FENCE and data.get(fence) is None:
                raise ma.ValidationError(gettext("Please choose the fence."), fence)
        if data.get("startAt") and data.get("stopAt") and data["stopAt"] <= data["startAt"]:
            raise ma.ValidationError(gettext("The stop time must be after the start time."), "stopAt")


class WaybillUpdateSchema(WaybillInputSchema):
    id = record_id()


class WaybillPageQuerySchema(PageQuerySchema):
    keyword = ma.fields.String(load_default=None, validate=validate.Length(max=100))
    state = ma.fields.String(load_default=None, validate=validate.OneOf([s.value for s in WaybillState]))
    deviceId = Integer(load_default=None)


class WaybillReportSchema(Schema):
    id = Integer(required=True)
    fileType = ma.fields.String(load_default="pdf", validate=validate.OneOf(["pdf", "csv", "xlsx"]))


class WaybillStartSchema(Schema):
    confirm = ma.fields.Boolean(load_default=False, metadata={"description": "start although the device is offline"})


class WaybillDisposeSchema(Schema):
    id = Integer(required=True)
    disposition = ma.fields.String(required=True, validate=validate.OneOf([d.value for d in Disposition]))
    reason = ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(max=200))

    @ma.validates_schema
    def reason_for_rejection(self, data, **kwargs):
        if data["disposition"] != Disposition.RELEASED and not (data.get("reason") or "").strip():
            raise ma.ValidationError(gettext("Please give the reason."), "reason")


class WaybillSchema(Schema):
    id = Integer(attribute="waybill.id")
    orderNum = ma.fields.String(attribute="waybill.order_num")
    waybillNum = ma.fields.String(attribute="waybill.waybill_num")
    goodsName = ma.fields.String(attribute="waybill.goods_name")
    expressNumber = ma.fields.String(attribute="waybill.express_number", allow_none=True)
    coolerCode = ma.fields.String(attribute="waybill.cooler_code", allow_none=True)
    deviceId = Integer(attribute="waybill.device_id")
    deviceName = ma.fields.String(attribute="device.name", allow_none=True)
    deviceGuid = ma.fields.String(attribute="device.guid")
    recordInterval = Integer(attribute="waybill.record_interval", allow_none=True)
    sensor = Integer(attribute="waybill.sensor")
    upperLimit = ma.fields.Float(attribute="waybill.upper_limit")
    lowerLimit = ma.fields.Float(attribute="waybill.lower_limit")
    airFlag = ma.fields.Boolean(attribute="waybill.air_flag")
    fenceModelId = Integer(attribute="waybill.fence_model_id", allow_none=True)
    originFenceId = Integer(attribute="waybill.origin_fence_id", allow_none=True)
    destinationFenceId = Integer(attribute="waybill.destination_fence_id", allow_none=True)
    startMode = ma.fields.String(attribute="waybill.start_mode")
    stopMode = ma.fields.String(attribute="waybill.stop_mode")
    startAt = LocalDateTime(attribute="waybill.start_at", allow_none=True)
    stopAt = LocalDateTime(attribute="waybill.stop_at", allow_none=True)
    ignoreMinutes = Integer(attribute="waybill.ignore_minutes")
    senderName = ma.fields.String(attribute="waybill.sender_name")
    senderPhone = ma.fields.String(attribute="waybill.sender_phone")
    receiverCompany = ma.fields.String(attribute="waybill.receiver_company", allow_none=True)
    receiverName = ma.fields.String(attribute="waybill.receiver_name")
    receiverPhone = ma.fields.String(attribute="waybill.receiver_phone")
    alarmName = ma.fields.String(attribute="waybill.alarm_name", allow_none=True)
    alarmPhone = ma.fields.String(attribute="waybill.alarm_phone", allow_none=True)
    alarmEmail = ma.fields.String(attribute="waybill.alarm_email", allow_none=True)
    state = ma.fields.String(attribute="waybill.state")
    startRequestedAt = LocalDateTime(attribute="waybill.start_requested_at", allow_none=True)
    startedAt = LocalDateTime(attribute="waybill.started_at", allow_none=True)
    armedAt = LocalDateTime(attribute="waybill.armed_at", allow_none=True)
    completedAt = LocalDateTime(attribute="waybill.completed_at", allow_none=True)
    disposition = ma.fields.String(attribute="waybill.disposition", allow_none=True)
    dispositionReason = ma.fields.String(attribute="waybill.disposition_reason", allow_none=True)
    disposedAt = LocalDateTime(attribute="waybill.disposed_at", allow_none=True)
    online = ma.fields.Boolean()
    editable = ma.fields.Boolean()
    gmtCreate = LocalDateTime(attribute="waybill.created_at")


class FenceEventSchema(Schema):
    id = Integer()
    fenceId = Integer(attribute="fence_id", allow_none=True)
    fenceName = ma.fields.String(attribute="fence_name")
    kind = ma.fields.String(validate=validate.OneOf([k.value for k in FenceEventKind]))
    ts = LocalDateTime()
    lat = ma.fields.Float()
    lng = ma.fields.Float()
    alarmId = Integer(attribute="alarm_id", allow_none=True)


class WaybillPositionSchema(Schema):
    ts = LocalDateTime()
    lat = ma.fields.Float()
    lng = ma.fields.Float()


class WaybillTrackPointSchema(WaybillPositionSchema):
    breach = ma.fields.String(
        allow_none=True,
        validate=validate.OneOf(["upper", "lower"]),
        metadata={"description": "the temperature here was above the upper or below the lower limit"},
    )


class WaybillStopSchema(Schema):
    lat = ma.fields.Float()
    lng = ma.fields.Float()
    startedAt = LocalDateTime()
    endedAt = LocalDateTime()
    minutes = Integer()


class WaybillAlarmSchema(Schema):
    kind = ma.fields.String()
    status = ma.fields.String()
    value = ma.fields.Float(attribute="peak_value", allow_none=True)
    limit = ma.fields.Float(attribute="limit_value", allow_none=True)
    startedAt = LocalDateTime(attribute="breach_started_at")
    closedAt = LocalDateTime(attribute="closed_at", allow_none=True)


class WaybillIdQuerySchema(Schema):
    id = Integer(required=True)


class WaybillStatusSchema(Schema):
    """Real-time status of a waybill: position, last values, elapsed time, distance, track, events."""

    state = ma.fields.String()
    startedAt = LocalDateTime(allow_none=True)
    completedAt = LocalDateTime(allow_none=True)
    elapsedSeconds = Integer(allow_none=True)
    distanceMeters = ma.fields.Float()
    position = ma.fields.Nested(WaybillPositionSchema, allow_none=True)
    lastValue = ma.fields.Float(allow_none=True)
    lastDataAt = LocalDateTime(allow_none=True)
    upperLimit = ma.fields.Float()
    lowerLimit = ma.fields.Float()
    track = ma.fields.List(ma.fields.Nested(WaybillTrackPointSchema))
    stops = ma.fields.List(ma.fields.Nested(WaybillStopSchema), metadata={"description": "halts of 5 minutes or more"})
    events = ma.fields.List(ma.fields.Nested(FenceEventSchema))
    alarms = ma.fields.List(ma.fields.Nested(WaybillAlarmSchema))
    temperatures = ma.fields.List(
        ma.fields.List(ma.fields.Float(allow_none=True)), metadata={"description": "[ms, value]"}
    )


# ---- map track templates --------------------------------------------------------------------------------

TRACK_NAME_MIN, TRACK_NAME_MAX = length("trackTemplateName")
MAX_STOP_MINUTES = 1440


class TrackTemplateInputSchema(Schema):
    """Business-domain section 5: map track template name 10."""

    name = ma.fields.String(required=True, validate=validate.Length(min=TRACK_NAME_MIN, max=TRACK_NAME_MAX))
    lineColor = ma.fields.String(required=True, validate=validate_colour)
    lineWidth = Integer(load_default=3, validate=validate.Range(min=1, max=8))
    stopMinutes = Integer(
        load_default=0,
        validate=validate.Range(min=0, max=MAX_STOP_MINUTES),
        metadata={"description": "mark stops of at least this many minutes (at least 5); 0: no stops"},
    )
    colorByLimits = ma.fields.Boolean(load_default=True)
    isDefault = ma.fields.Boolean(load_default=False)

    @ma.validates("stopMinutes")
    def stops_long_enough(self, value, **kwargs):
        if 0 < value < 5:
            raise ma.ValidationError(gettext("Stops are marked from 5 minutes on (0: not marked)."))


class TrackTemplateUpdateSchema(TrackTemplateInputSchema):
    id = record_id()


class TrackTemplateSchema(Schema):
    id = Integer()
    name = ma.fields.String()
    lineColor = ma.fields.String(attribute="line_color")
    lineWidth = Integer(attribute="line_width")
    stopMinutes = Integer(attribute="stop_minutes")
    colorByLimits = ma.fields.Boolean(attribute="color_by_limits")
    isDefault = ma.fields.Boolean(attribute="is_default")


# ---- public lookup and share links ----------------------------------------------------------------------


class QuickWaybillQuerySchema(Schema):
    """A complete waybill or tracking number; the spaces around it are not part of it (nor is case)."""

    trackingNumber = ma.fields.String(required=True, validate=validate.Length(min=4, max=40))

    @ma.pre_load
    def _trim(self, data, **kwargs):
        if isinstance(data, Mapping) and isinstance(data.get("trackingNumber"), str):
            data = {**data, "trackingNumber": data["trackingNumber"].strip()}
        return data


class PublicWaybillSchema(WaybillStatusSchema):
    """What a visitor sees: only that waybill's status, route, temperatures and alarms."""

    waybillNum = ma.fields.String()
    trackingNumber = ma.fields.String(allow_none=True)


class SharedWaybillSchema(PublicWaybillSchema):
    """A waybill opened through a share link: also until when the link is valid (null: no expiry)."""

    expiresAt = LocalDateTime(allow_none=True)
    expiresAtText = ma.fields.String(allow_none=True, metadata={"description": "in the device's zone, with its offset"})
    timeZone = ma.fields.String(metadata={"description": "the device's zone, the one expiresAtText is in"})


class WaybillShareInputSchema(Schema):
    waybillId = Integer(required=True)
    expire = ma.fields.String(required=True, validate=validate.OneOf(EXPIRES))
    expireAt = ma.fields.AwareDateTime(load_default=None, allow_none=True)
    pin = ma.fields.String(load_default=None, allow_none=True, validate=validate.Regexp(r"^\d{4,8}$"))

    @ma.validates_schema
    def custom_expiry(self, data, **kwargs):
        if data["expire"] == "custom" and data.get("expireAt") is None:
            raise ma.ValidationError(gettext("Please choose the time."), "expireAt")


class WaybillShareSchema(Schema):
    id = Integer()
    waybillId = Integer(attribute="waybill_id")
    tokenHint = ma.fields.String(attribute="token_hint")
    hasPin = ma.fields.Boolean()
    expiresAt = LocalDateTime(attribute="expires_at")
    revokedAt = LocalDateTime(attribute="revoked_at", allow_none=True)
    createdAt = LocalDateTime(attribute="created_at")
    status = ma.fields.String()
    accessCount = Integer()
    pinFailures = Integer(metadata={"description": "wrong PINs tried on this link, from any address"})
    pinLastFailedAt = LocalDateTime(allow_none=True, metadata={"description": "the last wrong PIN"})
    pinLockedUntil = LocalDateTime(
        allow_none=True, metadata={"description": "locked after 10 wrong PINs in a row: no PIN is taken until then"}
    )


class WaybillShareCreatedSchema(WaybillShareSchema):
    token = ma.fields.String()
    path = ma.fields.String(metadata={"description": "the web page of the link"})


class WaybillShareListQuerySchema(Schema):
    waybillId = Integer(required=True)


class WaybillShareAccessQuerySchema(Schema):
    shareId = Integer(required=True)


class WaybillShareAccessSchema(Schema):
    at = LocalDateTime()
    ip = ma.fields.String(allow_none=True)
    userAgent = ma.fields.String(attribute="user_agent", allow_none=True)
    outcome = ma.fields.String()


class WaybillShareViewSchema(Schema):
    token = ma.fields.String(required=True, validate=validate.Length(min=20, max=64))
    pin = ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(max=8))
