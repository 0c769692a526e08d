"""Input and output of the payment calls (business-domain section 7: /payment/payment/*, /payment/PayOrder/*)."""

from __future__ import annotations

import marshmallow as ma
from marshmallow import validate

from api.billing.schemas import ORDER_CODE, OrderSchema
from api.extensions.integers import Integer
from api.extensions.smorest import Schema


class OrderCodeQuerySchema(Schema):
    orderCode = ma.fields.String(required=True, validate=ORDER_CODE)


class WechatPayQuerySchema(OrderCodeQuerySchema):
    tradeType = ma.fields.String(load_default="native", validate=validate.OneOf(["native", "jsapi", "h5"]))
    openId = ma.fields.String(load_default=None, validate=validate.Length(max=128))


class AliPayQuerySchema(OrderCodeQuerySchema):
    mode = ma.fields.String(load_default="page", validate=validate.OneOf(["page", "wap"]))


class ConfirmPayQuerySchema(OrderCodeQuerySchema):
    token = ma.fields.String(
        load_default=None, validate=validate.Length(max=64), metadata={"description": "PayPal's order id"}
    )


class OpenIdQuerySchema(Schema):
    code = ma.fields.String(required=True, validate=validate.Length(min=1, max=256))


class PaymentSchema(Schema):
    orderCode = ma.fields.String()
    payFee = Integer(metadata={"description": "cents"})
    codeUrl = ma.fields.String(allow_none=True, metadata={"description": "WeChat native: shown as a QR code"})
    h5Url = ma.fields.String(allow_none=True)
    jsapi = ma.fields.Dict(allow_none=True, metadata={"description": "WeixinJSBridge getBrandWCPayRequest"})
    payUrl = ma.fields.String(allow_none=True, metadata={"description": "Alipay page / wap"})
    orderString = ma.fields.String(allow_none=True, metadata={"description": "Alipay app"})
    approveUrl = ma.fields.String(allow_none=True, metadata={"description": "PayPal approval"})


class OpenIdSchema(Schema):
    openId = ma.fields.String()


class AuthorizeSchema(Schema):
    authorizeUrl = ma.fields.String(
        metadata={"description": "WeChat OAuth (snsapi_base): back to /mobilePay/pay with ?code="}
    )


class PayOrderSchema(OrderSchema):
    pass


class SellerSchema(Schema):
    name = ma.fields.String(metadata={"description": "the site's company"})
    address = ma.fields.String(allow_none=True)
    taxId = ma.fields.String(allow_none=True)


class BuyerSchema(Schema):
    name = ma.fields.String(metadata={"description": "the account's real name, else its user name"})
    company = ma.fields.String(allow_none=True)
    taxId = ma.fields.String(allow_none=True, metadata={"description": "from enterprise invoice details"})
    invoiceTitle = ma.fields.String(allow_none=True)


class ReceiptTaxSchema(Schema):
    included = ma.fields.Boolean(metadata={"description": "the amounts include tax (no rate is configured)"})
    currency = ma.fields.String()
    total = Integer(metadata={"description": "cents in the order's currency"})


class ReceiptSchema(Schema):
    order = ma.fields.Nested(PayOrderSchema)
    seller = ma.fields.Nested(SellerSchema)
    buyer = ma.fields.Nested(BuyerSchema)
    tax = ma.fields.Nested(ReceiptTaxSchema)
