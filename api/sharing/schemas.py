from __future__ import annotations

import marshmallow as ma
from flask_babel import gettext
from marshmallow import validate

from api.extensions.crud import record_id
from api.extensions.integers import Integer
from api.extensions.smorest import LocalDateTime, PageQuerySchema, Schema
from api.extensions.validation_messages import ItemCount
from api.identity.validators import LowerEmail, Phone
from api.sharing.models import TransferStatus

EXPIRES = ("8h", "1d", "3d", "7d", "custom")


class TemplateItemSchema(Schema):
    permissionCode = ma.fields.String(required=True, validate=validate.Length(min=1, max=20))
    viewStatus = Integer(required=True, validate=validate.OneOf([0, 1]))
    setStatus = Integer(required=True, validate=validate.OneOf([-1, 0, 1]))


class TemplateSchema(Schema):
    id = Integer()
    name = ma.fields.String()
    items = ma.fields.List(ma.fields.Nested(TemplateItemSchema))
    gmtCreate = LocalDateTime(attribute="created_at")


class TemplateInputSchema(Schema):
    name = ma.fields.String(required=True, validate=validate.Length(min=1, max=10))  # template name max 10
    items = ma.fields.List(ma.fields.Nested(TemplateItemSchema), required=True, validate=ItemCount(max=100))


class TemplateUpdateSchema(TemplateInputSchema):
    id = record_id()


class TemplateCodeSchema(Schema):
    code = ma.fields.String()
    name = ma.fields.String()
    writable = ma.fields.Boolean()


class TemplateCodesSchema(Schema):
    params = ma.fields.List(ma.fields.Nested(TemplateCodeSchema))
    blocks = ma.fields.List(ma.fields.String())


class ExpiryMixin(Schema):
    expire = ma.fields.String(required=True, validate=validate.OneOf(EXPIRES))
    expireTime = ma.fields.AwareDateTime(load_default=None, metadata={"description": "with expire=custom"})


class RecipientMixin(Schema):
    userName = ma.fields.String(load_default=None, validate=validate.Length(min=1, max=254))
    phone = Phone(load_default=None)
    email = LowerEmail(load_default=None)

    @ma.validates_schema
    def one_recipient(self, data, **kwargs):
        given = [key for key in ("userName", "phone", "email") if data.get(key)]
        if len(given) != 1:
            raise ma.ValidationError(gettext("Enter a user name, a phone number or an email address."), "userName")


class ShareInputSchema(ExpiryMixin, RecipientMixin):
    deviceIds = ma.fields.List(Integer(), required=True, validate=ItemCount(min=1, max=200))
    sharerName = ma.fields.String(required=True, validate=validate.Length(min=2, max=20))
    templateId = Integer(required=True)


class ShareUpdateSchema(ExpiryMixin):
    id = record_id()
    sharerName = ma.fields.String(required=True, validate=validate.Length(min=2, max=20))
    templateId = Integer(required=True)


class ShareSchema(Schema):
    id = Integer(attribute="share.id")
    deviceId = Integer(attribute="device.id")
    deviceName = ma.fields.String(attribute="device.name", allow_none=True)
    deviceGuid = ma.fields.String(attribute="device.guid")
    sharerName = ma.fields.String(attribute="share.sharer_name")
    templateId = Integer(attribute="template.id")
    templateName = ma.fields.String(attribute="template.name")
    recipientName = ma.fields.Function(lambda row: row["recipient"].user_name if row["recipient"] else None)
    recipientPhone = ma.fields.String(attribute="share.recipient_phone", allow_none=True)
    recipientEmail = ma.fields.String(attribute="share.recipient_email", allow_none=True)
    expireTime = LocalDateTime(attribute="share.expires_at")
    expired = ma.fields.Boolean()
    gmtCreate = LocalDateTime(attribute="share.created_at")


class SharePlainSchema(Schema):
    id = Integer()
    deviceId = Integer(attribute="device_id")
    sharerName = ma.fields.String(attribute="sharer_name")
    templateId = Integer(attribute="template_id")
    expireTime = LocalDateTime(attribute="expires_at")


class SharePageQuerySchema(PageQuerySchema):
    keyword = ma.fields.String(load_default=None, validate=validate.Length(max=50))
    deviceId = Integer(load_default=None)


class TransferInputSchema(RecipientMixin):
    deviceId = Integer(required=True)


class TransferSchema(Schema):
    id = Integer(attribute="transfer.id")
    deviceId = Integer(attribute="device.id")
    deviceName = ma.fields.String(attribute="device.name", allow_none=True)
    deviceGuid = ma.fields.String(attribute="device.guid")
    fromName = ma.fields.String(allow_none=True)
    toName = ma.fields.String(allow_none=True)
    incoming = ma.fields.Boolean()
    status = ma.fields.Enum(TransferStatus, by_value=True, attribute="transfer.status")
    gmtCreate = LocalDateTime(attribute="transfer.created_at")
    decidedAt = LocalDateTime(attribute="transfer.decided_at", allow_none=True)


class TransferPlainSchema(Schema):
    id = Integer()
    deviceId = Integer(attribute="device_id")
    status = ma.fields.Enum(TransferStatus, by_value=True)


class TransferPageQuerySchema(PageQuerySchema):
    status = ma.fields.String(load_default=None, validate=validate.OneOf([s.value for s in TransferStatus]))
