"""The providers' payment notifications and the payer's confirmation (asking the provider).

A notification changes an order only when (1) the provider's signature verifies, (2) it names one of
our orders, (3) its amount equals the order's pay fee in cents AND its currency is the order's; then
`orders.settle` applies it exactly once. A payment of an order closed unpaid is never applied: it is
refunded through the provider. Every notification is logged (PaymentNotice) with what became of it.
"""

from __future__ import annotations

import logging

from flask_babel import gettext

from api.billing import alipay, orders, payments, paypal, wechat
from api.billing.models import Order, PaymentNotice, PayStatus, PayType, Provider
from api.extensions.db import db, utcnow
from api.extensions.smorest import ApiError
from api.tenancy import current_platform

log = logging.getLogger(__name__)


def confirm(order_code: str, token: str | None = None) -> Order:
    """The payer is back (or the page polls): ask the provider about the order now rather than wait
    for its notification; PayPal's approved checkout is captured here (token: PayPal's order id)."""
    order = orders.my_order(code=order_code)
    if order.pay_status != PayStatus.UNPAID or order.pay_type is None:
        return order
    provider = payments.provider_of(order.pay_type)
    config = payments.site_config(provider) if provider else None
    try:
        if provider == Provider.WECHAT:
            answer = wechat.query(config, order.order_code)
            if answer.get("trade_state") == "SUCCESS":
                amount = answer.get("amount") or {}
                record(
                    Provider.WECHAT,
                    order.order_code,
                    answer.get("transaction_id"),
                    amount.get("total"),
                    amount.get("currency"),
                )
        elif provider == Provider.ALIPAY:
            answer = alipay.query(config, order.order_code)
            if answer.get("trade_status") in alipay.PAID_STATES:
                cents = alipay.cents_of(answer.get("total_amount"))
                record(Provider.ALIPAY, order.order_code, answer.get("trade_no"), cents, alipay.currency_of(answer))
        elif provider == Provider.PAYPAL and (token or order.provider_order_id) == order.provider_order_id:
            answer = paypal.capture(config, order.provider_order_id)
            if answer["status"] == "COMPLETED" and answer["orderCode"] == order.order_code:
                record(Provider.PAYPAL, order.order_code, answer["captureId"], answer["cents"], answer["currency"])
    except (wechat.WeChatError, alipay.AlipayError, paypal.PayPalError):
        log.exception("payment confirmation failed for %s", order.order_code)
        raise payments.payment_failed() from None
    db.session.refresh(order)
    return order


# ---- notifications ---------------------------------------------------------------------------------------

ACCEPTED = ("applied", "duplicate", "late_refunded")  # the provider may stop delivering these
REFUSED = ("unknown", "amount_mismatch", "currency_mismatch", "late_unrefunded")


def record(
    provider: Provider, order_code: str | None, transaction_id: str | None, cents: int | None, currency: str | None
) -> str:
    """Apply a verified payment: 'applied', 'duplicate', 'unknown' (no such order), 'amount_mismatch',
    'currency_mismatch' (the amount and currency must both be the order's), or for an order no longer
    payable (closed: its coupon may serve another order now) 'late_refunded' / 'late_unrefunded'."""
    order = orders.by_code(order_code or "")
    detail = None
    if order is None:
        outcome = "unknown"
    elif cents is None or cents != order.pay_fee:
        outcome = "amount_mismatch"
    elif currency != order.currency:
        outcome, detail = "currency_mismatch", f"paid in {currency}, order in {order.currency}"[:200]
    elif orders.settle(order, pay_type_of(order, provider), transaction_id, utcnow()):
        outcome = "applied"
    else:
        db.session.refresh(order)
        outcome = "duplicate"
        if order.pay_status == PayStatus.CLOSED:
            outcome, detail = _refund_late(order, provider, transaction_id)
    log_notice(provider, order_code, transaction_id, cents, outcome, detail)
    db.session.commit()
    if outcome in REFUSED:
        log.warning(
            "%s notification refused for %s: %s (%s cents %s)", provider.value, order_code, outcome, cents, currency
        )
    return outcome


def _refund_late(order: Order, provider: Provider, transaction_id: str | None) -> tuple[str, str]:
    """A payment of an order closed unpaid (its payment window passed; its coupon went back): never
    applied, given back through the provider it came through. The refund is named after the order, so
    the provider's retries of the notification are the same refund. Unrefunded (the provider refused),
    the notification is refused, so the provider delivers it again and the refund is tried again."""
    try:
        refund_id = payments.refund_at_provider(
            order,
            gettext("Order %(code)s was closed before it was paid", code=order.order_code),
            provider,
            transaction_id,
        )
    except ApiError as error:
        return "late_unrefunded", error.msg[:200]
    order.refund_id, order.refund_time = refund_id[:64], utcnow()
    log.warning("late payment of closed order %s refunded through %s", order.order_code, provider.value)
    return "late_refunded", f"refund {refund_id}"[:200]


def pay_type_of(order: Order, provider: Provider) -> PayType:
    """The way the order was paid: the one last started with this provider, else the provider's default."""
    if order.pay_type is not None and payments.provider_of(order.pay_type) == provider:
        return order.pay_type
    return default_type(provider)


def default_type(provider: Provider) -> PayType:
    return {Provider.WECHAT: PayType.WECHAT_NATIVE, Provider.ALIPAY: PayType.ALIPAY_PAGE}.get(provider, PayType.PAYPAL)


def log_notice(provider: Provider, order_code, transaction_id, cents, outcome: str, detail: str | None = None) -> None:
    db.session.add(
        PaymentNotice(
            provider=provider,
            order_code=(order_code or "")[:64] or None,
            transaction_id=(transaction_id or "")[:64] or None,
            amount=cents,
            outcome=outcome,
            detail=detail,
        )
    )


def forged(provider: Provider, detail: str) -> None:
    log.warning("%s notification with a signature that does not verify: %s", provider.value, detail)
    log_notice(provider, None, None, None, "forged", detail[:200])
    db.session.commit()


def _platform_of(order_code: str | None) -> int | None:
    order = orders.by_code(order_code or "")
    return order.platform_id if order is not None else None


def on_wechat(headers, body: bytes) -> bool:
    """A WeChat Pay notification: the order it names tells whose merchant keys verify it."""
    config = payments.merchant_config(Provider.WECHAT, current_platform().id)
    if config is None:
        forged(Provider.WECHAT, "no merchant on this site")
        return False
    transaction = wechat.parse_notification(config, headers, body)
    if transaction is None:
        forged(Provider.WECHAT, f"serial {headers.get('Wechatpay-Serial', '')}")
        return False
    if transaction.get("trade_state") != "SUCCESS" or transaction.get("mchid") not in (None, config["mchid"]):
        log_notice(Provider.WECHAT, transaction.get("out_trade_no"), transaction.get("transaction_id"), None, "ignored")
        db.session.commit()
        return True
    if _platform_of(transaction.get("out_trade_no")) not in (None, current_platform().id):
        forged(Provider.WECHAT, "order of another site")
        return False
    amount = transaction.get("amount") or {}
    outcome = record(
        Provider.WECHAT,
        transaction.get("out_trade_no"),
        transaction.get("transaction_id"),
        amount.get("total"),
        amount.get("currency"),
    )
    return outcome in ACCEPTED


def on_alipay(form: dict) -> bool:
    config = payments.merchant_config(Provider.ALIPAY, current_platform().id)
    if config is None:
        forged(Provider.ALIPAY, "no merchant on this site")
        return False
    data = alipay.verify_notification(config, form)
    if data is None:
        forged(Provider.ALIPAY, f"notify {form.get('notify_id', '')}"[:200])
        return False
    if data.get("trade_status") not in alipay.PAID_STATES:
        log_notice(Provider.ALIPAY, data.get("out_trade_no"), data.get("trade_no"), None, "ignored")
        db.session.commit()
        return True
    if _platform_of(data.get("out_trade_no")) not in (None, current_platform().id):
        forged(Provider.ALIPAY, "order of another site")
        return False
    cents = alipay.cents_of(data.get("total_amount"))
    outcome = record(Provider.ALIPAY, data.get("out_trade_no"), data.get("trade_no"), cents, alipay.currency_of(data))
    return outcome in ACCEPTED


def on_paypal(headers, event: dict) -> bool:
    config = payments.merchant_config(Provider.PAYPAL, current_platform().id)
    if config is None or not paypal.verify_webhook(config, headers, event):
        forged(Provider.PAYPAL, f"event {event.get('id', '')}"[:200])
        return False
    if event.get("event_type") != "PAYMENT.CAPTURE.COMPLETED":
        log_notice(Provider.PAYPAL, None, event.get("id"), None, "ignored")
        db.session.commit()
        return True
    resource = event.get("resource") or {}
    order_code = resource.get("custom_id")
    if _platform_of(order_code) not in (None, current_platform().id):
        forged(Provider.PAYPAL, "order of another site")
        return False
    amount = resource.get("amount") or {}
    outcome = record(
        Provider.PAYPAL,
        order_code,
        resource.get("id"),
        alipay.cents_of(amount.get("value")),
        amount.get("currency_code"),
    )
    return outcome in ACCEPTED
