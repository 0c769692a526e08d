"""Series, firmware versions and upgrades (business-domain sections 3 and 5). Lengths, the firmware
cap and the rollout limits come from rules/fields.json (the web reads the same file)."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import validate

from api.device.catalogue import catalogue_text
from api.extensions.crud import record_id
from api.extensions.field_rules import field_rules, length
from api.extensions.integers import Integer
from api.extensions.smorest import LocalDateTime, PageQuerySchema, Schema
from api.extensions.validation_messages import not_blank
from api.product.models import RolloutStatus, TargetState
from api.product.rollouts import reason_text, stop_text


def _text(name: str, required: bool = True):
    low, high = length(name)
    rules = [validate.Length(min=low, max=high)]
    if required:
        return ma.fields.String(required=True, validate=[*rules, not_blank])
    return ma.fields.String(load_default=None, allow_none=True, validate=rules)


def _range(name: str):
    rule = field_rules()["upgrade"][name]
    return validate.Range(min=rule["min"], max=rule["max"])


# ---- series ------------------------------------------------------------------------------------------------


class SeriesInputSchema(Schema):
    seriesName = _text("seriesName")


class SeriesUpdateSchema(SeriesInputSchema):
    id = record_id()


class SeriesSchema(Schema):
    id = Integer()
    seriesName = ma.fields.String(attribute="series_name")
    typeCount = Integer(attribute="type_count", metadata={"description": "device types of the series"})
    gmtCreate = LocalDateTime(attribute="created_at")


class SeriesOptionSchema(Schema):
    id = Integer()
    seriesName = ma.fields.String(attribute="series_name")


class SeriesQuerySchema(PageQuerySchema):
    keyword = ma.fields.String(load_default=None, validate=validate.Length(max=50))


# ---- firmware ----------------------------------------------------------------------------------------------


class FirmwareInputSchema(Schema):
    deviceTypeId = Integer(required=True, metadata={"description": "the device model the firmware is for"})
    latestVersionValue = _text("versionValue")
    latestVersionLabel = _text("versionLabel")
    versionDescrip = _text("versionDescrip", required=False)


class FirmwareFileSchema(Schema):
    upgradeMultipartFile = ma.fields.Raw(
        required=True,
        metadata={
            "type": "string",
            "format": "binary",
            "description": f"the firmware image, at most {field_rules()['upgrade']['firmwareMaxMB']} MB",
        },
    )


class FirmwareSchema(Schema):
    id = Integer()
    deviceTypeId = Integer(attribute="device_type_id")
    typeName = ma.fields.Function(lambda f: catalogue_text(f.device_type.type_name))
    latestVersionValue = ma.fields.String(attribute="version_value")
    latestVersionLabel = ma.fields.String(attribute="version_label")
    versionDescrip = ma.fields.String(attribute="version_descrip", allow_none=True)
    fileName = ma.fields.String(attribute="original_name", allow_none=True)
    fileSize = Integer(attribute="file_size")
    sha256 = ma.fields.String()
    gmtCreate = LocalDateTime(attribute="created_at")


class FirmwareQuerySchema(PageQuerySchema):
    deviceTypeId = Integer(load_default=None)
    keyword = ma.fields.String(load_default=None, validate=validate.Length(max=50))


# ---- rollouts ----------------------------------------------------------------------------------------------


class RolloutInputSchema(Schema):
    firmwareId = Integer(required=True)
    deviceIds = ma.fields.List(
        Integer(),
        load_default=list,
        validate=validate.Length(max=10000),
        metadata={"description": "one device or a selection, all of the firmware's model"},
    )
    allDevices = ma.fields.Boolean(load_default=False, metadata={"description": "every device of the model"})
    stages = ma.fields.List(
        Integer(),
        load_default=lambda: [100],
        validate=validate.Length(max=20),
        metadata={"description": "groups as cumulative percentages, e.g. [5, 25, 100]"},
    )
    failureThreshold = Integer(
        load_default=100, validate=_range("threshold"), metadata={"description": "stop above this percent failed"}
    )
    ratePerMinute = Integer(
        load_default=60, validate=_range("rate"), metadata={"description": "devices sent a minute at most"}
    )


class RetrySchema(Schema):
    rolloutId = Integer(required=True)
    deviceIds = ma.fields.List(Integer(), load_default=list, validate=validate.Length(max=10000))


class RolloutQuerySchema(PageQuerySchema):
    firmwareId = Integer(load_default=None)
    status = ma.fields.String(load_default=None, validate=validate.OneOf(list(RolloutStatus)))


class RolloutGroupSchema(Schema):
    stage = Integer()
    percent = Integer()
    devices = Integer()
    counts = ma.fields.Dict(keys=ma.fields.String(), values=Integer())


class UpgradeTargetSchema(Schema):
    deviceId = Integer(attribute="device_id")
    deviceGuid = ma.fields.String(attribute="device.guid")
    deviceName = ma.fields.String(attribute="device.name", allow_none=True)
    stage = Integer()
    state = ma.fields.Enum(TargetState, by_value=True)
    fromVersion = ma.fields.String(attribute="from_version", allow_none=True)
    firmwareVersion = ma.fields.String(attribute="device.firmware_version", allow_none=True)
    attempts = Integer()
    sentTime = LocalDateTime(attribute="sent_at", allow_none=True)
    updateTime = LocalDateTime(attribute="updated_at", allow_none=True)
    error = ma.fields.Function(lambda t: reason_text(t.error), allow_none=True)


class RolloutSchema(Schema):
    id = Integer(attribute="rollout.id")
    firmwareId = Integer(attribute="rollout.firmware_id")
    latestVersionValue = ma.fields.String(attribute="rollout.firmware.version_value")
    typeName = ma.fields.Function(lambda s: catalogue_text(s["rollout"].firmware.device_type.type_name))
    stages = ma.fields.List(Integer(), attribute="rollout.stages")
    currentStage = Integer(attribute="rollout.current_stage")
    failureThreshold = Integer(attribute="rollout.failure_threshold")
    ratePerMinute = Integer(attribute="rollout.rate_per_minute")
    status = ma.fields.Enum(RolloutStatus, by_value=True, attribute="rollout.status")
    stopReason = ma.fields.Function(lambda s: stop_text(s["rollout"]), allow_none=True)
    total = Integer()
    counts = ma.fields.Dict(keys=ma.fields.String(), values=Integer())
    groups = ma.fields.List(ma.fields.Nested(RolloutGroupSchema))
    timeoutMinutes = Integer(metadata={"description": "a device that has not confirmed by then fails"})
    gmtCreate = LocalDateTime(attribute="rollout.created_at")
    finishTime = LocalDateTime(attribute="rollout.finished_at", allow_none=True)


class RolloutDetailSchema(RolloutSchema):
    targets = ma.fields.List(ma.fields.Nested(UpgradeTargetSchema))
