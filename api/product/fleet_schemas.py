"""GUID batches and SIM cards (business-domain sections 3 and 5)."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import validate

from api.device.catalogue import catalogue_text
from api.extensions.crud import record_id
from api.extensions.integers import Integer
from api.extensions.smorest import LocalDateTime, PageQuerySchema, Schema
from api.extensions.validation_messages import not_blank
from api.product.models import SimRechargeState, SimUseState

GUID_BATCH_MAX = 999
FILE_FORMATS = ("csv", "xlsx")


class GuidBatchInputSchema(Schema):
    orderCode = ma.fields.String(required=True, validate=[validate.Length(min=1, max=20), not_blank])
    num = Integer(required=True, validate=validate.Range(min=1, max=GUID_BATCH_MAX))
    deviceTypeId = Integer(required=True)
    deviceTag = ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(max=50))
    domainId = Integer(required=True, metadata={"description": "the platform the GUIDs belong to"})


class GuidBatchSchema(Schema):
    id = Integer(attribute="batch.id")
    orderCode = ma.fields.String(attribute="batch.order_code")
    num = Integer(attribute="batch.num")
    deviceTypeId = Integer(attribute="batch.device_type_id")
    typeName = ma.fields.Function(lambda row: catalogue_text(row["type_name"]))
    deviceTag = ma.fields.String(attribute="batch.device_tag")
    domainId = Integer(attribute="batch.platform_id")
    domainName = ma.fields.String(attribute="platform_name")
    claimed = Integer(metadata={"description": "GUIDs of the batch added by a user"})
    exports = Integer(metadata={"description": "times the batch was downloaded"})
    gmtCreate = LocalDateTime(attribute="batch.created_at")


class GuidBatchQuerySchema(PageQuerySchema):
    orderCode = ma.fields.String(load_default=None, validate=validate.Length(max=20))
    deviceTypeId = Integer(load_default=None)


class GuidBatchGuidsQuerySchema(PageQuerySchema):
    batchId = Integer(required=True)


class GuidSchema(Schema):
    deviceGuid = ma.fields.String(attribute="guid")
    claimed = ma.fields.Function(lambda d: d.owner_account_id is not None)
    voided = ma.fields.Function(lambda d: d.voided_at is not None, metadata={"type": "boolean"})
    voidReason = ma.fields.String(attribute="void_reason", allow_none=True)
    voidedTime = LocalDateTime(attribute="voided_at", allow_none=True)


class GuidVoidSchema(Schema):
    guids = ma.fields.List(
        ma.fields.String(validate=validate.Regexp(r"^[0-9]{1,20}$")),
        required=True,
        validate=validate.Length(min=1, max=GUID_BATCH_MAX),
        metadata={"description": "unused GUIDs to void"},
    )
    reason = ma.fields.String(required=True, validate=[validate.Length(min=1, max=200), not_blank])


class GuidExportQuerySchema(Schema):
    format = ma.fields.String(load_default="csv", validate=validate.OneOf(FILE_FORMATS))


class GuidExportRecordSchema(Schema):
    id = Integer(attribute="export.id")
    batchId = Integer(attribute="export.batch_id")
    orderCode = ma.fields.String(attribute="order_code")
    num = Integer()
    fileFormat = ma.fields.String(attribute="export.file_format")
    userName = ma.fields.String(attribute="user_name", allow_none=True)
    gmtCreate = LocalDateTime(attribute="export.created_at")


class GuidExportPageSchema(PageQuerySchema):
    orderCode = ma.fields.String(load_default=None, validate=validate.Length(max=20))


class DomainSchema(Schema):
    id = Integer()
    name = ma.fields.String(attribute="enterprise_name")
    topDomain = ma.fields.String(attribute="top_domain")


# ---- SIM cards -------------------------------------------------------------------------------------------


class SimCardInputSchema(Schema):
    cardNum = ma.fields.String(required=True, validate=[validate.Length(min=1, max=15), validate.Regexp(r"^[0-9]+$")])
    iccId = ma.fields.String(
        required=True, validate=[validate.Length(min=1, max=30), validate.Regexp(r"^[0-9A-Za-z]+$")]
    )
    operator = ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(max=30))
    openTime = ma.fields.AwareDateTime(load_default=None, allow_none=True)
    activeTime = ma.fields.AwareDateTime(load_default=None, allow_none=True)
    expiredTime = ma.fields.AwareDateTime(load_default=None, allow_none=True)
    balance = Integer(load_default=0, validate=validate.Range(min=0), metadata={"description": "cents"})
    useState = ma.fields.String(load_default=SimUseState.UNUSED.value, validate=validate.OneOf(list(SimUseState)))
    rechargeState = ma.fields.String(
        load_default=SimRechargeState.NOT_RECHARGED.value, validate=validate.OneOf(list(SimRechargeState))
    )
    remark = ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(max=100))


class SimCardUpdateSchema(SimCardInputSchema):
    id = record_id()


class SimCardSchema(Schema):
    id = Integer()
    cardNum = ma.fields.String(attribute="card_num")
    iccId = ma.fields.String(attribute="icc_id")
    operator = ma.fields.String()
    openTime = LocalDateTime(attribute="open_time")
    activeTime = LocalDateTime(attribute="active_time")
    expiredTime = LocalDateTime(attribute="expired_time")
    balance = Integer()
    lastOnline = LocalDateTime(attribute="last_online")
    useState = ma.fields.Function(lambda s: s.use_state.value)
    rechargeState = ma.fields.Function(lambda s: s.recharge_state.value)
    remark = ma.fields.String()
    deviceId = Integer(attribute="device_id")
    deviceGuid = ma.fields.Function(lambda s: s.device.guid if s.device else None)


class SimCardQuerySchema(PageQuerySchema):
    keyword = ma.fields.String(load_default=None, validate=validate.Length(max=30))
    useState = ma.fields.String(load_default=None, validate=validate.OneOf(list(SimUseState)))


class SimBindSchema(Schema):
    id = Integer(required=True)
    deviceGuid = ma.fields.String(
        required=True,
        allow_none=True,
        validate=validate.Regexp(r"^[0-9]{1,20}$"),
        metadata={"description": "null unbinds"},
    )


class SimImportRowSchema(Schema):
    row = Integer()
    iccId = ma.fields.String(allow_none=True)
    ok = ma.fields.Boolean()
    message = ma.fields.String(allow_none=True)


class SimImportResultSchema(Schema):
    imported = Integer()
    rows = ma.fields.List(ma.fields.Nested(SimImportRowSchema))
