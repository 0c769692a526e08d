"""Device parameters (business-domain sections 3 and 5)."""

from __future__ import annotations

import re

import marshmallow as ma
from flask_babel import gettext
from marshmallow import validate

from api.device.catalogue import catalogue_text
from api.device.models import ReadWrite
from api.extensions.crud import record_id
from api.extensions.integers import Integer
from api.extensions.smorest import PageQuerySchema, Schema
from api.extensions.validation_messages import ItemCount, not_blank
from api.product.fields import HexCode

PARAM_CLASSIFIES = ("basic", "advanced", "alarm", "status")
PARAM_TYPES = ("sensor", "setting", "status", "energy")
DATA_TYPES = ("number", "text", "enum", "bit", "boolean")
PRECISION = validate.Range(min=0, max=4)


def plain_text(value: str | None) -> None:
    """Text values travel in comma / colon separated downlink frames: neither may appear."""
    if value and ("," in value or ":" in value or "，" in value or "：" in value):
        raise ma.ValidationError(gettext("Text values may not contain a comma or a colon."))


def valid_regexp(value: str | None) -> None:
    if value:
        try:
            re.compile(value)
        except re.error:
            raise ma.ValidationError(gettext("Not a valid regular expression.")) from None


class BoundSchema(Schema):
    """A minimum or maximum: a fixed value, or another parameter of the type (its key)."""

    value = ma.fields.Float(load_default=None, allow_none=True)
    paramKey = HexCode(4, pad=4, load_default=None, allow_none=True)

    @ma.validates_schema
    def one_of(self, data, **kwargs):
        if (data.get("value") is None) == (data.get("paramKey") is None):
            raise ma.ValidationError(gettext("Give either a fixed value or a parameter."), "value")


class BitSchema(Schema):
    bit = Integer(required=True, validate=validate.Range(min=0, max=63))
    name = ma.fields.String(required=True, validate=[validate.Length(min=1, max=40), not_blank, plain_text])


class ParamDefinitionInputSchema(Schema):
    deviceTypeId = Integer(required=True)
    paramClassify = ma.fields.String(load_default="basic", validate=validate.OneOf(PARAM_CLASSIFIES))
    paramType = ma.fields.String(required=True, validate=validate.OneOf(PARAM_TYPES))
    paramName = ma.fields.String(required=True, validate=[validate.Length(min=1, max=40), not_blank])
    paramKey = HexCode(4, pad=4, required=True)
    paramCode = HexCode(6, pad=6, load_default=None, allow_none=True)
    paramSortNo = Integer(required=True, validate=validate.Range(min=1))
    dataType = ma.fields.String(load_default="number", validate=validate.OneOf(DATA_TYPES))
    probeId = Integer(load_default=None, allow_none=True, validate=validate.Range(min=1, max=255))
    precisionUnit = Integer(required=True, validate=PRECISION)
    viewPrecisionUnit = Integer(load_default=None, allow_none=True, validate=PRECISION)
    paramMin = ma.fields.Nested(BoundSchema, load_default=None, allow_none=True)
    paramMax = ma.fields.Nested(BoundSchema, load_default=None, allow_none=True)
    stepLength = ma.fields.Float(
        load_default=None, allow_none=True, validate=validate.Range(min=0, min_inclusive=False)
    )
    unitId = Integer(load_default=None, allow_none=True)
    readWriteType = ma.fields.String(load_default="R", validate=validate.OneOf([rw.value for rw in ReadWrite]))
    enforceSend = ma.fields.Boolean(load_default=False)
    defaultValue = ma.fields.String(load_default=None, allow_none=True, validate=[validate.Length(max=40), plain_text])
    refParamExpression = ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(max=100))
    bitLength = Integer(load_default=None, allow_none=True, validate=validate.Range(min=1, max=64))
    bitList = ma.fields.List(ma.fields.Nested(BitSchema), load_default=list, validate=ItemCount(max=64))
    regExp = ma.fields.String(load_default=None, allow_none=True, validate=[validate.Length(max=200), valid_regexp])
    regExpTip = ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(max=100))

    @ma.validates_schema
    def precisions(self, data, **kwargs):
        view = data.get("viewPrecisionUnit")
        if view is not None and data.get("precisionUnit") is not None and view > data["precisionUnit"]:
            raise ma.ValidationError(
                gettext("The display precision may not be above the transmission precision."), "viewPrecisionUnit"
            )
        low, high = data.get("paramMin") or {}, data.get("paramMax") or {}
        if low.get("value") is not None and high.get("value") is not None and low["value"] >= high["value"]:
            raise ma.ValidationError(gettext("The maximum must be above the minimum."), "paramMax")
        if data.get("dataType") == "bit" and not data.get("bitList"):
            raise ma.ValidationError(gettext("A bit parameter needs its bit list."), "bitList")


class ParamDefinitionUpdateSchema(ParamDefinitionInputSchema):
    id = record_id()


def _bound(param, which: str) -> dict | None:
    key = getattr(param, f"{which}_param_key")
    if key is not None:
        return {"value": None, "paramKey": f"{key:04x}"}
    value = getattr(param, f"param_{which}")
    return None if value is None else {"value": value, "paramKey": None}


class ParamDefinitionSchema(Schema):
    id = Integer()
    deviceTypeId = Integer(attribute="device_type_id")
    paramClassify = ma.fields.String(attribute="param_classify")
    paramType = ma.fields.String(attribute="param_type")
    paramName = ma.fields.Function(lambda p: catalogue_text(p.param_name))
    paramKey = HexCode(4, pad=4, attribute="param_key")
    paramCode = HexCode(6, pad=6, attribute="param_code")
    paramSortNo = Integer(attribute="sort_no")
    dataType = ma.fields.String(attribute="data_type")
    probeId = Integer(attribute="probe_id")
    precisionUnit = Integer(attribute="precision")
    viewPrecisionUnit = Integer(attribute="view_precision")
    paramMin = ma.fields.Function(lambda p: _bound(p, "min"))
    paramMax = ma.fields.Function(lambda p: _bound(p, "max"))
    stepLength = ma.fields.Float(attribute="step_length")
    unitId = Integer(attribute="unit_id")
    unitName = ma.fields.Function(lambda p: catalogue_text(p.unit.unit_name) if p.unit else None)
    readWriteType = ma.fields.Function(lambda p: p.read_write.value)
    enforceSend = ma.fields.Boolean(attribute="enforce_send")
    defaultValue = ma.fields.String(attribute="default_value")
    refParamExpression = ma.fields.String(attribute="ref_param_expression")
    bitLength = Integer(attribute="bit_length")
    bitList = ma.fields.List(ma.fields.Dict(), attribute="bit_list")
    regExp = ma.fields.String(attribute="reg_exp")
    regExpTip = ma.fields.String(attribute="reg_exp_tip")
    mergeGroup = Integer(attribute="merge_group")


class ParamDefinitionQuerySchema(PageQuerySchema):
    deviceTypeId = Integer(required=True)
    keyword = ma.fields.String(load_default=None, validate=validate.Length(max=40))
    paramType = ma.fields.String(load_default=None, validate=validate.OneOf(PARAM_TYPES))


class ParamGroupSchema(Schema):
    """Parameters to merge into one group, or to separate again."""

    paramIds = ma.fields.List(Integer(), required=True, validate=ItemCount(min=1, max=50))
