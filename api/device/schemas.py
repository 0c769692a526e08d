from __future__ import annotations

from zoneinfo import available_timezones

import marshmallow as ma
from marshmallow import validate

from api.device.catalogue import catalogue_text
from api.device.guids import GUID_PATTERN
from api.device.models import Category, CommandStatus
from api.device.status import DeviceStatus
from api.extensions.crud import record_id
from api.extensions.integers import Integer
from api.extensions.names import SymbolFreeString
from api.extensions.smorest import LocalDateTime, PageQuerySchema, Schema
from api.extensions.validation_messages import ItemCount, not_blank

TIME_ZONES = sorted(available_timezones())
GUID = validate.Regexp(GUID_PATTERN)
ADD_SOURCES = ("platform", "app")  # the one GUID shape (api/device/guids.py)


def last_data_time(state) -> str | None:
    """When the device last reported, in the caller's zone (None before its first data)."""
    return _LOCAL_TIME._serialize(state.last_data_at, None, None) if state and state.last_data_at else None


_LOCAL_TIME = LocalDateTime()


class DeviceParamSchema(Schema):
    paramKey = ma.fields.Function(lambda p: f"{p.param_key:04x}")
    paramName = ma.fields.Function(lambda p: catalogue_text(p.param_name))
    paramType = ma.fields.String(attribute="param_type")
    probeId = Integer(attribute="probe_id", allow_none=True)
    unit = ma.fields.Function(lambda p: catalogue_text(p.unit.unit_name) if p.unit else None)
    unitCode = ma.fields.Function(lambda p: p.unit.unit_code if p.unit else None)
    precision = Integer()
    paramMin = ma.fields.Float(attribute="param_min", allow_none=True)
    paramMax = ma.fields.Float(attribute="param_max", allow_none=True)
    readWriteType = ma.fields.Function(lambda p: p.read_write.value)


class SensorSchema(Schema):
    probeId = Integer()
    paramName = ma.fields.Function(lambda s: catalogue_text(s["paramName"]))
    unit = ma.fields.Function(lambda s: catalogue_text(s["unit"]))
    unitCode = ma.fields.String(allow_none=True)
    precision = Integer()


class DeviceItemSchema(Schema):
    """A device with its latest state, as lists and cards show it."""

    id = Integer(attribute="device.id")
    deviceGuid = ma.fields.String(attribute="device.guid")
    deviceName = ma.fields.String(attribute="device.name", allow_none=True)
    typeName = ma.fields.Function(lambda row: catalogue_text(row["device"].device_type.type_name))
    deviceTypeCode = ma.fields.Function(lambda row: f"{row['device'].device_type.type_code:x}")
    category = ma.fields.Function(lambda row: row["device"].device_type.category.value)
    timeZone = ma.fields.String(attribute="device.time_zone")
    remark = ma.fields.String(attribute="device.remark", allow_none=True)
    status = ma.fields.Function(lambda row: row["status"].value)
    useFlag = ma.fields.Boolean(attribute="device.enabled")
    focus = ma.fields.Boolean(attribute="device.focus")
    quickSearch = ma.fields.Boolean(
        attribute="device.quick_search", metadata={"description": "the public quick query answers for it"}
    )
    shareFlag = ma.fields.Boolean(attribute="shared", metadata={"description": "shared with the account"})
    waybillSupport = ma.fields.Function(
        lambda row: row["device"].device_type.supports_waybill,
        metadata={"description": "its type can be a waybill's logger"},
    )
    batchParam = ma.fields.Function(
        lambda row: row["device"].device_type.batch_param,
        metadata={"description": "its type takes the same settings sent to many devices at once"},
    )
    intervalSeconds = Integer(attribute="device.interval_s")
    serviceExpiredDate = LocalDateTime(attribute="device.service_expires_at", allow_none=True)
    dataExpiredDate = LocalDateTime(attribute="device.data_expires_at", allow_none=True)
    lastDataTime = ma.fields.Function(lambda row: last_data_time(row["state"]))
    values = ma.fields.Function(lambda row: row["values"])  # without the parameters a share hides
    battery = ma.fields.Function(lambda row: row["state"].battery if row["state"] else None)
    signal = ma.fields.Function(lambda row: row["state"].signal if row["state"] else None)
    lat = ma.fields.Function(lambda row: row["state"].lat if row["state"] else None)
    lng = ma.fields.Function(lambda row: row["state"].lng if row["state"] else None)
    sensors = ma.fields.List(
        ma.fields.Nested(SensorSchema), metadata={"description": "name, unit and precision of each value"}
    )


class DeviceDetailSchema(DeviceItemSchema):
    params = ma.fields.List(ma.fields.Nested(DeviceParamSchema), attribute="params")
    sensorSettings = ma.fields.Dict(attribute="device.sensor_settings")
    gmtCreate = LocalDateTime(attribute="device.claimed_at", allow_none=True)
    permissions = ma.fields.List(
        ma.fields.Dict(),
        allow_none=True,
        metadata={"description": "shared device: [{permissionCode, setStatus, viewStatus}]; null: full"},
    )


class DevicePageQuerySchema(PageQuerySchema):
    deviceName = ma.fields.String(load_default=None, validate=validate.Length(max=20))
    status = ma.fields.String(load_default=None, validate=validate.OneOf([s.value for s in DeviceStatus]))
    category = ma.fields.String(load_default=None, validate=validate.OneOf([c.value for c in Category]))
    expiry = ma.fields.String(load_default=None, validate=validate.OneOf(["week", "month", "expired_this_month"]))


class StatusCountSchema(Schema):
    all = Integer()
    online = Integer()
    offline = Integer()
    alarm = Integer()
    disabled = Integer()
    deactivated = Integer()
    expired = Integer()
    notEnabled = Integer()
    organization = Integer()


class DeviceAddSchema(Schema):
    deviceGuid = ma.fields.String(required=True, validate=GUID)
    deviceName = SymbolFreeString(required=True, validate=[validate.Length(min=1, max=15), not_blank])
    timeZone = ma.fields.String(required=True, validate=validate.OneOf(TIME_ZONES))
    remark = ma.fields.String(load_default=None, validate=validate.Length(max=120))
    source = ma.fields.String(
        load_default=ADD_SOURCES[0],
        validate=validate.OneOf(ADD_SOURCES),
        metadata={"description": "where the user adds it: the web platform or the app (the type's addType)"},
    )


class DeviceUpdateSchema(Schema):
    deviceId = record_id()
    deviceName = SymbolFreeString(validate=[validate.Length(min=1, max=15), not_blank])
    timeZone = ma.fields.String(validate=validate.OneOf(TIME_ZONES))
    remark = ma.fields.String(allow_none=True, validate=validate.Length(max=120))
    quickSearch = ma.fields.Boolean(metadata={"description": "quick-search flag; only the owner changes it"})


class BatchActionSchema(Schema):
    action = ma.fields.String(
        required=True, validate=validate.OneOf(["enable", "stopUsing", "scrap", "delete", "pin", "unpin"])
    )
    deviceIds = ma.fields.List(Integer(), required=True, validate=ItemCount(min=1, max=100))


class BatchResultSchema(Schema):
    deviceId = Integer()
    ok = ma.fields.Boolean()
    msg = ma.fields.String(allow_none=True, metadata={"description": "why this device was refused"})


class FocusSchema(Schema):
    focus = ma.fields.Boolean(required=True)


class DeviceEventSchema(Schema):
    id = Integer()
    action = ma.fields.String()
    detail = ma.fields.Dict()
    accountId = Integer(attribute="account_id", allow_none=True)
    actorName = ma.fields.String(attribute="actor_name", allow_none=True, metadata={"description": "Who acted"})
    gmtCreate = LocalDateTime(attribute="created_at")


class DeviceIdQuerySchema(Schema):
    deviceId = Integer(required=True)


class CommandSendSchema(Schema):
    deviceId = Integer(required=True)
    params = ma.fields.Dict(
        keys=ma.fields.String(validate=validate.Regexp(r"^[0-9a-fA-F]{1,4}$")),
        required=True,
        validate=validate.Length(min=1, max=50),
    )


class BatchCommandSchema(Schema):
    deviceIds = ma.fields.List(Integer(), required=True, validate=ItemCount(min=1, max=100))
    params = ma.fields.Dict(
        keys=ma.fields.String(validate=validate.Regexp(r"^[0-9a-fA-F]{1,4}$")),
        required=True,
        validate=validate.Length(min=1, max=50),
    )


class CommandSchema(Schema):
    id = Integer()
    params = ma.fields.Dict()
    status = ma.fields.Enum(CommandStatus, by_value=True)
    error = ma.fields.String(allow_none=True)
    gmtCreate = LocalDateTime(attribute="created_at")
    ackedAt = LocalDateTime(attribute="acked_at", allow_none=True)


class CommandAckSchema(Schema):
    commandId = Integer(required=True)
    ok = ma.fields.Boolean(required=True)
    error = ma.fields.String(load_default=None, validate=validate.Length(max=200))
    progress = ma.fields.String(
        load_default=None,
        validate=validate.OneOf(["downloading", "installing"]),
        metadata={"description": "a step on the way (the command stays pending): firmware upgrades"},
    )
    version = ma.fields.String(
        load_default=None,
        validate=validate.Length(max=50),
        metadata={"description": "the firmware version the device runs now (an upgrade's final acknowledgement)"},
    )


class MaintenanceRecordSchema(Schema):
    id = Integer()
    deviceId = Integer(attribute="device_id")
    kind = ma.fields.String(attribute="kind.value")
    reportTime = LocalDateTime(attribute="report_time")
    startTime = LocalDateTime(attribute="start_time")
    endTime = LocalDateTime(attribute="end_time")
    person = ma.fields.String()
    approver = ma.fields.String(allow_none=True)
    repairer = ma.fields.String(allow_none=True)
    reason = ma.fields.String(allow_none=True)
    content = ma.fields.String(allow_none=True)
    standard = ma.fields.String(allow_none=True)
    result = ma.fields.String(allow_none=True)
    gmtCreate = LocalDateTime(attribute="created_at")


class MaintenanceRecordInputSchema(Schema):
    """Business-domain section 5: person 50, approver 20, reason / content / result 1000, standard 10000."""

    deviceId = Integer(required=True)
    kind = ma.fields.String(required=True, validate=validate.OneOf(["maintenance", "warranty"]))
    reportTime = ma.fields.AwareDateTime(required=True)
    startTime = ma.fields.AwareDateTime(required=True)
    endTime = ma.fields.AwareDateTime(required=True)
    person = ma.fields.String(required=True, validate=validate.Length(min=1, max=50))
    approver = ma.fields.String(load_default=None, validate=validate.Length(max=20))
    repairer = ma.fields.String(load_default=None, validate=validate.Length(max=50))
    reason = ma.fields.String(load_default=None, validate=validate.Length(max=1000))
    content = ma.fields.String(load_default=None, validate=validate.Length(max=1000))
    standard = ma.fields.String(load_default=None, validate=validate.Length(max=10000))
    result = ma.fields.String(load_default=None, validate=validate.Length(max=1000))

    @ma.validates_schema
    def end_after_start(self, data, **kwargs):
        from flask_babel import gettext

        if data["endTime"] <= data["startTime"]:
            raise ma.ValidationError(gettext("The end time must be after the start time."), "endTime")


class MaintenanceRecordUpdateSchema(MaintenanceRecordInputSchema):
    id = record_id()


class MaintenanceQuerySchema(PageQuerySchema):
    deviceId = Integer(required=True)
    kind = ma.fields.String(load_default=None, validate=validate.OneOf(["maintenance", "warranty"]))


class ExpiryInfoQuerySchema(Schema):
    type = Integer(load_default=1, validate=validate.OneOf([1]))


class ExpiryInfoSchema(Schema):
    id = Integer()
    pushMessages = ma.fields.List(ma.fields.String())
    expiredFlag = Integer(metadata={"description": "0 none, 1 expiring in 30 days, 2 expired, 3 past grace"})
    counts = ma.fields.Dict(keys=ma.fields.String(), values=Integer())


class ExpiredDeviceQuerySchema(PageQuerySchema):
    accountId = Integer(load_default=None)
    expiredFlag = Integer(load_default=2, validate=validate.OneOf([1, 2, 3]))


class ExpiredDeviceSchema(Schema):
    id = Integer()
    deviceName = ma.fields.String(attribute="name", allow_none=True)
    deviceGuid = ma.fields.String(attribute="guid")
    serviceExpiredDate = LocalDateTime(attribute="service_expires_at")


class QuickQuerySchema(Schema):
    # Any text: an unknown, partial or malformed id gets the one message 'The device cannot be found,
    # please confirm and re-enter' (business spec 8), not a field error.
    guid = ma.fields.String(required=True, validate=validate.Length(max=64))


class QuickResultSchema(Schema):
    """What a visitor needs: the device's type, status and readings; nothing of its owner."""

    deviceGuid = ma.fields.String(attribute="device.guid")
    typeName = ma.fields.Function(lambda row: catalogue_text(row["device"].device_type.type_name))
    status = ma.fields.Function(lambda row: row["status"].value)
    lastDataTime = ma.fields.Function(lambda row: last_data_time(row["state"]))
    values = ma.fields.Function(lambda row: row["state"].values if row["state"] else {})
    params = ma.fields.List(ma.fields.Nested(DeviceParamSchema))
    chart = ma.fields.Raw(metadata={"type": "object", "description": "last 24 h: sensor -> [{t: epoch ms, v}]"})
