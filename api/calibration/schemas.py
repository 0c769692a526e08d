"""Schemas of the calibration service (business-domain section 7; console-shell section 3:
a calibration application carries calibrationStatus and applicationId)."""

from __future__ import annotations

import marshmallow as ma
from flask_babel import gettext, lazy_gettext
from marshmallow import validate

from api.calibration import states
from api.calibration.models import QuickOrderStatus, ServiceLevel
from api.extensions.crud import record_id
from api.extensions.i18n import N_
from api.extensions.integers import Integer
from api.extensions.smorest import LocalDateTime, PageQuerySchema, Schema
from api.extensions.validation_messages import ItemCount

LEVELS = [level.value for level in ServiceLevel]
PAYMENT_EVENTS = ["paid", "extra", "refunded", "refund_by_lab"]
NOT_EMPTY = N_("The calibration item list must not be empty.")


def status_name(status: int) -> str:
    return gettext(states.STATUS_NAMES.get(status, "?"))


def _status_name_of(obj) -> str:
    return status_name(obj["status"] if isinstance(obj, dict) else obj.status)


class PriceSchema(Schema):
    level = ma.fields.String(metadata={"enum": LEVELS})
    basePrice = Integer(metadata={"description": "cents per instrument, covering includedPoints"})
    includedPoints = Integer()
    pointPrice = Integer(metadata={"description": "cents per extra point"})
    currency = ma.fields.String()
    days = Integer(metadata={"description": "working days at the lab"})


class InvoiceSchema(Schema):
    title = ma.fields.String(required=True, validate=validate.Length(min=1, max=100))
    taxNo = ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(max=30))
    email = ma.fields.Email(load_default=None, allow_none=True, validate=validate.Length(max=254))
    address = ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(max=200))


class ItemInputSchema(Schema):
    deviceModel = ma.fields.String(required=True, validate=validate.Length(min=1, max=50))
    serial = ma.fields.String(
        required=True, validate=validate.Length(min=1, max=50), metadata={"description": "serial number or GUID"}
    )
    quantity = Integer(load_default=1, validate=validate.Range(min=1, max=100))
    points = ma.fields.List(
        ma.fields.Float(allow_nan=False, validate=validate.Range(min=-273.15, max=1000)),
        required=True,
        validate=validate.Length(min=1, max=20),
        metadata={"description": "calibration points, in the unit"},
    )
    range = ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(max=50))
    unit = ma.fields.String(load_default="°C", validate=validate.OneOf(["°C", "%RH", "°F"]))
    level = ma.fields.String(load_default=ServiceLevel.STANDARD.value, validate=validate.OneOf(LEVELS))


class BaseInfoSchema(Schema):
    company = ma.fields.String(required=True, validate=validate.Length(min=1, max=100))
    contact = ma.fields.String(required=True, validate=validate.Length(min=1, max=50))
    phone = ma.fields.String(required=True, validate=validate.Length(min=3, max=30))
    email = ma.fields.Email(load_default=None, allow_none=True, validate=validate.Length(max=254))
    address = ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(max=200))
    remark = ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(max=500))


class ApplyInputSchema(BaseInfoSchema):
    # More than services.MAX_ITEMS is answered with the contact-customer-service suggestion.
    items = ma.fields.List(
        ma.fields.Nested(ItemInputSchema),
        required=True,
        validate=[validate.Length(min=1, error=lazy_gettext(NOT_EMPTY)), ItemCount(max=500)],
    )
    invoice = ma.fields.Nested(InvoiceSchema, load_default=None, allow_none=True)


class BaseInfoUpdateSchema(BaseInfoSchema):
    applicationId = record_id()


class InvoiceUpdateSchema(Schema):
    applicationId = record_id()
    invoice = ma.fields.Nested(InvoiceSchema, required=True)


class ResultSchema(Schema):
    resultId = Integer(attribute="id")
    pointNo = Integer(attribute="point_no")
    reference = ma.fields.Float()
    reading = ma.fields.Float()
    error = ma.fields.Float()
    uncertainty = ma.fields.Float()
    passed = ma.fields.Boolean()
    recordedAt = LocalDateTime(attribute="recorded_at")


class ItemSchema(Schema):
    itemId = Integer(attribute="id")
    deviceModel = ma.fields.String(attribute="device_model")
    serial = ma.fields.String()
    deviceId = Integer(attribute="device_id", allow_none=True)
    quantity = Integer()
    points = ma.fields.List(ma.fields.Float())
    range = ma.fields.String(attribute="range_text", allow_none=True)
    unit = ma.fields.String()
    level = ma.fields.String()
    price = Integer(metadata={"description": "cents"})


class HistorySchema(Schema):
    fromStatus = Integer(attribute="from_status", allow_none=True)
    toStatus = Integer(attribute="to_status")
    statusName = ma.fields.Function(lambda h: status_name(h.to_status))
    note = ma.fields.String(allow_none=True)
    payment = ma.fields.String(
        allow_none=True,
        metadata={
            "enum": PAYMENT_EVENTS,
            "description": "a payment event: paid, extra (paid again), refunded, "
            "refund_by_lab (a bank transfer the lab gives back)",
        },
    )
    payType = ma.fields.String(attribute="pay_type", allow_none=True)
    orderCode = ma.fields.String(attribute="order_code", allow_none=True)
    gmtCreate = LocalDateTime(attribute="created_at")


class ApplicationSchema(Schema):
    applicationId = Integer(attribute="id")
    orderNo = ma.fields.String(attribute="order_no")
    calibrationStatus = Integer(
        attribute="status", metadata={"description": "1-6 in progress (6 completed); above 6 cancelled"}
    )
    statusName = ma.fields.Function(_status_name_of)
    company = ma.fields.String()
    contact = ma.fields.String()
    phone = ma.fields.String()
    email = ma.fields.String(allow_none=True)
    address = ma.fields.String(allow_none=True)
    remark = ma.fields.String(allow_none=True)
    invoice = ma.fields.Dict(allow_none=True)
    totalPrice = Integer(attribute="total_price", metadata={"description": "cents"})
    currency = ma.fields.String()
    trackingCompany = ma.fields.String(attribute="tracking_company", allow_none=True)
    trackingNumber = ma.fields.String(attribute="tracking_number", allow_none=True)
    cancelRequested = ma.fields.Boolean(attribute="cancel_requested")
    cancelReason = ma.fields.String(attribute="cancel_reason", allow_none=True)
    cancelAnswer = ma.fields.String(attribute="cancel_answer", allow_none=True)
    calibratedAt = LocalDateTime(attribute="calibrated_at", allow_none=True)
    gmtCreate = LocalDateTime(attribute="created_at")
    items = ma.fields.List(ma.fields.Nested(ItemSchema))


class CertificateBriefSchema(Schema):
    itemId = Integer()
    certificateNumber = ma.fields.String()
    serial = ma.fields.String()
    url = ma.fields.String(metadata={"description": "public verification page (the QR code's link)"})


class ApplicationPaymentSchema(Schema):
    """The payment area's order paying an application (pay it with /api/payment/payment/*)."""

    applicationId = Integer()
    orderCode = ma.fields.String()
    payFee = Integer(metadata={"description": "cents, computed by the server"})
    currency = ma.fields.String()
    payStatus = ma.fields.String(metadata={"enum": ["unpaid", "paid", "refunded", "closed"]})
    payType = ma.fields.String(allow_none=True)
    payTime = LocalDateTime(allow_none=True)
    refundTime = LocalDateTime(allow_none=True)


class ApplicationDetailSchema(ApplicationSchema):
    payment = ma.fields.Nested(
        ApplicationPaymentSchema, allow_none=True, metadata={"description": "null: not paid online yet"}
    )
    history = ma.fields.List(ma.fields.Nested(HistorySchema))
    certificates = ma.fields.List(ma.fields.Nested(CertificateBriefSchema))
    hasReport = ma.fields.Boolean()
    owner = ma.fields.Boolean(metadata={"description": "the caller placed this order"})


class ApplicationQuerySchema(PageQuerySchema):
    status = Integer(load_default=None, allow_none=True, validate=validate.Range(min=1, max=8))
    orderNo = ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(max=32))
    keyword = ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(max=50))


class ApplicationIdSchema(Schema):
    applicationId = Integer(required=True)


class OrderDownloadSchema(ApplicationIdSchema):
    itemId = Integer(load_default=None, allow_none=True, metadata={"description": "one instrument only"})


class StatusInputSchema(Schema):
    applicationId = Integer(required=True)
    status = Integer(required=True, validate=validate.Range(min=1, max=8))
    note = ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(max=200))


class TrackingInputSchema(Schema):
    applicationId = Integer(required=True)
    trackingCompany = ma.fields.String(required=True, validate=validate.Length(min=1, max=50))
    trackingNumber = ma.fields.String(
        required=True, validate=[validate.Length(min=4, max=50), validate.Regexp(r"^[A-Za-z0-9-]+$")]
    )


class CancelApplySchema(Schema):
    applicationId = Integer(required=True)
    reason = ma.fields.String(required=True, validate=validate.Length(min=1, max=200))


class CancelCheckSchema(Schema):
    applicationId = Integer(required=True)
    approve = ma.fields.Boolean(required=True)
    answer = ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(max=200))


class ConfirmInputSchema(Schema):
    applicationId = Integer(required=True)
    validMonths = Integer(load_default=12, validate=validate.Range(min=1, max=60))
    note = ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(max=200))


class FileUploadSchema(Schema):
    file = ma.fields.Raw(
        required=True, metadata={"type": "string", "format": "binary", "description": "PDF, at most 10 MB"}
    )


class ApplicationFileQuerySchema(Schema):
    applicationId = Integer(required=True)


class ItemFileQuerySchema(Schema):
    itemId = Integer(required=True)


class UploadAnswerSchema(Schema):
    applicationId = Integer()
    itemId = Integer()
    fileName = ma.fields.String()
    size = Integer()
    certificateNumber = ma.fields.String(allow_none=True)


class ExplainItemSchema(Schema):
    itemId = Integer()
    deviceModel = ma.fields.String()
    serial = ma.fields.String()
    passed = ma.fields.Boolean(allow_none=True)
    points = Integer()
    maxError = ma.fields.Float(allow_none=True)
    maxUncertainty = ma.fields.Float(allow_none=True)
    explanation = ma.fields.String()


class ExplainSchema(Schema):
    items = ma.fields.List(ma.fields.Nested(ExplainItemSchema))
    statement = ma.fields.String()


class PointInputSchema(Schema):
    pointNo = Integer(required=True, validate=validate.Range(min=1, max=50))
    reference = ma.fields.Float(required=True, allow_nan=False, validate=validate.Range(min=-1000, max=1000))
    reading = ma.fields.Float(required=True, allow_nan=False, validate=validate.Range(min=-1000, max=1000))
    error = ma.fields.Float(
        load_default=None, allow_none=True, allow_nan=False, validate=validate.Range(min=-1000, max=1000)
    )
    uncertainty = ma.fields.Float(required=True, allow_nan=False, validate=validate.Range(min=0, max=100))
    passed = ma.fields.Boolean(required=True)


class ResultInsertSchema(Schema):
    itemId = Integer(required=True)
    results = ma.fields.List(ma.fields.Nested(PointInputSchema), required=True, validate=validate.Length(min=1, max=50))


class ResultUpdateSchema(PointInputSchema):
    resultId = record_id()
    pointNo = Integer(load_default=None, allow_none=True)


class ItemResultsSchema(Schema):
    item = ma.fields.Nested(ItemSchema)
    results = ma.fields.List(ma.fields.Nested(ResultSchema))


class VerifyQuerySchema(Schema):
    code = ma.fields.String(required=True, validate=validate.Length(min=8, max=32))


class VerificationSchema(Schema):
    certificateNumber = ma.fields.String()
    lab = ma.fields.String()
    customer = ma.fields.String()
    deviceModel = ma.fields.String()
    serial = ma.fields.String()
    issuedAt = LocalDateTime()
    nextDueAt = LocalDateTime()
    passed = ma.fields.Boolean()
    valid = ma.fields.Boolean(metadata={"description": "not cancelled and not past its due date"})
    sha256 = ma.fields.String(allow_none=True, metadata={"description": "hash of the certificate file"})


class DeviceQuerySchema(Schema):
    deviceId = Integer(required=True)


class DeviceCertificateSchema(Schema):
    certificateNumber = ma.fields.String()
    issuedAt = LocalDateTime()
    nextDueAt = LocalDateTime()
    passed = ma.fields.Boolean()
    overdue = ma.fields.Boolean()
    applicationId = Integer(allow_none=True)
    itemId = Integer(allow_none=True)
    verifyUrl = ma.fields.String()


class QuickOrderInputSchema(Schema):
    company = ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(max=100))
    contact = ma.fields.String(required=True, validate=validate.Length(min=1, max=50))
    phone = ma.fields.String(required=True, validate=validate.Length(min=3, max=30))
    deviceModel = ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(max=50))
    quantity = Integer(load_default=1, validate=validate.Range(min=1, max=10000))
    remark = ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(max=500))


class QuickOrderSchema(Schema):
    quickOrderId = Integer(attribute="id")
    orderNo = ma.fields.String(attribute="order_no")
    company = ma.fields.String(allow_none=True)
    contact = ma.fields.String()
    phone = ma.fields.String()
    deviceModel = ma.fields.String(attribute="device_model", allow_none=True)
    quantity = Integer()
    remark = ma.fields.String(allow_none=True)
    status = ma.fields.String()
    handleNote = ma.fields.String(attribute="handle_note", allow_none=True)
    gmtCreate = LocalDateTime(attribute="created_at")


class QuickOrderQuerySchema(PageQuerySchema):
    status = ma.fields.String(
        load_default=None, allow_none=True, validate=validate.OneOf([s.value for s in QuickOrderStatus])
    )
    keyword = ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(max=50))


class QuickOrderHandleSchema(Schema):
    quickOrderId = Integer(required=True)
    status = ma.fields.String(
        required=True, validate=validate.OneOf([QuickOrderStatus.HANDLED.value, QuickOrderStatus.CLOSED.value])
    )
    note = ma.fields.String(load_default=None, allow_none=True, validate=validate.Length(max=200))
