"""The payment calls with the spec's paths (GET /payment/payment/wechatPay, /aliPay, /aliAppPay,
/getOpenId; GET /payment/PayOrder/get and /confirmPay), the receipt (/PayOrder/receipt), the WeChat
OAuth address (/wechatAuthorize), PayPal's checkout, and the providers' notification endpoints
(public: their signatures are the credential)."""

from __future__ import annotations

from flask import jsonify, request
from flask.views import MethodView

from api.billing import notices, orders, payments, receipts
from api.billing.schemas_payments import (
    AliPayQuerySchema,
    AuthorizeSchema,
    ConfirmPayQuerySchema,
    OpenIdQuerySchema,
    OpenIdSchema,
    OrderCodeQuerySchema,
    PaymentSchema,
    PayOrderSchema,
    ReceiptSchema,
    WechatPayQuerySchema,
)
from api.extensions.ratelimit import limiter
from api.extensions.smorest import OPERATE, Blueprint, ErrorEnvelopeSchema

blp = Blueprint("payment", __name__, url_prefix="/api/payment", description="Paying orders")
PAY = "consumer.recharge.buy"
NOTIFY_LIMIT = "120 per minute"


def missing():
    return blp.alt_response(404, schema=ErrorEnvelopeSchema, description="Not an order of this account")


@blp.route("/payment/wechatPay")
class WechatPay(MethodView):
    @blp.requires(PAY, access=OPERATE)
    @blp.arguments(WechatPayQuerySchema, location="query")
    @blp.response(200, PaymentSchema)
    @missing()
    def get(self, args):
        """WeChat Pay: native (a QR code to scan), jsapi (in the messaging browser, with openId) or h5."""
        return payments.wechat_pay(args["orderCode"], args["tradeType"], args.get("openId"))


@blp.route("/payment/getOpenId")
class WechatOpenId(MethodView):
    @blp.requires(PAY, access=OPERATE)
    @blp.arguments(OpenIdQuerySchema, location="query")
    @blp.response(200, OpenIdSchema)
    def get(self, args):
        """The payer's open id from the messaging browser's OAuth code (for jsapi payments)."""
        return payments.wechat_open_id(args["code"])


@blp.route("/payment/wechatAuthorize")
class WechatAuthorize(MethodView):
    @blp.requires(PAY, access=OPERATE)
    @blp.arguments(OrderCodeQuerySchema, location="query")
    @blp.response(200, AuthorizeSchema)
    @missing()
    def get(self, args):
        """Where the messaging browser goes for the payer's OAuth code (then /getOpenId, then jsapi)."""
        return payments.wechat_authorize(args["orderCode"])


@blp.route("/payment/aliPay")
class AliPay(MethodView):
    @blp.requires(PAY, access=OPERATE)
    @blp.arguments(AliPayQuerySchema, location="query")
    @blp.response(200, PaymentSchema)
    @missing()
    def get(self, args):
        """Alipay: the signed URL of page pay (desktop) or wap pay (mobile browser)."""
        return payments.ali_pay(args["orderCode"], args["mode"])


@blp.route("/payment/aliAppPay")
class AliAppPay(MethodView):
    @blp.requires(PAY, access=OPERATE)
    @blp.arguments(OrderCodeQuerySchema, location="query")
    @blp.response(200, PaymentSchema)
    @missing()
    def get(self, args):
        """Alipay app pay: the signed order string for the mobile app."""
        return payments.ali_pay(args["orderCode"], "app")


@blp.route("/payment/payPal")
class PayPal(MethodView):
    @blp.requires(PAY, access=OPERATE)
    @blp.arguments(OrderCodeQuerySchema, location="query")
    @blp.response(200, PaymentSchema)
    @missing()
    def get(self, args):
        """PayPal checkout: the approval link; PayPal returns to /mobilePay/paypal/callback or /cancel."""
        return payments.paypal_checkout(args["orderCode"])


@blp.route("/PayOrder/get")
class PayOrderGet(MethodView):
    @blp.requires("consumer.recharge.query")
    @blp.arguments(OrderCodeQuerySchema, location="query")
    @blp.response(200, PayOrderSchema)
    @missing()
    def get(self, args):
        """One of the account's orders by its number (the pay pages poll it)."""
        return orders.my_order(code=args["orderCode"])


@blp.route("/PayOrder/receipt")
class PayOrderReceipt(MethodView):
    @blp.requires("consumer.recharge.query")
    @blp.arguments(OrderCodeQuerySchema, location="query")
    @blp.response(200, ReceiptSchema)
    @missing()
    def get(self, args):
        """The receipt of one of the account's orders: the order, seller, buyer and tax."""
        return receipts.receipt(args["orderCode"])


@blp.route("/PayOrder/confirmPay")
class PayOrderConfirm(MethodView):
    @blp.requires(PAY, access=OPERATE)
    @blp.arguments(ConfirmPayQuerySchema, location="query")
    @blp.response(200, PayOrderSchema)
    @missing()
    def get(self, args):
        """Ask the provider about the order now (and capture an approved PayPal checkout)."""
        return notices.confirm(args["orderCode"], args.get("token"))


# ---- notifications: answered in each provider's own format -----------------------------------------------

PLAIN_TEXT = {"text/plain": {"schema": {"type": "string"}}}
WECHAT_REFUSAL = {
    "application/json": {
        "schema": {
            "type": "object",
            "required": ["code", "message"],
            "properties": {"code": {"type": "string", "enum": ["FAIL"]}, "message": {"type": "string"}},
        }
    }
}


@blp.route("/notify/wechat")
class WechatNotify(MethodView):
    decorators = [limiter.limit(NOTIFY_LIMIT, methods=["POST"])]

    @blp.public("WeChat Pay's notifications: verified with the platform certificate, applied once")
    @blp.doc(
        responses={
            "204": {"description": "Accepted"},
            "401": {"description": "Not verified (WeChat Pay's own answer format)", "content": WECHAT_REFUSAL},
        }
    )
    def post(self):
        """WeChat Pay notification (HTTP 204 when accepted; WeChat retries anything else)."""
        if notices.on_wechat(request.headers, request.get_data()):
            return "", 204
        return jsonify({"code": "FAIL", "message": "verification failed"}), 401


@blp.route("/notify/alipay")
class AlipayNotify(MethodView):
    decorators = [limiter.limit(NOTIFY_LIMIT, methods=["POST"])]

    @blp.public("Alipay's asynchronous notifications: verified with Alipay's public key, applied once")
    @blp.doc(responses={"200": {"description": "'success' or 'failure' (Alipay's own format)", "content": PLAIN_TEXT}})
    def post(self):
        """Alipay notification (the body 'success' when accepted; Alipay retries anything else)."""
        accepted = notices.on_alipay(request.form.to_dict())
        return ("success" if accepted else "failure"), 200, {"Content-Type": "text/plain; charset=utf-8"}


@blp.route("/notify/paypal")
class PayPalNotify(MethodView):
    decorators = [limiter.limit(NOTIFY_LIMIT, methods=["POST"])]

    @blp.public("PayPal's webhooks: verified with PayPal's verify-webhook-signature call, applied once")
    @blp.doc(
        responses={
            "200": {"description": "Accepted", "content": PLAIN_TEXT},
            "400": {"description": "Not verified", "content": PLAIN_TEXT},
        }
    )
    def post(self):
        """PayPal webhook (HTTP 200 when accepted; PayPal retries anything else)."""
        event = request.get_json(silent=True)
        accepted = isinstance(event, dict) and notices.on_paypal(request.headers, event)
        return "", 200 if accepted else 400, {"Content-Type": "text/plain; charset=utf-8"}
