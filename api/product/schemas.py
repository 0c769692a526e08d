"""Device types, model codes and units (business-domain sections 3 and 5)."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import validate

from api.device.catalogue import catalogue_text
from api.device.models import AddType, Category, TypeStatus
from api.extensions.crud import record_id
from api.extensions.integers import Integer
from api.extensions.smorest import LocalDateTime, PageQuerySchema, Schema
from api.extensions.validation_messages import not_blank
from api.product.fields import HexCode

TYPE_CODE_MIN = 0x8000
CF_MODES = ("none", "device", "platform")
MAP_MODES = ("none", "gps", "lbs", "gps_lbs")
CONNECT_TYPES = ("mqtt", "http", "tcp")


def _name(low: int, high: int):
    return [validate.Length(min=low, max=high), not_blank]


class DeviceModelCodeInputSchema(Schema):
    modelName = ma.fields.String(required=True, validate=_name(2, 50))
    modelCode = HexCode(4, pad=4, required=True)
    modelType = ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(max=30))
    modelVolume = ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(max=30))
    temperatureRange = ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(max=50))
    voltage = ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(max=30))
    refrigerationPower = ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(max=30))
    defrostPower = ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(max=30))
    modelFlag = ma.fields.Boolean(load_default=True)


class DeviceModelCodeSchema(Schema):
    id = Integer()
    modelCode = HexCode(4, pad=4, attribute="model_code")
    modelName = ma.fields.String(attribute="model_name")
    modelType = ma.fields.String(attribute="model_type")
    modelVolume = ma.fields.String(attribute="model_volume")
    temperatureRange = ma.fields.String(attribute="temperature_range")
    refrigerationPower = ma.fields.String(attribute="refrigeration_power")
    voltage = ma.fields.String()
    defrostPower = ma.fields.String(attribute="defrost_power")
    modelFlag = ma.fields.Boolean(attribute="model_flag")


class DeviceTypeInputSchema(Schema):
    typeName = ma.fields.String(required=True, validate=_name(2, 50))
    typeCode = HexCode(6, minimum=TYPE_CODE_MIN, required=True)
    typeSeries = ma.fields.String(required=True, validate=_name(1, 50))
    category = ma.fields.String(load_default=Category.COLD_CHAIN.value, validate=validate.OneOf(list(Category)))
    mapMode = ma.fields.String(load_default="none", validate=validate.OneOf(MAP_MODES))
    connectType = ma.fields.String(load_default="mqtt", validate=validate.OneOf(CONNECT_TYPES))
    netType = ma.fields.String(required=True, validate=_name(1, 20))
    wifiType = ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(max=20))
    nodeType = ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(max=20))
    supportsEnergy = ma.fields.Boolean(load_default=False)
    supportsPhone = ma.fields.Boolean(load_default=False)
    supportsGps = ma.fields.Boolean(load_default=False)
    autoPush = ma.fields.Boolean(load_default=False, metadata={"description": "auto SMS / email push"})
    batchParam = ma.fields.Boolean(load_default=False)
    onlineUpgrade = ma.fields.Boolean(load_default=False)
    supportsWaybill = ma.fields.Boolean(load_default=False)
    cfMode = ma.fields.String(load_default="none", validate=validate.OneOf(CF_MODES))
    manualUrl = ma.fields.URL(load_default=None, allow_none=True, validate=validate.Length(max=255))
    addType = Integer(
        load_default=AddType.UNLIMITED,
        validate=validate.OneOf([a.value for a in AddType]),
        metadata={"description": "0 unlimited, 1 app only, 2 platform only"},
    )
    typeScenes = ma.fields.List(ma.fields.String(validate=_name(1, 20)), load_default=list)
    explanation = ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(max=200))
    defaultIntervalS = Integer(load_default=300, validate=validate.Range(min=10, max=86400))
    models = ma.fields.List(ma.fields.Nested(DeviceModelCodeInputSchema), load_default=list)


class DeviceTypeUpdateSchema(DeviceTypeInputSchema):
    id = record_id()


class DeviceTypeSchema(Schema):
    id = Integer()
    typeName = ma.fields.Function(lambda t: catalogue_text(t.type_name))
    typeCode = HexCode(6, attribute="type_code")
    typeSeries = ma.fields.String(attribute="type_series")
    category = ma.fields.Function(lambda t: t.category.value)
    typeStatus = ma.fields.Function(lambda t: t.type_status.value)
    mapMode = ma.fields.String(attribute="map_mode")
    connectType = ma.fields.String(attribute="connect_type")
    netType = ma.fields.String(attribute="net_type")
    wifiType = ma.fields.String(attribute="wifi_type")
    nodeType = ma.fields.String(attribute="node_type")
    supportsEnergy = ma.fields.Boolean(attribute="supports_energy")
    supportsPhone = ma.fields.Boolean(attribute="supports_phone")
    supportsGps = ma.fields.Boolean(attribute="supports_gps")
    autoPush = ma.fields.Boolean(attribute="auto_push")
    batchParam = ma.fields.Boolean(attribute="batch_param")
    onlineUpgrade = ma.fields.Boolean(attribute="online_upgrade")
    supportsWaybill = ma.fields.Boolean(attribute="supports_waybill")
    cfMode = ma.fields.String(attribute="cf_mode")
    manualUrl = ma.fields.String(attribute="manual_url")
    addType = Integer(attribute="add_type")
    typeScenes = ma.fields.List(ma.fields.String(), attribute="type_scenes")
    explanation = ma.fields.String()
    defaultIntervalS = Integer(attribute="default_interval_s")
    models = ma.fields.List(ma.fields.Nested(DeviceModelCodeSchema))
    gmtCreate = LocalDateTime(attribute="created_at")


class DeviceTypeQuerySchema(PageQuerySchema):
    keyword = ma.fields.String(load_default=None, validate=validate.Length(max=50))
    typeStatus = ma.fields.String(load_default=None, validate=validate.OneOf(list(TypeStatus)))


class DeviceTypeOptionSchema(Schema):
    id = Integer()
    typeName = ma.fields.Function(lambda t: catalogue_text(t.type_name))
    typeCode = HexCode(6, attribute="type_code")
    typeStatus = ma.fields.Function(lambda t: t.type_status.value)
    batchParam = ma.fields.Boolean(attribute="batch_param")


class IdSchema(Schema):
    id = Integer(required=True)


# ---- units ---------------------------------------------------------------------------------------------


class ParamUnitInputSchema(Schema):
    unitName = ma.fields.String(required=True, validate=_name(1, 30))
    unitCode = ma.fields.String(required=True, validate=[*_name(1, 30), validate.Regexp(r"^[A-Za-z0-9_]+$")])
    unitClassify = ma.fields.String(required=True, validate=_name(1, 30))
    localeCode = ma.fields.String(load_default="en-US", validate=validate.OneOf(["zh-CN", "en-US"]))
    basicUnitStatus = ma.fields.Boolean(load_default=False)
    unitPic = ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(max=255))
    alarmPic = ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(max=255))
    toBasicFormula = ma.fields.String(required=True, validate=validate.Length(min=1, max=100))
    fromBasicFormula = ma.fields.String(required=True, validate=validate.Length(min=1, max=100))


class ParamUnitUpdateSchema(ParamUnitInputSchema):
    id = record_id()


class ParamUnitSchema(Schema):
    id = Integer()
    unitName = ma.fields.Function(lambda u: catalogue_text(u.unit_name))
    unitCode = ma.fields.String(attribute="unit_code")
    unitClassify = ma.fields.String(attribute="unit_classify")
    localeCode = ma.fields.String(attribute="locale_code", allow_none=True)
    basicUnitStatus = ma.fields.Boolean(attribute="basic_unit")
    unitPic = ma.fields.String(attribute="unit_pic", allow_none=True)
    alarmPic = ma.fields.String(attribute="alarm_pic", allow_none=True)
    toBasicFormula = ma.fields.String(attribute="to_basic_formula", allow_none=True)
    fromBasicFormula = ma.fields.String(attribute="from_basic_formula", allow_none=True)


class ParamUnitQuerySchema(PageQuerySchema):
    keyword = ma.fields.String(load_default=None, validate=validate.Length(max=30))
    unitClassify = ma.fields.String(load_default=None, validate=validate.Length(max=30))


class ConvertSchema(Schema):
    formula = ma.fields.String(required=True, validate=validate.Length(min=1, max=100))
    value = ma.fields.Float(required=True)


class ConvertResultSchema(Schema):
    value = ma.fields.Float()
