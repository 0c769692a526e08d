"""Input and output of invoices, coupons, recharge cards and offline purchases."""

from __future__ import annotations

import marshmallow as ma
from flask_babel import gettext, lazy_gettext
from marshmallow import validate

from api.billing.models import BillMode, InvoiceStatus, OfflineState
from api.billing.schemas import MAX_FEE
from api.extensions.crud import record_id
from api.extensions.i18n import N_
from api.extensions.integers import Integer
from api.extensions.smorest import LocalDateTime, PageQuerySchema, Schema

PREFIX = validate.Regexp(r"^[A-Z0-9]{1,8}$", error=lazy_gettext(N_("The prefix is 1-8 capital letters or digits.")))
MAX_BATCH = 999


def _opt(max_length: int):
    return ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(max=max_length))


class InvoiceInfoInputSchema(Schema):
    """Business-domain section 5: name 20, company 50, tax number 20, personal name 30, address 50,
    bank 50, receiver 30."""

    billMode = ma.fields.String(required=True, validate=validate.OneOf([m.value for m in BillMode]))
    billName = ma.fields.String(required=True, validate=validate.Length(min=1, max=20))
    companyName = _opt(50)
    taxNumber = ma.fields.String(
        load_default=None,
        allow_none=True,
        validate=validate.Regexp(r"^[0-9A-Z]{1,20}$", error=lazy_gettext(N_("Not a valid tax number."))),
    )
    personalName = _opt(30)
    address = _opt(50)
    bankDeposit = _opt(50)
    receiver = _opt(30)
    isDefault = ma.fields.Boolean(load_default=False)

    @ma.validates_schema
    def _by_mode(self, data, **kwargs):
        if data["billMode"] == BillMode.ENTERPRISE:
            for field in ("companyName", "taxNumber"):
                if not data.get(field):
                    raise ma.ValidationError(gettext("Required for an enterprise invoice."), field)
        elif not data.get("personalName"):
            raise ma.ValidationError(gettext("Required for a personal invoice."), "personalName")


class InvoiceInfoUpdateSchema(InvoiceInfoInputSchema):
    id = record_id()


class InvoiceInfoSchema(Schema):
    id = Integer()
    billMode = ma.fields.String(attribute="bill_mode")
    billName = ma.fields.String(attribute="bill_name")
    companyName = ma.fields.String(attribute="company_name", allow_none=True)
    taxNumber = ma.fields.String(attribute="tax_number", allow_none=True)
    personalName = ma.fields.String(attribute="personal_name", allow_none=True)
    address = ma.fields.String(allow_none=True)
    bankDeposit = ma.fields.String(attribute="bank_deposit", allow_none=True)
    receiver = ma.fields.String(allow_none=True)
    isDefault = ma.fields.Boolean(attribute="is_default")


class InvoiceRequestInputSchema(Schema):
    infoId = Integer(required=True)
    orderIds = ma.fields.List(Integer(), required=True, validate=validate.Length(max=200))


class InvoiceRequestSchema(Schema):
    id = Integer()
    info = ma.fields.Dict()
    orderIds = ma.fields.List(Integer(), attribute="order_ids")
    amount = Integer(metadata={"description": "cents"})
    status = ma.fields.String()
    gmtCreate = LocalDateTime(attribute="created_at")
    issuedTime = LocalDateTime(attribute="issued_at", allow_none=True)


class InvoiceRequestPageQuerySchema(PageQuerySchema):
    status = ma.fields.String(load_default=None, validate=validate.OneOf([s.value for s in InvoiceStatus]))


class CouponBatchSchema(Schema):
    prefix = ma.fields.String(required=True, validate=PREFIX)
    fee = Integer(strict=True, required=True, validate=validate.Range(min=1, max=MAX_FEE))
    count = Integer(required=True, validate=validate.Range(min=1, max=MAX_BATCH))
    validFrom = ma.fields.AwareDateTime(required=True)
    validTo = ma.fields.AwareDateTime(required=True)
    remark = _opt(200)

    @ma.validates_schema
    def _window(self, data, **kwargs):
        if data["validTo"] <= data["validFrom"]:
            raise ma.ValidationError(gettext("The end time must be after the start time."), "validTo")


class CouponSchema(Schema):
    id = Integer()
    prefix = ma.fields.String()
    code = ma.fields.String()
    fee = Integer()
    validFrom = LocalDateTime(attribute="valid_from")
    validTo = LocalDateTime(attribute="valid_to")
    remark = ma.fields.String(allow_none=True)
    used = ma.fields.Function(lambda c: c.used_at is not None)
    usedTime = LocalDateTime(attribute="used_at", allow_none=True)


class CodePageQuerySchema(PageQuerySchema):
    prefix = ma.fields.String(load_default=None, validate=PREFIX)
    used = ma.fields.Boolean(load_default=None, allow_none=True)


class CardBatchSchema(Schema):
    prefix = ma.fields.String(required=True, validate=PREFIX)
    packageId = Integer(required=True)
    levelId = Integer(required=True)
    months = Integer(required=True, validate=validate.Range(min=1, max=120))
    count = Integer(required=True, validate=validate.Range(min=1, max=MAX_BATCH))
    validTo = ma.fields.AwareDateTime(required=True)
    remark = _opt(200)


class CardSchema(Schema):
    id = Integer()
    prefix = ma.fields.String()
    code = ma.fields.String()
    packageId = Integer(attribute="package_id")
    levelId = Integer(attribute="level_id")
    months = Integer()
    validTo = LocalDateTime(attribute="valid_to")
    remark = ma.fields.String(allow_none=True)
    used = ma.fields.Function(lambda c: c.used_at is not None)
    usedTime = LocalDateTime(attribute="used_at", allow_none=True)


class CardRedeemSchema(Schema):
    code = ma.fields.String(required=True, validate=validate.Length(min=2, max=32))
    deviceId = Integer(required=True)


class OfflineInputSchema(Schema):
    deviceGuid = ma.fields.String(required=True, validate=validate.Regexp(r"^\d{1,20}$"))
    packageId = Integer(required=True)
    levelId = Integer(required=True)
    months = Integer(required=True, validate=validate.Range(min=1, max=120))
    contract = _opt(50)


class OfflineSchema(Schema):
    id = Integer()
    deviceGuid = ma.fields.String(attribute="guid")
    packageId = Integer(attribute="package_id", allow_none=True)
    levelId = Integer(attribute="level_id")
    months = Integer()
    contract = ma.fields.String(allow_none=True)
    state = ma.fields.String()
    reason = ma.fields.String(allow_none=True)
    gmtCreate = LocalDateTime(attribute="created_at")


class OfflinePageQuerySchema(PageQuerySchema):
    state = ma.fields.String(load_default=None, validate=validate.OneOf([s.value for s in OfflineState]))
    guid = ma.fields.String(load_default=None, validate=validate.Length(max=20))
