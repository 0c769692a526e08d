from __future__ import annotations

import marshmallow as ma
from flask_babel import gettext
from marshmallow import validate

from api.extensions.crud import record_id
from api.extensions.integers import Integer
from api.extensions.smorest import LocalDateTime, PageQuerySchema, Schema
from api.extensions.validation_messages import ItemCount


class CustomItemSchema(Schema):
    key = ma.fields.String(required=True, validate=validate.Length(min=1, max=50))
    value = ma.fields.String(required=True, validate=validate.Length(max=200))


class AssetDeviceSchema(Schema):
    id = Integer()
    deviceName = ma.fields.String(attribute="name", allow_none=True)
    deviceGuid = ma.fields.String(attribute="guid")
    useFlag = ma.fields.Boolean(attribute="enabled")


class AssetSchema(Schema):
    id = Integer(attribute="asset.id")
    combName = ma.fields.String(attribute="asset.comb_name")
    combTypeName = ma.fields.String(attribute="asset.comb_type_name", allow_none=True)
    combNum = ma.fields.String(attribute="asset.comb_num", allow_none=True)
    brand = ma.fields.String(attribute="asset.brand", allow_none=True)
    model = ma.fields.String(attribute="asset.model", allow_none=True)
    volume = ma.fields.String(attribute="asset.volume", allow_none=True)
    remark = ma.fields.String(attribute="asset.remark", allow_none=True)
    organizationId = Integer(attribute="asset.organization_id", allow_none=True)
    custom = ma.fields.List(ma.fields.Nested(CustomItemSchema), attribute="asset.custom")
    enabled = ma.fields.Boolean(attribute="asset.enabled")
    devices = ma.fields.List(ma.fields.Nested(AssetDeviceSchema))
    gmtCreate = LocalDateTime(attribute="asset.created_at")


class AssetInputSchema(Schema):
    """Field limits of business-domain section 5."""

    combName = ma.fields.String(required=True, validate=validate.Length(min=1, max=100))
    combTypeName = ma.fields.String(load_default=None, validate=validate.Length(max=50))
    combNum = ma.fields.String(load_default=None, validate=validate.Length(max=50))
    brand = ma.fields.String(load_default=None, validate=validate.Length(max=50))
    model = ma.fields.String(load_default=None, validate=validate.Length(max=50))
    volume = ma.fields.String(load_default=None, validate=validate.Length(max=50))
    remark = ma.fields.String(load_default=None, validate=validate.Length(max=200))
    organizationId = Integer(load_default=None)
    custom = ma.fields.List(ma.fields.Nested(CustomItemSchema), load_default=list, validate=ItemCount(max=20))
    deviceIds = ma.fields.List(Integer(), load_default=list, validate=ItemCount(max=5))

    @ma.validates_schema
    def custom_keys_unique(self, data, **kwargs):
        keys = [item["key"] for item in data.get("custom") or []]
        if len(keys) != len(set(keys)):
            raise ma.ValidationError(gettext("Each custom item needs its own name."), "custom")


class AssetUpdateSchema(AssetInputSchema):
    id = record_id()


class AssetPageQuerySchema(PageQuerySchema):
    combName = ma.fields.String(load_default=None, validate=validate.Length(max=100))
    organizationId = Integer(load_default=None)
    enabled = ma.fields.Boolean(load_default=None)
