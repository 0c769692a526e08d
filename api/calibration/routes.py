"""Calibration service calls (business-domain section 7), exact paths under /api/calibration:
PriceConf/get/price, Application/* and ResultInfo/*, plus the public certificate verification the
QR code opens and a device's latest certificate (the device detail's link).

Who: customer calls need a signed-in account and, for one application, its owner (object kind
`calibration_application`); lab calls need `calibration.lab.query` / `calibration.lab.edit` (the site's
lab admins); shared reads (detail, results, PDFs, QR) answer the owner or a lab admin of the site.
"""

from __future__ import annotations

import io

from flask import send_file
from flask.views import MethodView

from api.calibration import certificates, payment, quick_orders, results, services
from api.calibration.schemas import (
    ApplicationDetailSchema,
    ApplicationFileQuerySchema,
    ApplicationIdSchema,
    ApplicationPaymentSchema,
    ApplicationQuerySchema,
    ApplicationSchema,
    ApplyInputSchema,
    BaseInfoUpdateSchema,
    CancelApplySchema,
    CancelCheckSchema,
    CertificateBriefSchema,
    ConfirmInputSchema,
    DeviceCertificateSchema,
    DeviceQuerySchema,
    ExplainSchema,
    FileUploadSchema,
    InvoiceSchema,
    InvoiceUpdateSchema,
    ItemFileQuerySchema,
    ItemResultsSchema,
    OrderDownloadSchema,
    PriceSchema,
    QuickOrderHandleSchema,
    QuickOrderInputSchema,
    QuickOrderQuerySchema,
    QuickOrderSchema,
    ResultInsertSchema,
    ResultSchema,
    ResultUpdateSchema,
    StatusInputSchema,
    TrackingInputSchema,
    UploadAnswerSchema,
    VerificationSchema,
    VerifyQuerySchema,
)
from api.extensions.ratelimit import limiter
from api.extensions.smorest import OPERATE, Blueprint, ErrorEnvelopeSchema

blp = Blueprint(
    "calibration",
    __name__,
    url_prefix="/api/calibration",
    description="Calibration service: orders, results, certificates",
)
LAB_QUERY, LAB_EDIT = "calibration.lab.query", "calibration.lab.edit"
APPLICATION = "calibration_application"
PUBLIC_LIMIT = "30 per minute"


def missing():
    return blp.alt_response(404, schema=ErrorEnvelopeSchema, description="Not an application this account sees")


def pdf_response(content: bytes, name: str):
    response = send_file(io.BytesIO(content), mimetype="application/pdf", as_attachment=True, download_name=name)
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response


@blp.route("/PriceConf/get/price")
class Price(MethodView):
    @blp.public("the price list is shown on the public calibration pages (home, form, preview)")
    @blp.response(200, PriceSchema(many=True))
    def get(self):
        """Prices per service level (cents): a base price covering some points, plus each extra point."""
        return services.prices()


@blp.route("/Application/apply")
class Apply(MethodView):
    @blp.requires(None)
    @blp.arguments(ApplyInputSchema)
    @blp.response(200, ApplicationSchema)
    def post(self, args):
        """Apply for a calibration: contact details and the instruments (at least one). Too many
        instruments: code 4001 and the suggestion to contact customer service."""
        return services.apply(args)


@blp.route("/Application/page/ApplicationOrder")
class MyOrders(MethodView):
    @blp.requires(None)
    @blp.arguments(ApplicationQuerySchema)
    @blp.response(200, ApplicationSchema, page=True)
    def post(self, args):
        """The caller's own applications (search by order number, filter by status)."""
        return services.customer_page(args)


@blp.route("/Application/page/allApplicationOrder")
class AllOrders(MethodView):
    @blp.requires(LAB_QUERY)
    @blp.arguments(ApplicationQuerySchema)
    @blp.response(200, ApplicationSchema, page=True)
    def post(self, args):
        """Lab: every application of the site."""
        return services.admin_page(args)


@blp.route("/Application/get/applicationInfo")
class Info(MethodView):
    @blp.requires(None)
    @blp.arguments(ApplicationIdSchema, location="query")
    @blp.response(200, ApplicationDetailSchema)
    @missing()
    def get(self, args):
        """One application with its items, status history, certificates and payment (the owner or the lab)."""
        return payment.detail(services.visible(args["applicationId"]))


@blp.route("/Application/applicationStatus")
class Status(MethodView):
    @blp.requires(LAB_EDIT)
    @blp.arguments(StatusInputSchema)
    @blp.response(200, ApplicationSchema)
    @missing()
    def put(self, args):
        """Lab: move an order (confirm a request paid by bank transfer, reject it, instruments received,
        calibration started) along the allowed transitions; any other move is refused (code 409). An order
        paid online is confirmed by its payment and cannot be confirmed again."""
        return payment.set_status(args)


@blp.route("/Application/payOrder")
class PayOrder(MethodView):
    @blp.requires(None, access=OPERATE, **{APPLICATION: "applicationId"})
    @blp.arguments(ApplicationIdSchema)
    @blp.response(200, ApplicationPaymentSchema)
    @missing()
    def post(self, args):
        """Customer: the payment area's order for a submitted application (its price, computed by the
        server; reused while unpaid). Pay it with GET /api/payment/payment/wechatPay | aliPay | payPal and
        follow it with /api/payment/PayOrder/get; the verified payment confirms the application."""
        return payment.pay_order(args["applicationId"])


@blp.route("/Application/trackingNumber")
class Tracking(MethodView):
    @blp.requires(None, access=OPERATE, **{APPLICATION: "applicationId"})
    @blp.arguments(TrackingInputSchema)
    @blp.response(200, ApplicationSchema)
    @missing()
    def put(self, args):
        """Customer: the instruments are shipped to the lab (carrier and tracking number)."""
        return services.tracking(args)


@blp.route("/Application/update/baseInfo")
class BaseInfo(MethodView):
    @blp.requires(None, access=OPERATE, **{APPLICATION: "applicationId"})
    @blp.arguments(BaseInfoUpdateSchema)
    @blp.response(200, ApplicationSchema)
    @missing()
    def put(self, args):
        """Customer: change the contact details (until the instruments reach the lab)."""
        return services.update_base(args)


@blp.route("/Application/update/invoice")
class Invoice(MethodView):
    @blp.requires(None, access=OPERATE, **{APPLICATION: "applicationId"})
    @blp.arguments(InvoiceUpdateSchema)
    @blp.response(200, ApplicationSchema)
    @missing()
    def put(self, args):
        """Customer: the invoice details of an order."""
        return services.update_invoice(args)


@blp.route("/Application/getUserInvoice")
class UserInvoice(MethodView):
    @blp.requires(None)
    @blp.response(200, InvoiceSchema)
    def get(self):
        """The invoice details of the caller's latest order that had some (to prefill the form); null if none."""
        return services.user_invoice()


@blp.route("/Application/cancel/apply")
class CancelApply(MethodView):
    @blp.requires(None, access=OPERATE, **{APPLICATION: "applicationId"})
    @blp.arguments(CancelApplySchema)
    @blp.response(200, ApplicationSchema)
    @missing()
    def post(self, args):
        """Customer: ask the lab to cancel (before the instruments reach the lab)."""
        return services.cancel_apply(args)


@blp.route("/Application/cancel/check")
class CancelCheck(MethodView):
    @blp.requires(LAB_EDIT)
    @blp.arguments(CancelCheckSchema)
    @blp.response(200, ApplicationSchema)
    @missing()
    def put(self, args):
        """Lab: approve (the order is cancelled, status 7) or refuse a cancellation request. Approved, a
        paid order's money goes back through its payment provider (a refusal there changes nothing, code
        3009); a bank transfer is recorded for the lab to give back."""
        return payment.cancel_check(args)


@blp.route("/Application/confirmCalibration")
class Confirm(MethodView):
    @blp.requires(LAB_EDIT)
    @blp.arguments(ConfirmInputSchema)
    @blp.response(200, ApplicationSchema)
    @missing()
    def put(self, args):
        """Lab: the calibration is done; every instrument gets a uniquely numbered certificate,
        generated as PDF from its results (or the imported certificate), due again after validMonths."""
        return certificates.confirm(args)


@blp.route("/Application/download/order")
class DownloadOrder(MethodView):
    @blp.requires(None)
    @blp.arguments(OrderDownloadSchema, location="query")
    @blp.file_response("application/pdf", description="The certificate PDF (Content-Disposition names it)")
    @missing()
    def get(self, args):
        """The order's certificate PDF (or one instrument's). A cancelled order (status above 6):
        refused with 'this order has been cancelled'."""
        content, name = certificates.order_pdf(args["applicationId"], args.get("itemId"))
        return pdf_response(content, name)


@blp.route("/Application/upload/report")
class UploadReport(MethodView):
    @blp.requires(LAB_EDIT)
    @blp.arguments(ApplicationFileQuerySchema, location="query")
    @blp.arguments(FileUploadSchema, location="files")
    @blp.response(200, UploadAnswerSchema)
    @blp.alt_response(413, schema=ErrorEnvelopeSchema, description="The file is too large (10 MB)")
    @blp.alt_response(415, schema=ErrorEnvelopeSchema, description="Not a PDF (checked by content)")
    @missing()
    def post(self, query, args):
        """Lab: upload the order's report (PDF, 10 MB)."""
        return certificates.upload_report(query, args["file"])


@blp.route("/Application/download/report")
class DownloadReport(MethodView):
    @blp.requires(None)
    @blp.arguments(ApplicationIdSchema, location="query")
    @blp.file_response("application/pdf", description="The report the lab uploaded")
    @missing()
    def get(self, args):
        """The lab's report of an order."""
        content, name = certificates.report_pdf(args["applicationId"])
        return pdf_response(content, name)


@blp.route("/Application/result/explain")
class Explain(MethodView):
    @blp.requires(None)
    @blp.arguments(ApplicationIdSchema, location="query")
    @blp.response(200, ExplainSchema)
    @missing()
    def get(self, args):
        """The results in words, per instrument, with the uncertainty statement."""
        return certificates.explain(args["applicationId"])


@blp.route("/Application/getQR")
class QR(MethodView):
    @blp.requires(None)
    @blp.arguments(ApplicationIdSchema, location="query")
    @blp.response(200, CertificateBriefSchema(many=True))
    @missing()
    def get(self, args):
        """The verification links of an order's certificates (what their QR codes open)."""
        return certificates.qr_codes(args["applicationId"])


@blp.route("/Application/applyQuickOrder")
class ApplyQuick(MethodView):
    @blp.requires(None)
    @blp.arguments(QuickOrderInputSchema)
    @blp.response(200, QuickOrderSchema)
    def post(self, args):
        """A quick order: contact details and what to calibrate; the lab calls back."""
        return quick_orders.apply_quick(args)


@blp.route("/Application/page/allQuickOrder")
class AllQuick(MethodView):
    @blp.requires(LAB_QUERY)
    @blp.arguments(QuickOrderQuerySchema)
    @blp.response(200, QuickOrderSchema, page=True)
    def post(self, args):
        """Lab: the site's quick orders."""
        return quick_orders.quick_page(args)


@blp.route("/Application/handleQuickOrder")
class HandleQuick(MethodView):
    @blp.requires(LAB_EDIT)
    @blp.arguments(QuickOrderHandleSchema)
    @blp.response(200, QuickOrderSchema)
    @missing()
    def put(self, args):
        """Lab: mark a quick order handled (the customer was contacted) or closed."""
        return quick_orders.handle_quick(args)


@blp.route("/ResultInfo/queryResultList")
class Results(MethodView):
    @blp.requires(None)
    @blp.arguments(ApplicationIdSchema, location="query")
    @blp.response(200, ItemResultsSchema(many=True))
    @missing()
    def get(self, args):
        """The recorded results of an order, per instrument and point."""
        return results.results_of(args["applicationId"])


@blp.route("/ResultInfo/insert")
class ResultInsert(MethodView):
    @blp.requires(LAB_EDIT)
    @blp.arguments(ResultInsertSchema)
    @blp.response(200, ItemResultsSchema)
    @missing()
    def post(self, args):
        """Lab: record results of an instrument per point (reference, reading, error (reading -
        reference when left out), expanded uncertainty, pass / fail). The first results start the calibration."""
        return results.insert_results(args)


@blp.route("/ResultInfo/update")
class ResultUpdate(MethodView):
    @blp.requires(LAB_EDIT)
    @blp.arguments(ResultUpdateSchema)
    @blp.response(200, ResultSchema)
    @missing()
    def put(self, args):
        """Lab: correct one point's result (until the certificate is issued)."""
        return results.update_result(args)


@blp.route("/ResultInfo/importCert")
class ImportCert(MethodView):
    @blp.requires(LAB_EDIT)
    @blp.arguments(ItemFileQuerySchema, location="query")
    @blp.arguments(FileUploadSchema, location="files")
    @blp.response(200, UploadAnswerSchema)
    @blp.alt_response(413, schema=ErrorEnvelopeSchema, description="The file is too large (10 MB)")
    @blp.alt_response(415, schema=ErrorEnvelopeSchema, description="Not a PDF (checked by content)")
    @missing()
    def post(self, query, args):
        """Lab: import an instrument's certificate PDF (stands in for its results, or replaces the
        generated certificate once issued)."""
        return certificates.import_cert(query, args["file"])


@blp.route("/Certificate/verify")
class Verify(MethodView):
    decorators = [limiter.limit(PUBLIC_LIMIT, methods=["GET"])]

    @blp.public("the verification link printed as a QR code on a certificate: the unguessable code is the credential")
    @blp.arguments(VerifyQuerySchema, location="query")
    @blp.response(200, VerificationSchema)
    @missing()
    def get(self, args):
        """Public: confirm a certificate (number, lab, instrument, dates, result, still valid)."""
        return certificates.verify(args["code"])


@blp.route("/Certificate/device")
class DeviceCertificate(MethodView):
    @blp.requires("device.list.query", device="deviceId")
    @blp.arguments(DeviceQuerySchema, location="query")
    @blp.response(200, DeviceCertificateSchema)
    @missing()
    def get(self, args):
        """A device's latest calibration certificate and next due date (null when it has none)."""
        return certificates.device_certificate(args["deviceId"])
