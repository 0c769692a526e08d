"""Billing calls of the operators (catalogue, merchants, all orders) and of users (prices, orders)."""

from __future__ import annotations

from flask.views import MethodView

from api.billing import catalogue, operator, orders, payments
from api.billing.schemas import (
    ActivityInputSchema,
    ActivitySchema,
    ActivityUpdateSchema,
    MerchantInputSchema,
    MerchantSchema,
    MessagePackInputSchema,
    MessagePackSchema,
    MessagePackUpdateSchema,
    OperatorOrderSchema,
    OrderConfirmOfflineSchema,
    OrderInputSchema,
    OrderPageQuerySchema,
    OrderRefundSchema,
    OrderReportQuerySchema,
    OrderReportSchema,
    OrderSchema,
    PackageDeviceTypeSchema,
    PackageInputSchema,
    PackagePageQuerySchema,
    PackageSchema,
    PackagesForDevicesQuerySchema,
    PackageUpdateSchema,
    QuoteSchema,
)
from api.extensions.smorest import OPERATE, Blueprint, ErrorEnvelopeSchema

blp = Blueprint("billing", __name__, url_prefix="/api/billing", description="Service packages, orders, invoices")
PACKAGE, ORDERS, RECHARGE = "operation.order.package", "operation.order.list", "consumer.recharge"


def missing():
    return blp.alt_response(404, schema=ErrorEnvelopeSchema, description="Not an object of this site or account")


# ---- catalogue (operators) ------------------------------------------------------------------------------


@blp.route("/ServicePackage/page")
class PackagePage(MethodView):
    @blp.requires(f"{PACKAGE}.query")
    @blp.arguments(PackagePageQuerySchema)
    @blp.response(200, PackageSchema, page=True)
    def post(self, args):
        """Service packages of the site."""
        return catalogue.package_page(args)


@blp.route("/ServicePackage/insert")
class PackageInsert(MethodView):
    @blp.requires(f"{PACKAGE}.add")
    @blp.arguments(PackageInputSchema)
    @blp.response(200, PackageSchema)
    def post(self, args):
        """Add a package: levels with service items, durations (service fee, data fee, discount), free service."""
        return catalogue.save_package(args)


@blp.route("/ServicePackage/update")
class PackageUpdate(MethodView):
    @blp.requires(f"{PACKAGE}.edit")
    @blp.arguments(PackageUpdateSchema)
    @blp.response(200, PackageSchema)
    @missing()
    def put(self, args):
        """Change a package (level ids stay, so orders and cards keep pointing at their level)."""
        return catalogue.save_package(args)


@blp.route("/ServicePackage/deviceTypes")
class PackageDeviceTypes(MethodView):
    @blp.requires(f"{PACKAGE}.query")
    @blp.response(200, PackageDeviceTypeSchema(many=True))
    def get(self):
        """The device models a package can be for."""
        return catalogue.device_types()


@blp.route("/ServicePackage/delete/<int:package_id>")
class PackageDelete(MethodView):
    @blp.requires(f"{PACKAGE}.delete")
    @blp.response(200)
    @missing()
    def delete(self, package_id: int):
        """Delete a package (orders keep its name)."""
        catalogue.delete_package(package_id)


@blp.route("/MessagePack/list")
class PackList(MethodView):
    @blp.requires(f"{RECHARGE}.query")
    @blp.response(200, MessagePackSchema(many=True))
    def get(self):
        """SMS and voice packages on sale (at most five of each)."""
        return catalogue.packs()


@blp.route("/MessagePack/insert")
class PackInsert(MethodView):
    @blp.requires(f"{PACKAGE}.add")
    @blp.arguments(MessagePackInputSchema)
    @blp.response(200, MessagePackSchema)
    def post(self, args):
        """Add an SMS or voice package."""
        return catalogue.save_pack(args)


@blp.route("/MessagePack/update")
class PackUpdate(MethodView):
    @blp.requires(f"{PACKAGE}.edit")
    @blp.arguments(MessagePackUpdateSchema)
    @blp.response(200, MessagePackSchema)
    @missing()
    def put(self, args):
        """Change an SMS or voice package."""
        return catalogue.save_pack(args)


@blp.route("/MessagePack/delete/<int:pack_id>")
class PackDelete(MethodView):
    @blp.requires(f"{PACKAGE}.delete")
    @blp.response(200)
    @missing()
    def delete(self, pack_id: int):
        """Delete an SMS or voice package."""
        catalogue.delete_pack(pack_id)


@blp.route("/Activity/list")
class ActivityList(MethodView):
    @blp.requires(f"{PACKAGE}.query")
    @blp.response(200, ActivitySchema(many=True))
    def get(self):
        """Activities of the site."""
        return catalogue.activities()


@blp.route("/Activity/insert")
class ActivityInsert(MethodView):
    @blp.requires(f"{PACKAGE}.add")
    @blp.arguments(ActivityInputSchema)
    @blp.response(200, ActivitySchema)
    def post(self, args):
        """Add an activity: public, or directional to chosen accounts."""
        return catalogue.save_activity(args)


@blp.route("/Activity/update")
class ActivityUpdate(MethodView):
    @blp.requires(f"{PACKAGE}.edit")
    @blp.arguments(ActivityUpdateSchema)
    @blp.response(200, ActivitySchema)
    @missing()
    def put(self, args):
        """Change an activity."""
        return catalogue.save_activity(args)


@blp.route("/Activity/delete/<int:activity_id>")
class ActivityDelete(MethodView):
    @blp.requires(f"{PACKAGE}.delete")
    @blp.response(200)
    @missing()
    def delete(self, activity_id: int):
        """Delete an activity."""
        catalogue.delete_activity(activity_id)


@blp.route("/PaymentMerchant/list")
class MerchantList(MethodView):
    @blp.requires(f"{PACKAGE}.query")
    @blp.response(200, MerchantSchema(many=True))
    def get(self):
        """The site's merchant accounts: which settings are present (never their values)."""
        return payments.merchants()


@blp.route("/PaymentMerchant/save")
class MerchantSave(MethodView):
    @blp.requires(f"{PACKAGE}.edit")
    @blp.arguments(MerchantInputSchema)
    @blp.response(200, MerchantSchema)
    def put(self, args):
        """Set a merchant account's keys and certificates (write-only; settings left out are kept)."""
        return payments.save_merchant(args)


# ---- buying (users) --------------------------------------------------------------------------------------


@blp.route("/ServicePackage/forDevices")
class PackagesForDevices(MethodView):
    @blp.requires(f"{RECHARGE}.query", device="deviceIds")
    @blp.arguments(PackagesForDevicesQuerySchema)
    @blp.response(200, PackageSchema(many=True))
    def post(self, args):
        """Packages on sale for these devices' models ('service package not configured' when none)."""
        return catalogue.packages_for_devices(orders.chosen_devices(args["deviceIds"]))


@blp.route("/Order/price")
class OrderPrice(MethodView):
    @blp.requires(f"{RECHARGE}.query", device="deviceIds")
    @blp.arguments(OrderInputSchema)
    @blp.response(200, QuoteSchema)
    def post(self, args):
        """The price in cents, computed by the server, of what an order with these choices would cost."""
        return orders.price(args)


@blp.route("/Order/insert")
class OrderInsert(MethodView):
    @blp.requires(f"{RECHARGE}.buy", access=OPERATE, device="deviceIds")
    @blp.arguments(OrderInputSchema)
    @blp.response(200, OrderSchema)
    def post(self, args):
        """Create an order (unpaid; paid at once when nothing is due)."""
        return orders.create(args)


@blp.route("/Order/page")
class OrderPage(MethodView):
    @blp.requires(f"{RECHARGE}.query")
    @blp.arguments(OrderPageQuerySchema)
    @blp.response(200, OrderSchema, page=True)
    def post(self, args):
        """The account's orders."""
        return orders.mine(args)


@blp.route("/Order/detail/<int:order_id>")
class OrderDetail(MethodView):
    @blp.requires(f"{RECHARGE}.query", order="order_id")
    @blp.response(200, OrderSchema)
    @missing()
    def get(self, order_id: int):
        """One of the account's orders."""
        return orders.my_order(order_id)


# ---- all orders (operators) -------------------------------------------------------------------------------


@blp.route("/OrderAdmin/page")
class AdminOrderPage(MethodView):
    @blp.requires(f"{ORDERS}.query")
    @blp.arguments(OrderPageQuerySchema)
    @blp.response(200, OperatorOrderSchema, page=True)
    def post(self, args):
        """Every order of the site, with filters."""
        return operator.page(args)


@blp.route("/OrderAdmin/report")
class AdminOrderReport(MethodView):
    @blp.requires(f"{ORDERS}.query")
    @blp.arguments(OrderReportQuerySchema, location="query")
    @blp.response(200, OrderReportSchema)
    def get(self, args):
        """The order data report: paid revenue by day, package and payment type (cents)."""
        return operator.report(args["startTime"], args["endTime"])


@blp.route("/OrderAdmin/export")
class AdminOrderExport(MethodView):
    @blp.requires(f"{ORDERS}.query")
    @blp.arguments(OrderPageQuerySchema, location="query")
    @blp.file_response("text/csv", description="The filtered orders as CSV")
    def get(self, args):
        """The filtered orders as CSV (amounts in cents and in units)."""
        return operator.export_csv(args)


@blp.route("/OrderAdmin/refund")
class AdminOrderRefund(MethodView):
    @blp.requires(f"{ORDERS}.edit")
    @blp.arguments(OrderRefundSchema)
    @blp.response(200, OperatorOrderSchema)
    @missing()
    def put(self, args):
        """Mark a paid order refunded and take back the service it added ('This order is non-refundable')."""
        return operator.refund(args["id"], args.get("reason"))


@blp.route("/OrderAdmin/confirmOffline")
class AdminOrderConfirmOffline(MethodView):
    @blp.requires(f"{ORDERS}.edit")
    @blp.arguments(OrderConfirmOfflineSchema)
    @blp.response(200, OperatorOrderSchema)
    @missing()
    def put(self, args):
        """Confirm an offline payment (bank transfer ...): the order is paid and applied
        ('This order cannot be processed manually' unless it is unpaid)."""
        return operator.confirm_offline(args["id"], args["reference"])
