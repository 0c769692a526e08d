"""Input and output of the catalogue, orders and payment calls (amounts in integer cents)."""

from __future__ import annotations

import marshmallow as ma
from flask_babel import gettext, lazy_gettext
from marshmallow import validate

from api.billing import settlements
from api.billing.currencies import CURRENCIES
from api.billing.models import PackKind, PayStatus, PayType
from api.extensions import outbound
from api.extensions.crud import record_id
from api.extensions.i18n import N_
from api.extensions.integers import Integer
from api.extensions.smorest import LocalDateTime, PageQuerySchema, Schema

MAX_ORDER_DEVICES = 50  # past this, 'The number of products exceeds the limit'
MAX_FEE = 100_000_000  # one million in cents: a typo, not a price
ORDER_CODE = validate.Regexp(r"^[A-Z0-9]{6,20}$", error=lazy_gettext(N_("Not a valid order number.")))


def _cents(**kwargs):
    return Integer(
        strict=True, validate=validate.Range(min=0, max=MAX_FEE), metadata={"description": "cents"}, **kwargs
    )


def _percent(**kwargs):
    return Integer(
        strict=True, validate=validate.Range(min=0, max=100), metadata={"description": "percent off"}, **kwargs
    )


# ---- catalogue -------------------------------------------------------------------------------------------


class PriceRowSchema(Schema):
    """Business-domain section 5: duration, service fee, data fee and discount required per row."""

    months = Integer(required=True, validate=validate.Range(min=1, max=120))
    serviceFee = _cents(required=True)
    dataFee = _cents(required=True)
    discount = _percent(required=True)
    recommended = ma.fields.Boolean(load_default=False)


class FreeServiceSchema(Schema):
    timeLength = Integer(required=True, validate=validate.Range(min=1, max=3650), metadata={"description": "days"})
    smsCount = Integer(load_default=0, validate=validate.Range(min=0, max=100_000))
    voiceCount = Integer(load_default=0, validate=validate.Range(min=0, max=100_000))


class ServiceLevelSchema(Schema):
    levelId = Integer(load_default=None, allow_none=True)
    levelName = ma.fields.String(required=True, validate=validate.Length(min=1, max=20))
    serviceItems = ma.fields.List(ma.fields.String(validate=validate.Length(min=1, max=50)), load_default=list)
    prices = ma.fields.List(
        ma.fields.Nested(PriceRowSchema),
        required=True,
        validate=validate.Length(min=1, error=lazy_gettext(N_("Add at least one duration."))),
    )
    free = ma.fields.Nested(FreeServiceSchema, load_default=None, allow_none=True)


class PackageInputSchema(Schema):
    packageName = ma.fields.String(required=True, validate=validate.Length(min=1, max=20))
    packageCode = ma.fields.String(
        required=True, validate=validate.Regexp(r"^\d{8}$", error=lazy_gettext(N_("The package code is eight digits.")))
    )
    status = ma.fields.Boolean(load_default=False, metadata={"description": "on / off"})
    enableTime = ma.fields.AwareDateTime(load_default=None, allow_none=True)
    currency = ma.fields.String(load_default="CNY", validate=validate.OneOf(CURRENCIES))
    deviceTypeIds = ma.fields.List(Integer(), load_default=list, validate=validate.Length(max=100))
    levels = ma.fields.List(
        ma.fields.Nested(ServiceLevelSchema),
        required=True,
        validate=validate.Length(min=1, max=10, error=lazy_gettext(N_("Add at least one service level."))),
    )


class PackageUpdateSchema(PackageInputSchema):
    id = record_id()


class PackageSchema(Schema):
    id = Integer()
    packageName = ma.fields.String(attribute="package_name")
    packageCode = ma.fields.String(attribute="package_code")
    status = ma.fields.Boolean(attribute="enabled")
    enableTime = LocalDateTime(attribute="enable_time", allow_none=True)
    currency = ma.fields.String()
    deviceTypeIds = ma.fields.List(Integer(), attribute="device_type_ids")
    levels = ma.fields.List(ma.fields.Dict())
    gmtCreate = LocalDateTime(attribute="created_at")


class PackageDeviceTypeSchema(Schema):
    id = Integer()
    typeName = ma.fields.String()
    typeCode = ma.fields.String(metadata={"description": "hexadecimal"})


class PackagePageQuerySchema(PageQuerySchema):
    packageName = ma.fields.String(load_default=None, validate=validate.Length(max=20))


class PackagesForDevicesQuerySchema(Schema):
    deviceIds = ma.fields.List(Integer(), required=True, validate=validate.Length(min=1))


class MessagePackInputSchema(Schema):
    kind = ma.fields.String(required=True, validate=validate.OneOf([k.value for k in PackKind]))
    name = ma.fields.String(required=True, validate=validate.Length(min=1, max=20))
    count = Integer(required=True, validate=validate.Range(min=1, max=100_000))
    fee = _cents(required=True)
    currency = ma.fields.String(load_default="CNY", validate=validate.OneOf(CURRENCIES))
    discount = _percent(load_default=0)


class MessagePackUpdateSchema(MessagePackInputSchema):
    id = record_id()


class MessagePackSchema(Schema):
    id = Integer()
    kind = ma.fields.String()
    name = ma.fields.String()
    count = Integer()
    fee = Integer()
    currency = ma.fields.String()
    discount = Integer()


class ActivityInputSchema(Schema):
    packageId = Integer(required=True)
    name = ma.fields.String(required=True, validate=validate.Length(min=1, max=20))
    startTime = ma.fields.AwareDateTime(required=True)
    endTime = ma.fields.AwareDateTime(required=True)
    discount = Integer(strict=True, required=True, validate=validate.Range(min=1, max=99))
    status = ma.fields.Boolean(load_default=True)
    directional = ma.fields.Boolean(load_default=False)
    accountIds = ma.fields.List(Integer(), load_default=list, validate=validate.Length(max=500))

    @ma.validates_schema
    def _window(self, data, **kwargs):
        if data["endTime"] <= data["startTime"]:
            raise ma.ValidationError(gettext("The end time must be after the start time."), "endTime")


class ActivityUpdateSchema(ActivityInputSchema):
    id = record_id()


class ActivitySchema(Schema):
    id = Integer()
    packageId = Integer(attribute="package_id")
    name = ma.fields.String()
    startTime = LocalDateTime(attribute="starts_at")
    endTime = LocalDateTime(attribute="ends_at")
    discount = Integer()
    status = ma.fields.Boolean(attribute="enabled")
    directional = ma.fields.Boolean()
    accountIds = ma.fields.List(Integer(), attribute="account_ids")


# Merchant settings naming an address the api connects to (a sandbox or a local fake instead of the
# provider's production host): checked when saved and when used (api/extensions/outbound.py).
GATEWAY_KEYS = ("gateway", "oauthGateway")
# Addresses the payer's browser is sent to (WeChat's OAuth page, the site it comes back to): web
# addresses only, never javascript: or data:.
BROWSER_KEYS = ("authorizeGateway", "returnBase", "returnUrl")
BROWSER_URL = validate.URL(schemes={"http", "https"}, require_tld=False)


class MerchantInputSchema(Schema):
    """Keys and certificates of a merchant account: write-only (never served back)."""

    provider = ma.fields.String(required=True, validate=validate.OneOf(["wechat", "alipay", "paypal"]))
    enabled = ma.fields.Boolean(load_default=True)
    config = ma.fields.Dict(keys=ma.fields.String(), values=ma.fields.String(validate=validate.Length(max=8000)))

    @ma.validates_schema
    def _gateways(self, data, **kwargs):
        """The provider's addresses the api connects to: public HTTPS unless an operator lists them."""
        for key in GATEWAY_KEYS:
            try:
                outbound.validate_url((data.get("config") or {}).get(key))
            except ma.ValidationError as error:
                raise ma.ValidationError(error.messages, f"config.{key}") from None
        for key in BROWSER_KEYS:
            value = (data.get("config") or {}).get(key)
            if value:
                try:
                    BROWSER_URL(value)
                except ma.ValidationError as error:
                    raise ma.ValidationError(error.messages, f"config.{key}") from None


class MerchantSchema(Schema):
    provider = ma.fields.String()
    enabled = ma.fields.Boolean()
    configured = ma.fields.List(ma.fields.String(), metadata={"description": "names of the settings present"})


# ---- orders ----------------------------------------------------------------------------------------------


class OrderInputSchema(Schema):
    deviceIds = ma.fields.List(Integer(), required=True, validate=validate.Length(min=1))
    packageId = Integer(load_default=None, allow_none=True)
    levelId = Integer(load_default=None, allow_none=True)
    months = Integer(load_default=None, allow_none=True, validate=validate.Range(min=1, max=120))
    free = ma.fields.Boolean(load_default=False, metadata={"description": "the level's free service"})
    smsPackId = Integer(load_default=None, allow_none=True)
    voicePackId = Integer(load_default=None, allow_none=True)
    activityId = Integer(load_default=None, allow_none=True)
    couponCode = ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(max=32))
    applyFlag = ma.fields.Boolean(load_default=False, metadata={"description": "an invoice is wanted"})
    description = ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(max=200))


class QuoteSchema(Schema):
    orderFee = Integer(attribute="order_fee")
    payFee = Integer(attribute="pay_fee")
    currency = ma.fields.String()
    lines = ma.fields.List(ma.fields.Dict())


class OrderDeviceSchema(Schema):
    deviceId = Integer(attribute="device_id")
    deviceGuid = ma.fields.String(attribute="guid")
    expiresBefore = LocalDateTime(attribute="expires_before", allow_none=True)
    expiresAfter = LocalDateTime(attribute="expires_after", allow_none=True)


class OrderSchema(Schema):
    id = Integer()
    orderCode = ma.fields.String(attribute="order_code")
    packageName = ma.fields.String(attribute="package_name", allow_none=True)
    levelName = ma.fields.String(attribute="level_name", allow_none=True)
    months = Integer()
    freeDays = Integer(attribute="free_days")
    smsCount = Integer(attribute="sms_count")
    voiceCount = Integer(attribute="voice_count")
    currency = ma.fields.String()
    orderFee = Integer(attribute="order_fee")
    payFee = Integer(attribute="pay_fee")
    lines = ma.fields.List(ma.fields.Dict())
    payStatus = ma.fields.String(attribute="pay_status")
    payType = ma.fields.String(attribute="pay_type", allow_none=True)
    applyFlag = ma.fields.Boolean(attribute="apply_flag")
    invoiceStatus = ma.fields.String(attribute="invoice_status")
    gmtCreate = LocalDateTime(attribute="created_at")
    payTime = LocalDateTime(attribute="pay_time", allow_none=True)
    refundTime = LocalDateTime(attribute="refund_time", allow_none=True)
    description = ma.fields.String(allow_none=True)
    devices = ma.fields.List(ma.fields.Nested(OrderDeviceSchema))
    purpose = ma.fields.String(metadata={"description": "what the order pays for: service, calibration"})
    subjectId = Integer(
        attribute="subject_id", allow_none=True, metadata={"description": "the purpose's object (an application id)"}
    )
    returnPath = ma.fields.Function(
        settlements.return_path, metadata={"description": "the page the payer goes back to after paying"}
    )


class OperatorOrderSchema(OrderSchema):
    accountId = Integer(attribute="owner_account_id")
    transactionId = ma.fields.String(attribute="transaction_id", allow_none=True)
    refundId = ma.fields.String(
        attribute="refund_id", allow_none=True, metadata={"description": "the provider's refund"}
    )
    reversed = ma.fields.List(
        ma.fields.Dict(),
        attribute="reversed_items",
        allow_none=True,
        metadata={
            "description": "what the refund took back per device: deviceId, guid, months, days, sms, voice "
            "(taken back), smsUsed, voiceUsed (already used: not taken back), expiresBefore, expiresAfter"
        },
    )


class OrderPageQuerySchema(PageQuerySchema):
    orderCode = ma.fields.String(load_default=None, validate=validate.Length(max=20))
    payStatus = ma.fields.String(load_default=None, validate=validate.OneOf([s.value for s in PayStatus]))
    payType = ma.fields.String(load_default=None, validate=validate.OneOf([t.value for t in PayType]))
    startTime = ma.fields.AwareDateTime(load_default=None)
    endTime = ma.fields.AwareDateTime(load_default=None)


class OrderReportQuerySchema(Schema):
    startTime = ma.fields.AwareDateTime(required=True)
    endTime = ma.fields.AwareDateTime(required=True)


class OrderReportSchema(Schema):
    total = Integer(metadata={"description": "cents"})
    orders = Integer()
    byDay = ma.fields.List(ma.fields.Dict())
    byPackage = ma.fields.List(ma.fields.Dict())
    byPayType = ma.fields.List(ma.fields.Dict())


class OrderRefundSchema(Schema):
    id = Integer(required=True)
    reason = ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(max=200))


class OrderConfirmOfflineSchema(Schema):
    id = Integer(required=True)
    reference = ma.fields.String(required=True, validate=validate.Length(min=1, max=64))
