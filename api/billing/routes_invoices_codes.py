"""Billing calls for invoices, coupons, recharge cards and offline purchases."""

from __future__ import annotations

from flask.views import MethodView

from api.billing import cards, coupons, invoices, offline
from api.billing.schemas import OrderSchema
from api.billing.schemas_invoices_codes import (
    CardBatchSchema,
    CardRedeemSchema,
    CardSchema,
    CodePageQuerySchema,
    CouponBatchSchema,
    CouponSchema,
    InvoiceInfoInputSchema,
    InvoiceInfoSchema,
    InvoiceInfoUpdateSchema,
    InvoiceRequestInputSchema,
    InvoiceRequestPageQuerySchema,
    InvoiceRequestSchema,
    OfflineInputSchema,
    OfflinePageQuerySchema,
    OfflineSchema,
)
from api.extensions.db import utcnow
from api.extensions.smorest import OPERATE, Blueprint, ErrorEnvelopeSchema

blp = Blueprint("billing_extra", __name__, url_prefix="/api/billing", description="Invoices, coupons, cards")
INVOICE, CODES, OFFLINE, ORDERS = (
    "consumer.recharge.invoice",
    "operation.order.recharge",
    "operation.order.offlinebuy",
    "operation.order.list",
)


def missing():
    return blp.alt_response(404, schema=ErrorEnvelopeSchema, description="Not an object of this site or account")


# ---- invoices ---------------------------------------------------------------------------------------------


@blp.route("/InvoiceInfo/list")
class InvoiceInfoList(MethodView):
    @blp.requires(INVOICE)
    @blp.response(200, InvoiceInfoSchema(many=True))
    def get(self):
        """The account's invoice info (the default first)."""
        return invoices.infos()


@blp.route("/InvoiceInfo/insert")
class InvoiceInfoInsert(MethodView):
    @blp.requires(INVOICE)
    @blp.arguments(InvoiceInfoInputSchema)
    @blp.response(200, InvoiceInfoSchema)
    def post(self, args):
        """Add invoice info: personal ordinary or enterprise ordinary."""
        return invoices.save_info(args)


@blp.route("/InvoiceInfo/update")
class InvoiceInfoUpdate(MethodView):
    @blp.requires(INVOICE, invoiceInfo="id")
    @blp.arguments(InvoiceInfoUpdateSchema)
    @blp.response(200, InvoiceInfoSchema)
    @missing()
    def put(self, args):
        """Change invoice info."""
        return invoices.save_info(args)


@blp.route("/InvoiceInfo/delete/<int:info_id>")
class InvoiceInfoDelete(MethodView):
    @blp.requires(INVOICE, invoiceInfo="info_id")
    @blp.response(200)
    @missing()
    def delete(self, info_id: int):
        """Delete invoice info (requests keep their copy)."""
        invoices.delete_info(info_id)


@blp.route("/InvoiceRequest/insert")
class InvoiceRequestInsert(MethodView):
    @blp.requires(INVOICE, invoiceInfo="infoId")
    @blp.arguments(InvoiceRequestInputSchema)
    @blp.response(200, InvoiceRequestSchema)
    @missing()
    def post(self, args):
        """Ask for an invoice for paid orders ('no orders selected for invoicing' when none)."""
        return invoices.request_invoice(args)


@blp.route("/InvoiceRequest/page")
class InvoiceRequestPage(MethodView):
    @blp.requires(INVOICE)
    @blp.arguments(InvoiceRequestPageQuerySchema)
    @blp.response(200, InvoiceRequestSchema, page=True)
    def post(self, args):
        """The account's invoice requests."""
        return invoices.my_requests(args)


@blp.route("/InvoiceAdmin/page")
class InvoiceAdminPage(MethodView):
    @blp.requires(f"{ORDERS}.query")
    @blp.arguments(InvoiceRequestPageQuerySchema)
    @blp.response(200, InvoiceRequestSchema, page=True)
    def post(self, args):
        """Every invoice request of the site."""
        return invoices.all_requests(args)


@blp.route("/InvoiceAdmin/issue/<int:request_id>")
class InvoiceAdminIssue(MethodView):
    @blp.requires(f"{ORDERS}.edit")
    @blp.response(200, InvoiceRequestSchema)
    @missing()
    def put(self, request_id: int):
        """Mark an invoice request issued (its orders too)."""
        return invoices.issue(request_id)


# ---- coupons and recharge cards ----------------------------------------------------------------------------


@blp.route("/Coupon/generate")
class CouponGenerate(MethodView):
    @blp.requires(f"{CODES}.add")
    @blp.arguments(CouponBatchSchema)
    @blp.response(200, CouponSchema(many=True))
    def post(self, args):
        """Generate a batch of coupons (at most 999)."""
        return coupons.generate(args)


@blp.route("/Coupon/page")
class CouponPage(MethodView):
    @blp.requires(f"{CODES}.query")
    @blp.arguments(CodePageQuerySchema)
    @blp.response(200, CouponSchema, page=True)
    def post(self, args):
        """Coupons of the site, used or unused."""
        return coupons.page(args)


@blp.route("/RechargeCard/generate")
class CardGenerate(MethodView):
    @blp.requires(f"{CODES}.add")
    @blp.arguments(CardBatchSchema)
    @blp.response(200, CardSchema(many=True))
    @missing()
    def post(self, args):
        """Generate a batch of recharge cards for a package level and duration (at most 999)."""
        return cards.generate(args)


@blp.route("/RechargeCard/page")
class CardPage(MethodView):
    @blp.requires(f"{CODES}.query")
    @blp.arguments(CodePageQuerySchema)
    @blp.response(200, CardSchema, page=True)
    def post(self, args):
        """Recharge cards of the site, used or unused."""
        return cards.page(args)


@blp.route("/RechargeCard/redeem")
class CardRedeem(MethodView):
    @blp.requires("consumer.recharge.buy", access=OPERATE, device="deviceId")
    @blp.arguments(CardRedeemSchema)
    @blp.response(200, OrderSchema)
    @missing()
    def post(self, args):
        """Redeem a recharge card on a device: its service is extended at once (once per card)."""
        return cards.redeem(args["code"], args["deviceId"])


# ---- offline purchases ---------------------------------------------------------------------------------------


@blp.route("/OfflinePurchase/page")
class OfflinePage(MethodView):
    @blp.requires(f"{OFFLINE}.query")
    @blp.arguments(OfflinePageQuerySchema)
    @blp.response(200, OfflineSchema, page=True)
    def post(self, args):
        """Offline purchases: recharged, not recharged, recharge failed."""
        return offline.page(args)


@blp.route("/OfflinePurchase/insert")
class OfflineInsert(MethodView):
    @blp.requires(f"{OFFLINE}.add")
    @blp.arguments(OfflineInputSchema)
    @blp.response(200, OfflineSchema)
    @missing()
    def post(self, args):
        """Record service bought offline for a device GUID (applied now if the device is claimed)."""
        return offline.record(args, utcnow())


@blp.route("/OfflinePurchase/retry/<int:purchase_id>")
class OfflineRetry(MethodView):
    @blp.requires(f"{OFFLINE}.edit")
    @blp.response(200, OfflineSchema)
    @missing()
    def put(self, purchase_id: int):
        """Try a failed offline purchase again."""
        return offline.retry(purchase_id, utcnow())
