"""Billing: the operator's catalogue (service packages, SMS / voice packs, activities), orders and
their payment notices, invoice info and requests, coupons, recharge cards and offline purchases.

Every amount is an integer number of cents; prices are computed by the server (api/billing/pricing.py).
"""

from __future__ import annotations

import enum
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, String, UniqueConstraint, text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from api.extensions.db import Model, TimestampMixin, str_enum, utcnow


class PayStatus(enum.StrEnum):
    UNPAID = "unpaid"
    PAID = "paid"
    REFUNDED = "refunded"
    CLOSED = "closed"  # never paid, closed after its payment window


class PayType(enum.StrEnum):
    """Business-domain section 9: WeChat, Alipay, PayPal, offline, app variants, official account, H5, wap."""

    WECHAT_NATIVE = "wechat_native"
    WECHAT_JSAPI = "wechat_jsapi"  # in the messaging browser (official account)
    WECHAT_H5 = "wechat_h5"
    WECHAT_APP = "wechat_app"
    ALIPAY_PAGE = "alipay_page"
    ALIPAY_WAP = "alipay_wap"
    ALIPAY_APP = "alipay_app"
    PAYPAL = "paypal"
    OFFLINE = "offline"
    FREE = "free"  # nothing to pay: free service, a coupon or a recharge card covering it all


class Provider(enum.StrEnum):
    WECHAT = "wechat"
    ALIPAY = "alipay"
    PAYPAL = "paypal"


class InvoiceStatus(enum.StrEnum):
    NONE = "none"
    REQUESTED = "requested"
    ISSUED = "issued"


class BillMode(enum.StrEnum):
    """Invoice types: personal ordinary, enterprise ordinary."""

    PERSONAL = "personal"
    ENTERPRISE = "enterprise"


class PackKind(enum.StrEnum):
    SMS = "sms"
    VOICE = "voice"


class OfflineState(enum.StrEnum):
    NOT_RECHARGED = "not_recharged"
    RECHARGED = "recharged"
    FAILED = "failed"


class ServicePackage(TimestampMixin, Model):
    """A service package of a site for some device models. `levels` is the ordered list of service
    levels: {levelId, levelName, serviceItems: [str], prices: [{months, serviceFee, dataFee, discount,
    recommended}], free: {timeLength (days), smsCount, voiceCount} | null} (fees in cents, discount in
    percent off)."""

    __tablename__ = "service_package"
    __table_args__ = (UniqueConstraint("platform_id", "package_code"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    platform_id: Mapped[int] = mapped_column(ForeignKey("platform.id", ondelete="CASCADE"), index=True)
    package_name: Mapped[str] = mapped_column(String(20))
    package_code: Mapped[str] = mapped_column(String(8))
    enabled: Mapped[bool] = mapped_column(default=False)
    enable_time: Mapped[datetime | None] = mapped_column()
    currency: Mapped[str] = mapped_column(String(3), default="CNY")
    device_type_ids: Mapped[list[int]] = mapped_column(JSON, default=list)
    levels: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=list)


class MessagePack(TimestampMixin, Model):
    """An SMS or voice pack: `count` messages or calls for `fee` cents less `discount` percent."""

    __tablename__ = "message_pack"

    id: Mapped[int] = mapped_column(primary_key=True)
    platform_id: Mapped[int] = mapped_column(ForeignKey("platform.id", ondelete="CASCADE"), index=True)
    kind: Mapped[PackKind] = mapped_column(str_enum(PackKind))
    name: Mapped[str] = mapped_column(String(20))
    count: Mapped[int] = mapped_column()
    fee: Mapped[int] = mapped_column()
    currency: Mapped[str] = mapped_column(String(3), default="CNY")
    discount: Mapped[int] = mapped_column(default=0)


class Activity(TimestampMixin, Model):
    """A discount on a package's service fee between two dates: public, or directional to chosen accounts."""

    __tablename__ = "billing_activity"

    id: Mapped[int] = mapped_column(primary_key=True)
    platform_id: Mapped[int] = mapped_column(ForeignKey("platform.id", ondelete="CASCADE"), index=True)
    package_id: Mapped[int] = mapped_column(ForeignKey("service_package.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(20))
    starts_at: Mapped[datetime] = mapped_column()
    ends_at: Mapped[datetime] = mapped_column()
    discount: Mapped[int] = mapped_column()
    enabled: Mapped[bool] = mapped_column(default=True)
    directional: Mapped[bool] = mapped_column(default=False)
    account_ids: Mapped[list[int]] = mapped_column(JSON, default=list)


class PaymentMerchant(TimestampMixin, Model):
    """A site's merchant account with one provider. `config` holds keys and certificates: written by
    operators, read by the server only, never served."""

    __tablename__ = "payment_merchant"
    __table_args__ = (UniqueConstraint("platform_id", "provider"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    platform_id: Mapped[int] = mapped_column(ForeignKey("platform.id", ondelete="CASCADE"), index=True)
    provider: Mapped[Provider] = mapped_column(str_enum(Provider))
    enabled: Mapped[bool] = mapped_column(default=True)
    config: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)


class Order(TimestampMixin, Model):
    """An order of service for devices (and SMS / voice packs), or of something another area sells
    (`purpose` + `subject_id`: a calibration application; api/billing/settlements.py). `order_fee` is
    the list price, `pay_fee` what is due after discounts, activity, coupon; both in cents."""

    __tablename__ = "billing_order"
    __table_args__ = (
        Index("ix_billing_order_owner", "owner_account_id", "id"),
        Index("ix_billing_order_subject", "purpose", "subject_id"),
        # A coupon counts on one order at a time: the order that holds it until that order closes unpaid.
        Index(
            "uq_billing_order_coupon_live",
            "coupon_id",
            unique=True,
            postgresql_where=text("coupon_id IS NOT NULL AND pay_status <> 'closed'"),
            sqlite_where=text("coupon_id IS NOT NULL AND pay_status <> 'closed'"),
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    platform_id: Mapped[int] = mapped_column(ForeignKey("platform.id", ondelete="CASCADE"), index=True)
    owner_account_id: Mapped[int] = mapped_column(ForeignKey("account.id", ondelete="CASCADE"))
    order_code: Mapped[str] = mapped_column(String(20), unique=True)
    purpose: Mapped[str] = mapped_column(String(20), default="service", server_default="service")
    subject_id: Mapped[int | None] = mapped_column()  # what the purpose's area sells (its id there)
    package_id: Mapped[int | None] = mapped_column(ForeignKey("service_package.id", ondelete="SET NULL"))
    package_name: Mapped[str | None] = mapped_column(String(20))
    level_id: Mapped[int | None] = mapped_column()
    level_name: Mapped[str | None] = mapped_column(String(20))
    months: Mapped[int] = mapped_column(default=0)
    free_days: Mapped[int] = mapped_column(default=0)
    sms_count: Mapped[int] = mapped_column(default=0)  # credited to each device
    voice_count: Mapped[int] = mapped_column(default=0)
    activity_id: Mapped[int | None] = mapped_column(ForeignKey("billing_activity.id", ondelete="SET NULL"))
    coupon_id: Mapped[int | None] = mapped_column(ForeignKey("coupon.id", ondelete="SET NULL"))
    currency: Mapped[str] = mapped_column(String(3), default="CNY")
    order_fee: Mapped[int] = mapped_column()
    pay_fee: Mapped[int] = mapped_column()
    lines: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=list)  # the price's make-up
    pay_status: Mapped[PayStatus] = mapped_column(str_enum(PayStatus), default=PayStatus.UNPAID)
    pay_type: Mapped[PayType | None] = mapped_column(str_enum(PayType))
    transaction_id: Mapped[str | None] = mapped_column(String(64))
    provider_order_id: Mapped[str | None] = mapped_column(String(64))  # PayPal's order id
    apply_flag: Mapped[bool] = mapped_column(default=False)  # an invoice is wanted
    invoice_status: Mapped[InvoiceStatus] = mapped_column(str_enum(InvoiceStatus), default=InvoiceStatus.NONE)
    pay_time: Mapped[datetime | None] = mapped_column()
    refund_time: Mapped[datetime | None] = mapped_column()
    refund_id: Mapped[str | None] = mapped_column(String(64))  # the provider's id of the refund
    # What the refund took back, per device: [{deviceId, guid, days, sms, voice, smsShort, voiceShort, ...}]
    reversed_items: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON)
    description: Mapped[str | None] = mapped_column(String(200))
    confirmed_by: Mapped[int | None] = mapped_column(ForeignKey("account.id", ondelete="SET NULL"))

    devices: Mapped[list[OrderDevice]] = relationship(order_by="OrderDevice.id", cascade="all, delete-orphan")


class OrderDevice(Model):
    """A device of an order; `applied_at` is set when its service was extended (exactly once)."""

    __tablename__ = "billing_order_device"
    __table_args__ = (UniqueConstraint("order_id", "device_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    order_id: Mapped[int] = mapped_column(ForeignKey("billing_order.id", ondelete="CASCADE"), index=True)
    device_id: Mapped[int] = mapped_column(ForeignKey("device.id", ondelete="CASCADE"), index=True)
    guid: Mapped[str] = mapped_column(String(20))
    expires_before: Mapped[datetime | None] = mapped_column()
    expires_after: Mapped[datetime | None] = mapped_column()
    applied_at: Mapped[datetime | None] = mapped_column()


class FreeServiceUse(Model):
    """A level's free service taken for a device: once per device, package and level, held by the
    unique constraint (a second order for the same free service fails its insert, however many race).
    The row goes when its order closes unpaid."""

    __tablename__ = "free_service_use"
    __table_args__ = (UniqueConstraint("device_id", "package_id", "level_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    device_id: Mapped[int] = mapped_column(ForeignKey("device.id", ondelete="CASCADE"))
    package_id: Mapped[int] = mapped_column(ForeignKey("service_package.id", ondelete="CASCADE"))
    level_id: Mapped[int] = mapped_column()
    order_id: Mapped[int] = mapped_column(ForeignKey("billing_order.id", ondelete="CASCADE"), index=True)


class PaymentNotice(Model):
    """Every payment notification received, verified or not: the record of what the providers told us."""

    __tablename__ = "payment_notice"

    id: Mapped[int] = mapped_column(primary_key=True)
    provider: Mapped[Provider] = mapped_column(str_enum(Provider))
    order_code: Mapped[str | None] = mapped_column(String(64), index=True)
    transaction_id: Mapped[str | None] = mapped_column(String(64))
    amount: Mapped[int | None] = mapped_column()
    # applied, duplicate, forged, amount_mismatch, currency_mismatch, unknown, late_refunded, late_unrefunded
    outcome: Mapped[str] = mapped_column(String(20))
    detail: Mapped[str | None] = mapped_column(String(200))
    received_at: Mapped[datetime] = mapped_column(default=utcnow)


class InvoiceInfo(TimestampMixin, Model):
    __tablename__ = "invoice_info"

    id: Mapped[int] = mapped_column(primary_key=True)
    owner_account_id: Mapped[int] = mapped_column(ForeignKey("account.id", ondelete="CASCADE"), index=True)
    bill_mode: Mapped[BillMode] = mapped_column(str_enum(BillMode))
    bill_name: Mapped[str] = mapped_column(String(20))
    company_name: Mapped[str | None] = mapped_column(String(50))
    tax_number: Mapped[str | None] = mapped_column(String(20))
    personal_name: Mapped[str | None] = mapped_column(String(30))
    address: Mapped[str | None] = mapped_column(String(50))
    bank_deposit: Mapped[str | None] = mapped_column(String(50))
    receiver: Mapped[str | None] = mapped_column(String(30))
    is_default: Mapped[bool] = mapped_column(default=False)


class InvoiceRequest(TimestampMixin, Model):
    """An invoice asked for some paid orders; the invoice info is copied, so later edits change nothing."""

    __tablename__ = "invoice_request"

    id: Mapped[int] = mapped_column(primary_key=True)
    platform_id: Mapped[int] = mapped_column(ForeignKey("platform.id", ondelete="CASCADE"), index=True)
    owner_account_id: Mapped[int] = mapped_column(ForeignKey("account.id", ondelete="CASCADE"), index=True)
    info: Mapped[dict[str, Any]] = mapped_column(JSON)
    order_ids: Mapped[list[int]] = mapped_column(JSON)
    amount: Mapped[int] = mapped_column()
    status: Mapped[InvoiceStatus] = mapped_column(str_enum(InvoiceStatus), default=InvoiceStatus.REQUESTED)
    issued_at: Mapped[datetime | None] = mapped_column()
    issued_by: Mapped[int | None] = mapped_column(ForeignKey("account.id", ondelete="SET NULL"))


class Coupon(Model):
    """One coupon of a batch: `fee` cents off an order, redeemable once within its validity."""

    __tablename__ = "coupon"

    id: Mapped[int] = mapped_column(primary_key=True)
    platform_id: Mapped[int] = mapped_column(ForeignKey("platform.id", ondelete="CASCADE"), index=True)
    prefix: Mapped[str] = mapped_column(String(8))
    code: Mapped[str] = mapped_column(String(32), unique=True)
    fee: Mapped[int] = mapped_column()
    valid_from: Mapped[datetime] = mapped_column()
    valid_to: Mapped[datetime] = mapped_column()
    remark: Mapped[str | None] = mapped_column(String(200))
    used_by: Mapped[int | None] = mapped_column(ForeignKey("account.id", ondelete="SET NULL"))
    used_at: Mapped[datetime | None] = mapped_column()
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class RechargeCard(Model):
    """One recharge card of a batch: `months` of a package level for one device, redeemed once."""

    __tablename__ = "recharge_card"

    id: Mapped[int] = mapped_column(primary_key=True)
    platform_id: Mapped[int] = mapped_column(ForeignKey("platform.id", ondelete="CASCADE"), index=True)
    prefix: Mapped[str] = mapped_column(String(8))
    code: Mapped[str] = mapped_column(String(32), unique=True)
    package_id: Mapped[int] = mapped_column(ForeignKey("service_package.id", ondelete="CASCADE"))
    level_id: Mapped[int] = mapped_column()
    months: Mapped[int] = mapped_column()
    valid_to: Mapped[datetime] = mapped_column()
    remark: Mapped[str | None] = mapped_column(String(200))
    used_by: Mapped[int | None] = mapped_column(ForeignKey("account.id", ondelete="SET NULL"))
    used_at: Mapped[datetime | None] = mapped_column()
    device_id: Mapped[int | None] = mapped_column(ForeignKey("device.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class OfflinePurchase(TimestampMixin, Model):
    """Service sold outside the platform (a contract, a distributor): an operator records it per device
    GUID; it is applied as soon as the device exists (recharged), or marked failed with the reason."""

    __tablename__ = "offline_purchase"

    id: Mapped[int] = mapped_column(primary_key=True)
    platform_id: Mapped[int] = mapped_column(ForeignKey("platform.id", ondelete="CASCADE"), index=True)
    guid: Mapped[str] = mapped_column(String(20), index=True)
    package_id: Mapped[int | None] = mapped_column(ForeignKey("service_package.id", ondelete="SET NULL"))
    level_id: Mapped[int] = mapped_column()
    months: Mapped[int] = mapped_column()
    contract: Mapped[str | None] = mapped_column(String(50))
    state: Mapped[OfflineState] = mapped_column(str_enum(OfflineState), default=OfflineState.NOT_RECHARGED)
    reason: Mapped[str | None] = mapped_column(String(200))
    order_id: Mapped[int | None] = mapped_column(ForeignKey("billing_order.id", ondelete="SET NULL"))
    created_by: Mapped[int | None] = mapped_column(ForeignKey("account.id", ondelete="SET NULL"))
