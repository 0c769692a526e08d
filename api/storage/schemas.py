"""Schemas of the storage area. Field limits are business-domain section 5: names 50, volume and
area 50, compressor / air cooler / electric box 100; images JPG or PNG (2 MB, checked by content)."""

from __future__ import annotations

from zoneinfo import available_timezones

import marshmallow as ma
from flask_babel import gettext
from marshmallow import validate

from api.alarm.schemas import PushSettingSchema
from api.extensions.crud import record_id
from api.extensions.integers import Integer
from api.extensions.smorest import LocalDateTime, PageQuerySchema, Schema
from api.storage.models import Zone

TIME_ZONES = sorted(available_timezones())
GUID = validate.Regexp(r"^\d{1,20}$")
MAX_IMAGES = 9
MAX_PROBES = 64
ACTIONS = ("setpoint", "compressor", "defrost", "light")


class StorageProbeInputSchema(Schema):
    deviceId = Integer(required=True)
    sensor = Integer(required=True, validate=validate.Range(min=0, max=255))
    zone = ma.fields.String(load_default=Zone.MIDDLE.value, validate=validate.OneOf([z.value for z in Zone]))
    probeName = ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(max=50))


class StorageInputSchema(Schema):
    """A cold storage, a freezer or a virtual storage (the fields that do not apply stay empty)."""

    storageName = ma.fields.String(required=True, validate=validate.Length(min=1, max=50))
    volume = ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(max=50))
    area = ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(max=50))
    compressor = ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(max=100))
    airCooler = ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(max=100))
    electricBox = ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(max=100))
    brand = ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(max=50))
    model = ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(max=50))
    address = ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(max=200))
    lat = ma.fields.Float(load_default=None, allow_none=True, validate=validate.Range(min=-90, max=90))
    lng = ma.fields.Float(load_default=None, allow_none=True, validate=validate.Range(min=-180, max=180))
    images = ma.fields.List(
        ma.fields.String(validate=validate.Length(max=64)), load_default=list, validate=validate.Length(max=MAX_IMAGES)
    )
    timeZone = ma.fields.String(load_default="Asia/Shanghai", validate=validate.OneOf(TIME_ZONES))
    controllerGuid = ma.fields.String(load_default=None, allow_none=True, validate=GUID)
    probes = ma.fields.List(
        ma.fields.Nested(StorageProbeInputSchema), load_default=None, validate=validate.Length(max=MAX_PROBES)
    )
    remark = ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(max=200))
    mktEnabled = ma.fields.Boolean(load_default=False)
    mktWindowHours = Integer(load_default=24, validate=validate.Range(min=1, max=24 * 90))
    mktLimit = ma.fields.Float(load_default=None, allow_none=True, validate=validate.Range(min=-100, max=100))
    # Alarm holds of a room with a controller (api/storage/holds.py); omitted: the stored (default 30 / 5).
    defrostHoldMinutes = Integer(
        validate=validate.Range(min=0, max=240),
        metadata={"description": "minutes a defrost holds the evaporator / return-air probes' limit alarms (0: off)"},
    )
    doorHoldMinutes = Integer(
        validate=validate.Range(min=0, max=240),
        metadata={"description": "minutes an open door holds the door probes' limit alarms (0: off)"},
    )

    @ma.validates_schema
    def _mkt(self, data, **kwargs):
        if data.get("mktEnabled") and data.get("mktLimit") is None:
            raise ma.ValidationError(gettext("This field is required."), "mktLimit")


class StorageUpdateSchema(StorageInputSchema):
    storageId = record_id()


class StoragePageQuerySchema(PageQuerySchema):
    storageName = ma.fields.String(load_default=None, validate=validate.Length(max=50))
    status = ma.fields.String(load_default=None, validate=validate.OneOf(["online", "offline", "alarm", "empty"]))


class StorageIdQuerySchema(Schema):
    storageId = Integer(required=True)


class StorageRangeQuerySchema(StorageIdQuerySchema):
    start = ma.fields.AwareDateTime(required=True)
    end = ma.fields.AwareDateTime(required=True)
    unit = ma.fields.String(load_default="C", validate=validate.OneOf(["C", "F"]))

    @ma.validates_schema
    def _ordered(self, data, **kwargs):
        if data["end"] <= data["start"]:
            raise ma.ValidationError(gettext("The end time must be after the start time."), "end")
        if (data["end"] - data["start"]).days > 400:
            raise ma.ValidationError(gettext("At most 400 days at a time."), "end")


class StorageAlarmQuerySchema(PageQuerySchema):
    storageId = Integer(required=True)
    status = ma.fields.String(load_default=None, validate=validate.OneOf(["open", "closed"]))


class StorageProbeSchema(Schema):
    id = Integer()
    deviceId = Integer()
    deviceName = ma.fields.String(allow_none=True)
    deviceGuid = ma.fields.String()
    sensor = Integer()
    zone = ma.fields.String()
    probeName = ma.fields.String(allow_none=True)
    unit = ma.fields.String(allow_none=True)
    precision = Integer()
    value = ma.fields.Float(allow_none=True)
    lastDataTime = LocalDateTime(allow_none=True)
    online = ma.fields.Boolean()
    stale = ma.fields.Boolean(
        metadata={"description": "the last value of a device that is not live (see lastDataTime)"}
    )
    upper = ma.fields.Float(allow_none=True)
    lower = ma.fields.Float(allow_none=True)
    alarm = ma.fields.Boolean()


class StorageControllerSchema(Schema):
    deviceId = Integer()
    deviceGuid = ma.fields.String()
    deviceName = ma.fields.String(allow_none=True)
    typeName = ma.fields.String()
    typeCode = Integer()
    online = ma.fields.Boolean()
    status = ma.fields.String()


class StorageSchema(Schema):
    defrostHoldMinutes = Integer()
    doorHoldMinutes = Integer()
    id = Integer()
    kind = ma.fields.String()
    storageName = ma.fields.String()
    volume = ma.fields.String(allow_none=True)
    area = ma.fields.String(allow_none=True)
    compressor = ma.fields.String(allow_none=True)
    airCooler = ma.fields.String(allow_none=True)
    electricBox = ma.fields.String(allow_none=True)
    brand = ma.fields.String(allow_none=True)
    model = ma.fields.String(allow_none=True)
    address = ma.fields.String(allow_none=True)
    lat = ma.fields.Float(allow_none=True)
    lng = ma.fields.Float(allow_none=True)
    images = ma.fields.List(ma.fields.String())
    imageUrls = ma.fields.List(ma.fields.String())
    timeZone = ma.fields.String()
    remark = ma.fields.String(allow_none=True)
    mktEnabled = ma.fields.Boolean()
    mktWindowHours = Integer()
    mktLimit = ma.fields.Float(allow_none=True)
    controller = ma.fields.Nested(StorageControllerSchema, allow_none=True)
    probes = ma.fields.List(ma.fields.Nested(StorageProbeSchema))
    status = ma.fields.String()
    openAlarms = Integer()
    mine = ma.fields.Boolean(metadata={"description": "false: reached through an organization or a share"})
    writable = ma.fields.Boolean()
    blocks = ma.fields.List(ma.fields.String(), metadata={"description": "detail tabs this account may open"})
    gmtCreate = LocalDateTime()


class StorageStatusCountSchema(Schema):
    all = Integer()
    online = Integer()
    offline = Integer()
    alarm = Integer()
    empty = Integer()


class StorageOverviewSchema(Schema):
    storageId = Integer()
    status = ma.fields.String()
    probes = ma.fields.List(ma.fields.Nested(StorageProbeSchema))
    setpoint = ma.fields.Float(allow_none=True)
    compressor = ma.fields.Boolean(allow_none=True)
    fan = ma.fields.Boolean(allow_none=True)
    defrost = ma.fields.Boolean(allow_none=True)
    door = ma.fields.Boolean(allow_none=True)
    light = ma.fields.Boolean(allow_none=True)
    controllerOnline = ma.fields.Boolean(allow_none=True)
    lastDataTime = LocalDateTime(allow_none=True)
    alarm = ma.fields.Boolean()
    mkt = ma.fields.Float(allow_none=True)


class StorageChartSeriesSchema(Schema):
    key = ma.fields.String(metadata={"description": "deviceId-sensor"})
    deviceId = Integer()
    sensor = Integer()
    probeName = ma.fields.String(allow_none=True)
    zone = ma.fields.String()
    unit = ma.fields.String(allow_none=True)
    upper = ma.fields.Float(allow_none=True)
    lower = ma.fields.Float(allow_none=True)
    points = ma.fields.Raw(metadata={"type": "array", "items": {"type": "object"}})


class StorageChartSchema(Schema):
    bucketSeconds = Integer()
    unit = ma.fields.String()
    series = ma.fields.List(ma.fields.Nested(StorageChartSeriesSchema))


class StorageAlarmSchema(Schema):
    id = ma.fields.String(metadata={"description": "a device alarm (d<id>) or a storage alarm (s<id>)"})
    source = ma.fields.String()
    deviceId = Integer(allow_none=True)
    deviceName = ma.fields.String(allow_none=True)
    sensor = Integer(allow_none=True)
    kind = ma.fields.String()
    status = ma.fields.String()
    openTime = LocalDateTime(allow_none=True)
    closeTime = LocalDateTime(allow_none=True)
    limitValue = ma.fields.Float(allow_none=True)
    peakValue = ma.fields.Float(allow_none=True)
    lastValue = ma.fields.Float(allow_none=True)
    closeReason = ma.fields.String(allow_none=True)
    probeName = ma.fields.String(allow_none=True)
    zone = ma.fields.String(allow_none=True)
    unit = ma.fields.String(allow_none=True)
    messageId = Integer(allow_none=True, metadata={"description": "process it with /api/alarm/AlarmMessage/process"})
    processState = ma.fields.String(allow_none=True)
    result = ma.fields.String(allow_none=True)


class StoragePushSettingSchema(PushSettingSchema):
    """The alarm push settings applied to every device of the storage."""

    storageId = Integer(attribute="storage_id", required=True)

    class Meta(PushSettingSchema.Meta):
        exclude = ("deviceId",)


class StorageParamSchema(Schema):
    paramKey = ma.fields.String()
    paramName = ma.fields.String()
    paramType = ma.fields.String()
    unit = ma.fields.String(allow_none=True)
    unitCode = ma.fields.String(
        allow_none=True, metadata={"description": "onoff: a state channel (1 running, 0 stopped)"}
    )
    readWrite = ma.fields.String()
    min = ma.fields.Float(allow_none=True)
    max = ma.fields.Float(allow_none=True)
    value = ma.fields.Raw(allow_none=True, metadata={"description": "last reported or last applied value"})
    commandStatus = ma.fields.String(allow_none=True)


class StorageParamsSchema(Schema):
    deviceId = Integer(allow_none=True)
    params = ma.fields.List(ma.fields.Nested(StorageParamSchema))


class StorageTopUpDeviceSchema(Schema):
    deviceId = Integer()
    deviceName = ma.fields.String(allow_none=True)
    deviceGuid = ma.fields.String()
    serviceExpireTime = LocalDateTime(allow_none=True)
    smsCount = Integer()
    voiceCount = Integer()


class StorageTopUpSchema(Schema):
    devices = ma.fields.List(ma.fields.Nested(StorageTopUpDeviceSchema))
    rechargePath = ma.fields.String()


class StorageImageUploadSchema(Schema):
    file = ma.fields.Raw(
        required=True, metadata={"type": "string", "format": "binary", "description": "JPG or PNG, at most 2 MB"}
    )


class StorageImageSchema(Schema):
    name = ma.fields.String()
    url = ma.fields.String()


class CloudCommandInputSchema(Schema):
    storageId = Integer(required=True)
    action = ma.fields.String(required=True, validate=validate.OneOf(ACTIONS))
    value = ma.fields.Float(load_default=None, allow_none=True, validate=validate.Range(min=-60, max=60))
    confirmOffline = ma.fields.Boolean(
        load_default=False, metadata={"description": "send to an offline controller (applied when it reconnects)"}
    )

    @ma.validates_schema
    def _value(self, data, **kwargs):
        if data["action"] == "setpoint" and data.get("value") is None:
            raise ma.ValidationError(gettext("This field is required."), "value")
        if data["action"] in ("compressor", "light") and data.get("value") not in (0, 1):
            raise ma.ValidationError(gettext("Must be one of: %(choices)s.", choices="0, 1"), "value")


class StorageCommandSchema(Schema):
    id = Integer()
    commandId = Integer()
    action = ma.fields.String()
    value = ma.fields.Float(allow_none=True)
    status = ma.fields.String()
    error = ma.fields.String(allow_none=True)
    operator = ma.fields.String(allow_none=True)
    gmtCreate = LocalDateTime()
    ackedAt = LocalDateTime(allow_none=True)


class StorageEnergyMonthSchema(Schema):
    month = LocalDateTime()
    kwh = ma.fields.Float()


class StorageReportSchema(Schema):
    storageId = Integer(required=True)
    startTime = ma.fields.AwareDateTime(required=True)
    endTime = ma.fields.AwareDateTime(required=True)
    fileType = ma.fields.String(load_default="pdf", validate=validate.OneOf(["pdf", "csv", "xlsx"]))
    unit = ma.fields.String(
        load_default=None,
        allow_none=True,
        validate=validate.OneOf(["C", "F"]),
        metadata={"description": "temperature unit; default: the account's"},
    )

    @ma.validates_schema
    def _ordered(self, data, **kwargs):
        if data["endTime"] <= data["startTime"]:
            raise ma.ValidationError(gettext("The end time must be after the start time."), "endTime")
        if (data["endTime"] - data["startTime"]).days > 366:
            raise ma.ValidationError(gettext("The range may not exceed one year."), "endTime")
