"""Paying an order: the spec's payment calls (section 7) and the providers' notifications.

A notification changes an order only when (1) the provider's signature verifies, (2) it names one of
our orders, (3) its amount equals the order's pay fee in cents; then `orders.settle` applies it
exactly once. Every notification is logged (PaymentNotice) with what became of it.
"""

from __future__ import annotations

import logging

from flask import request
from flask_babel import gettext
from sqlalchemy import select

from api.billing import alipay, orders, paypal, settlements, wechat
from api.billing.models import Order, PaymentMerchant, PaymentNotice, PayStatus, PayType, Provider
from api.extensions.db import db, utcnow
from api.extensions.smorest import ApiError
from api.platform.models import Platform
from api.tenancy import current_platform

log = logging.getLogger(__name__)
WECHAT_TYPES = {"native": PayType.WECHAT_NATIVE, "jsapi": PayType.WECHAT_JSAPI, "h5": PayType.WECHAT_H5}
ALIPAY_TYPES = {"page": PayType.ALIPAY_PAGE, "wap": PayType.ALIPAY_WAP, "app": PayType.ALIPAY_APP}


def payment_failed() -> ApiError:
    return ApiError(gettext("Payment failed"), code=3003)


# ---- merchants -------------------------------------------------------------------------------------------


def merchant_config(provider: Provider, platform_id: int) -> dict | None:
    merchant = db.session.scalar(
        select(PaymentMerchant).where(PaymentMerchant.platform_id == platform_id, PaymentMerchant.provider == provider)
    )
    return merchant.config if merchant is not None and merchant.enabled else None


def site_config(provider: Provider) -> dict:
    config = merchant_config(provider, current_platform().id)
    if config is None:
        log.warning("no %s merchant on platform %s", provider.value, current_platform().id)
        raise payment_failed()
    return config


def merchants() -> list[dict]:
    rows = db.session.scalars(select(PaymentMerchant).where(PaymentMerchant.platform_id == current_platform().id))
    return [{"provider": m.provider, "enabled": m.enabled, "configured": sorted(m.config)} for m in rows]


def save_merchant(args: dict) -> dict:
    provider = Provider(args["provider"])
    merchant = db.session.scalar(
        select(PaymentMerchant).where(
            PaymentMerchant.platform_id == current_platform().id, PaymentMerchant.provider == provider
        )
    ) or PaymentMerchant(platform_id=current_platform().id, provider=provider, config={})
    # Settings left out keep their value (secrets are never sent back, so a form cannot resend them).
    merchant.config = {**(merchant.config or {}), **(args.get("config") or {})}
    merchant.enabled = args["enabled"]
    db.session.add(merchant)
    db.session.commit()
    return {"provider": merchant.provider, "enabled": merchant.enabled, "configured": sorted(merchant.config)}


def base_url(config: dict, platform: Platform) -> str:
    """Where providers reach us: the merchant's notifyBase, else the site's configured domain."""
    return (config.get("notifyBase") or f"{'https' if platform.https else 'http'}://{platform.top_domain}").rstrip("/")


def _payable(order_code: str) -> Order:
    order = orders.my_order(code=order_code)
    if order.pay_status != PayStatus.UNPAID or order.pay_fee <= 0:
        raise ApiError(gettext("This order cannot be paid."), code=3004)
    return order


def _subject(order: Order) -> str:
    settlement = settlements.settlement_of(order.purpose)
    name = gettext(settlement.label) if settlement else order.package_name or gettext("SMS / voice package")
    return f"{name} {order.order_code}"


# ---- the spec's calls ------------------------------------------------------------------------------------


def wechat_pay(order_code: str, trade_type: str, open_id: str | None) -> dict:
    order = _payable(order_code)
    config = site_config(Provider.WECHAT)
    notify = base_url(config, current_platform()) + "/api/payment/notify/wechat"
    if trade_type == "jsapi" and not open_id:
        raise ApiError(gettext("Open this page in WeChat to pay."), code=3005)
    try:
        prepay = wechat.prepay(
            config,
            trade_type,
            notify,
            order.order_code,
            _subject(order),
            order.pay_fee,
            open_id=open_id,
            client_ip=request.remote_addr,
        )
    except wechat.WeChatError:
        log.exception("wechat prepay failed for %s", order.order_code)
        raise payment_failed() from None
    order.pay_type = WECHAT_TYPES[trade_type]
    db.session.commit()
    return {
        "orderCode": order.order_code,
        "payFee": order.pay_fee,
        "codeUrl": prepay.code_url,
        "h5Url": prepay.h5_url,
        "jsapi": prepay.jsapi,
    }


def wechat_open_id(code: str) -> dict:
    try:
        return {"openId": wechat.open_id(site_config(Provider.WECHAT), code)}
    except wechat.WeChatError:
        log.exception("wechat open id exchange failed")
        raise payment_failed() from None


def ali_pay(order_code: str, mode: str) -> dict:
    order = _payable(order_code)
    config = site_config(Provider.ALIPAY)
    notify = base_url(config, current_platform()) + "/api/payment/notify/alipay"
    try:
        if mode == "app":
            answer = {
                "orderString": alipay.app_order_string(config, notify, order.order_code, _subject(order), order.pay_fee)
            }
        else:
            answer = {"payUrl": alipay.pay_url(config, mode, notify, order.order_code, _subject(order), order.pay_fee)}
    except alipay.AlipayError:
        log.exception("alipay order failed for %s", order.order_code)
        raise payment_failed() from None
    order.pay_type = ALIPAY_TYPES[mode]
    db.session.commit()
    return {"orderCode": order.order_code, "payFee": order.pay_fee, **answer}


def paypal_checkout(order_code: str) -> dict:
    order = _payable(order_code)
    config = site_config(Provider.PAYPAL)
    site = base_url(config, current_platform())
    try:
        paypal_id, approve = paypal.create_checkout(
            config,
            order.order_code,
            order.currency,
            order.pay_fee,
            f"{site}/mobilePay/paypal/callback?orderCode={order.order_code}",
            f"{site}/mobilePay/paypal/cancel?orderCode={order.order_code}",
        )
    except paypal.PayPalError:
        log.exception("paypal checkout failed for %s", order.order_code)
        raise payment_failed() from None
    order.pay_type, order.provider_order_id = PayType.PAYPAL, paypal_id
    db.session.commit()
    return {"orderCode": order.order_code, "payFee": order.pay_fee, "approveUrl": approve}


def confirm(order_code: str, token: str | None = None) -> Order:
    """The payer is back (or the page polls): ask the provider about the order now rather than wait
    for its notification; PayPal's approved checkout is captured here (token: PayPal's order id)."""
    order = orders.my_order(code=order_code)
    if order.pay_status != PayStatus.UNPAID or order.pay_type is None:
        return order
    provider = provider_of(order.pay_type)
    config = site_config(provider) if provider else None
    try:
        if provider == Provider.WECHAT:
            answer = wechat.query(config, order.order_code)
            if answer.get("trade_state") == "SUCCESS":
                record(Provider.WECHAT, order.order_code, answer.get("transaction_id"), answer["amount"]["total"])
        elif provider == Provider.ALIPAY:
            answer = alipay.query(config, order.order_code)
            if answer.get("trade_status") in alipay.PAID_STATES:
                record(
                    Provider.ALIPAY, order.order_code, answer.get("trade_no"), alipay.cents_of(answer["total_amount"])
                )
        elif provider == Provider.PAYPAL and (token or order.provider_order_id) == order.provider_order_id:
            answer = paypal.capture(config, order.provider_order_id)
            if answer["status"] == "COMPLETED" and answer["orderCode"] == order.order_code:
                record(Provider.PAYPAL, order.order_code, answer["captureId"], answer["cents"])
    except (wechat.WeChatError, alipay.AlipayError, paypal.PayPalError):
        log.exception("payment confirmation failed for %s", order.order_code)
        raise payment_failed() from None
    db.session.refresh(order)
    return order


def provider_of(pay_type: PayType) -> Provider | None:
    if pay_type.value.startswith("wechat"):
        return Provider.WECHAT
    if pay_type.value.startswith("alipay"):
        return Provider.ALIPAY
    return Provider.PAYPAL if pay_type == PayType.PAYPAL else None


def refund_failed(reason: str) -> ApiError:
    return ApiError(gettext("The payment provider did not refund: %(reason)s", reason=reason[:200]), code=3009)


def refund_at_provider(order: Order, reason: str | None) -> str:
    """Give an online payment back through the provider it came through, with the order's merchant
    (its platform's, whoever refunds). The refund is named after the order, so a retry after a failure
    between the provider and our commit is the same refund there, never a second payout."""
    provider = provider_of(order.pay_type)
    config = merchant_config(provider, order.platform_id) if provider else None
    if config is None:
        raise refund_failed(gettext("no merchant is configured for this payment type"))
    refund_no = f"RF{order.order_code}"
    try:
        if provider == Provider.WECHAT:
            return wechat.refund(config, order.order_code, refund_no, order.pay_fee, order.pay_fee, reason)
        if provider == Provider.ALIPAY:
            return alipay.refund(config, order.order_code, refund_no, order.pay_fee, reason)
        return paypal.refund(config, order.transaction_id or "", refund_no, order.pay_fee, order.currency)
    except (wechat.WeChatError, alipay.AlipayError, paypal.PayPalError) as error:
        log.warning("refund of %s at %s failed: %s", order.order_code, provider.value, error)
        raise refund_failed(str(error)) from None


# ---- notifications ---------------------------------------------------------------------------------------


def record(provider: Provider, order_code: str | None, transaction_id: str | None, cents: int | None) -> str:
    """Apply a verified payment: 'applied', 'duplicate', 'unknown' (no such order) or 'amount_mismatch'."""
    order = orders.by_code(order_code or "")
    if order is None:
        outcome = "unknown"
    elif cents is None or cents != order.pay_fee:
        outcome = "amount_mismatch"
    elif orders.settle(order, pay_type_of(order, provider), transaction_id, utcnow()):
        outcome = "applied"
    else:
        outcome = "duplicate"
    log_notice(provider, order_code, transaction_id, cents, outcome)
    db.session.commit()
    if outcome in ("unknown", "amount_mismatch"):
        log.warning("%s notification refused for %s: %s (%s cents)", provider.value, order_code, outcome, cents)
    return outcome


def pay_type_of(order: Order, provider: Provider) -> PayType:
    """The way the order was paid: the one last started with this provider, else the provider's default."""
    if order.pay_type is not None and provider_of(order.pay_type) == provider:
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
    config = merchant_config(Provider.WECHAT, current_platform().id)
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
    outcome = record(
        Provider.WECHAT,
        transaction.get("out_trade_no"),
        transaction.get("transaction_id"),
        (transaction.get("amount") or {}).get("total"),
    )
    return outcome in ("applied", "duplicate")


def on_alipay(form: dict) -> bool:
    config = merchant_config(Provider.ALIPAY, current_platform().id)
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
    outcome = record(
        Provider.ALIPAY, data.get("out_trade_no"), data.get("trade_no"), alipay.cents_of(data.get("total_amount"))
    )
    return outcome in ("applied", "duplicate")


def on_paypal(headers, event: dict) -> bool:
    config = merchant_config(Provider.PAYPAL, current_platform().id)
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
    outcome = record(
        Provider.PAYPAL, order_code, resource.get("id"), alipay.cents_of((resource.get("amount") or {}).get("value"))
    )
    return outcome in ("applied", "duplicate")
