"""The calibration service (business-domain section 7 "Calibration and payment"): the lab of a site,
its price configuration, customers' applications (orders) with their items, the status history,
quick orders, results per calibration point, certificates and the files the lab uploads.

Every amount is an integer number of cents. Status values are small integers (the spec: a status
above 6 means cancelled); the allowed moves between them are one table in api/calibration/states.py.
"""

from __future__ import annotations

import enum
from datetime import datetime

from sqlalchemy import JSON, Float, ForeignKey, Index, LargeBinary, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from api.extensions.db import Model, TimestampMixin, str_enum, utcnow
from api.tenancy import TenantOwned


class ServiceLevel(enum.StrEnum):
    STANDARD = "standard"  # about 7 working days at the lab
    EXPRESS = "express"  # about 3 working days
    ACCREDITED = "accredited"  # CNAS / ISO/IEC 17025 accredited certificate


class QuickOrderStatus(enum.StrEnum):
    PENDING = "pending"
    HANDLED = "handled"  # the lab contacted the customer (and may have entered an order)
    CLOSED = "closed"


class FileKind(enum.StrEnum):
    REPORT = "report"  # a report the lab uploads for the whole order
    CERTIFICATE = "certificate"  # a certificate PDF the lab imports for one item


class CalibrationLab(TenantOwned, TimestampMixin, Model):
    """The site's calibration lab: what its certificates print."""

    __tablename__ = "calibration_lab"
    __table_args__ = (UniqueConstraint("platform_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(100))
    address: Mapped[str | None] = mapped_column(String(200))
    accreditation: Mapped[str | None] = mapped_column(String(100))  # e.g. CNAS L12345
    phone: Mapped[str | None] = mapped_column(String(30))
    email: Mapped[str | None] = mapped_column(String(254))
    signatory: Mapped[str | None] = mapped_column(String(50))
    number_prefix: Mapped[str] = mapped_column(String(10), default="CAL")


class LabAdmin(TenantOwned, Model):
    """An account that administers the site's calibration lab (its own sign-in at /calibration/admin/login)."""

    __tablename__ = "calibration_lab_admin"
    __table_args__ = (UniqueConstraint("account_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("account.id", ondelete="CASCADE"))


class PriceConf(TenantOwned, TimestampMixin, Model):
    """Price of one instrument at a service level: a base price covering `included_points`, plus each extra point."""

    __tablename__ = "calibration_price_conf"
    __table_args__ = (UniqueConstraint("platform_id", "level"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    level: Mapped[ServiceLevel] = mapped_column(str_enum(ServiceLevel))
    base_price: Mapped[int] = mapped_column()
    included_points: Mapped[int] = mapped_column(default=3)
    point_price: Mapped[int] = mapped_column(default=0)
    currency: Mapped[str] = mapped_column(String(3), default="CNY")
    days: Mapped[int] = mapped_column(default=7)


class Application(TenantOwned, TimestampMixin, Model):
    """A customer's calibration application: an order once the lab confirms it."""

    __tablename__ = "calibration_application"
    __table_args__ = (Index("ix_calibration_application_owner", "owner_account_id", "status"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    owner_account_id: Mapped[int] = mapped_column(ForeignKey("account.id", ondelete="CASCADE"))
    order_no: Mapped[str] = mapped_column(String(32), unique=True)
    status: Mapped[int] = mapped_column(default=1)
    company: Mapped[str] = mapped_column(String(100))
    contact: Mapped[str] = mapped_column(String(50))
    phone: Mapped[str] = mapped_column(String(30))
    email: Mapped[str | None] = mapped_column(String(254))
    address: Mapped[str | None] = mapped_column(String(200))
    remark: Mapped[str | None] = mapped_column(String(500))
    invoice: Mapped[dict | None] = mapped_column(JSON)  # {title, taxNo, email, address}
    total_price: Mapped[int] = mapped_column(default=0)
    currency: Mapped[str] = mapped_column(String(3), default="CNY")
    tracking_company: Mapped[str | None] = mapped_column(String(50))
    tracking_number: Mapped[str | None] = mapped_column(String(50))
    cancel_requested: Mapped[bool] = mapped_column(default=False)
    cancel_reason: Mapped[str | None] = mapped_column(String(200))
    cancel_answer: Mapped[str | None] = mapped_column(String(200))
    calibrated_at: Mapped[datetime | None] = mapped_column()
    pdf: Mapped[bytes | None] = mapped_column(LargeBinary)  # every certificate of the order, one file

    items: Mapped[list[ApplicationItem]] = relationship(
        order_by="ApplicationItem.id", cascade="all, delete-orphan", back_populates="application"
    )
    history: Mapped[list[StatusHistory]] = relationship(
        order_by="StatusHistory.id", cascade="all, delete-orphan", back_populates="application"
    )


class ApplicationItem(Model):
    """One instrument to calibrate."""

    __tablename__ = "calibration_item"

    id: Mapped[int] = mapped_column(primary_key=True)
    application_id: Mapped[int] = mapped_column(ForeignKey("calibration_application.id", ondelete="CASCADE"))
    device_model: Mapped[str] = mapped_column(String(50))
    serial: Mapped[str] = mapped_column(String(50))  # serial number or device GUID
    device_id: Mapped[int | None] = mapped_column(ForeignKey("device.id", ondelete="SET NULL"), index=True)
    quantity: Mapped[int] = mapped_column(default=1)
    points: Mapped[list[float]] = mapped_column(JSON, default=list)
    range_text: Mapped[str | None] = mapped_column(String(50))
    unit: Mapped[str] = mapped_column(String(10), default="°C")
    level: Mapped[ServiceLevel] = mapped_column(str_enum(ServiceLevel), default=ServiceLevel.STANDARD)
    price: Mapped[int] = mapped_column(default=0)

    application: Mapped[Application] = relationship(back_populates="items")
    results: Mapped[list[ResultInfo]] = relationship(order_by="ResultInfo.point_no", cascade="all, delete-orphan")


class StatusHistory(Model):
    __tablename__ = "calibration_status_history"

    id: Mapped[int] = mapped_column(primary_key=True)
    application_id: Mapped[int] = mapped_column(
        ForeignKey("calibration_application.id", ondelete="CASCADE"), index=True
    )
    from_status: Mapped[int | None] = mapped_column()
    to_status: Mapped[int] = mapped_column()
    actor_account_id: Mapped[int | None] = mapped_column(ForeignKey("account.id", ondelete="SET NULL"))
    note: Mapped[str | None] = mapped_column(String(200))
    # A payment event (api/calibration/payment.py): paid, extra (paid again), refunded, refund_by_lab.
    payment: Mapped[str | None] = mapped_column(String(20))
    pay_type: Mapped[str | None] = mapped_column(String(20))
    order_code: Mapped[str | None] = mapped_column(String(20))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    application: Mapped[Application] = relationship(back_populates="history")


class ResultInfo(Model):
    """The measurement at one calibration point of one item."""

    __tablename__ = "calibration_result"
    __table_args__ = (UniqueConstraint("item_id", "point_no"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    item_id: Mapped[int] = mapped_column(ForeignKey("calibration_item.id", ondelete="CASCADE"), index=True)
    point_no: Mapped[int] = mapped_column()
    reference: Mapped[float] = mapped_column(Float)
    reading: Mapped[float] = mapped_column(Float)
    error: Mapped[float] = mapped_column(Float)
    uncertainty: Mapped[float] = mapped_column(Float)
    passed: Mapped[bool] = mapped_column()
    recorded_by: Mapped[int | None] = mapped_column(ForeignKey("account.id", ondelete="SET NULL"))
    recorded_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class Certificate(TenantOwned, Model):
    """The certificate of one item, numbered uniquely; `verify_code` is the public verification link's credential."""

    __tablename__ = "calibration_certificate"

    id: Mapped[int] = mapped_column(primary_key=True)
    application_id: Mapped[int] = mapped_column(
        ForeignKey("calibration_application.id", ondelete="CASCADE"), index=True
    )
    item_id: Mapped[int] = mapped_column(ForeignKey("calibration_item.id", ondelete="CASCADE"), unique=True)
    number: Mapped[str] = mapped_column(String(40), unique=True)
    verify_code: Mapped[str] = mapped_column(String(32), unique=True)
    issued_at: Mapped[datetime] = mapped_column(default=utcnow)
    next_due_at: Mapped[datetime] = mapped_column()
    passed: Mapped[bool] = mapped_column()
    imported: Mapped[bool] = mapped_column(default=False)
    pdf: Mapped[bytes | None] = mapped_column(LargeBinary)
    sha256: Mapped[str | None] = mapped_column(String(64))


class NumberCounter(TenantOwned, Model):
    """The last certificate number issued per site and year (taken under a row lock)."""

    __tablename__ = "calibration_number_counter"
    __table_args__ = (UniqueConstraint("platform_id", "year"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    year: Mapped[int] = mapped_column()
    last: Mapped[int] = mapped_column(default=0)


class LabFile(Model):
    """A PDF the lab uploaded: the order's report, or an imported certificate of one item."""

    __tablename__ = "calibration_file"

    id: Mapped[int] = mapped_column(primary_key=True)
    application_id: Mapped[int] = mapped_column(
        ForeignKey("calibration_application.id", ondelete="CASCADE"), index=True
    )
    kind: Mapped[FileKind] = mapped_column(str_enum(FileKind))
    file_name: Mapped[str] = mapped_column(String(100))
    content: Mapped[bytes] = mapped_column(LargeBinary)
    uploaded_by: Mapped[int | None] = mapped_column(ForeignKey("account.id", ondelete="SET NULL"))
    uploaded_at: Mapped[datetime] = mapped_column(default=utcnow)


class QuickOrder(TenantOwned, TimestampMixin, Model):
    """A quick order: the customer leaves contact details and what to calibrate; the lab calls back."""

    __tablename__ = "calibration_quick_order"

    id: Mapped[int] = mapped_column(primary_key=True)
    owner_account_id: Mapped[int] = mapped_column(ForeignKey("account.id", ondelete="CASCADE"), index=True)
    order_no: Mapped[str] = mapped_column(String(32), unique=True)
    company: Mapped[str | None] = mapped_column(String(100))
    contact: Mapped[str] = mapped_column(String(50))
    phone: Mapped[str] = mapped_column(String(30))
    device_model: Mapped[str | None] = mapped_column(String(50))
    quantity: Mapped[int] = mapped_column(default=1)
    remark: Mapped[str | None] = mapped_column(String(500))
    status: Mapped[QuickOrderStatus] = mapped_column(str_enum(QuickOrderStatus), default=QuickOrderStatus.PENDING)
    handle_note: Mapped[str | None] = mapped_column(String(200))
    handled_by: Mapped[int | None] = mapped_column(ForeignKey("account.id", ondelete="SET NULL"))


class ProbeCalibration(TenantOwned, Model):
    """A certificate of an outside lab the customer uploaded (issue 48), bound to probes of one of
    their devices. The platform's own lab's certificates are not copied here: they are read from
    `calibration_certificate` (the item's device, the probes of the item's unit; api/calibration/probes.py)."""

    __tablename__ = "calibration_probe_certificate"

    id: Mapped[int] = mapped_column(primary_key=True)
    device_id: Mapped[int] = mapped_column(ForeignKey("device.id", ondelete="CASCADE"), index=True)
    sensors: Mapped[list[int]] = mapped_column(JSON, default=list)  # the probes (sensor numbers) it covers
    number: Mapped[str] = mapped_column(String(40))
    issuer: Mapped[str] = mapped_column(String(100))
    calibrated_at: Mapped[datetime] = mapped_column()
    due_at: Mapped[datetime] = mapped_column()
    points: Mapped[list[dict]] = mapped_column(JSON, default=list)  # [{reference, measured, deviation}]
    passed: Mapped[bool] = mapped_column()
    file_name: Mapped[str | None] = mapped_column(String(100))
    content: Mapped[bytes | None] = mapped_column(LargeBinary)  # the certificate's PDF
    sha256: Mapped[str | None] = mapped_column(String(64))
    uploaded_by: Mapped[int | None] = mapped_column(ForeignKey("account.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class CalibrationReminder(Model):
    """A reminder sent (30, 7 or 1 days before a due date): one row per certificate and threshold, so
    the periodic job sends each once whatever how often it runs."""

    __tablename__ = "calibration_reminder"
    __table_args__ = (UniqueConstraint("cert_key", "days"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    cert_key: Mapped[str] = mapped_column(String(40))  # "lab-<certificate id>" or "probe-<record id>"
    days: Mapped[int] = mapped_column()
    sent_at: Mapped[datetime] = mapped_column(default=utcnow)
