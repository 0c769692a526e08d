"""Paying an order: the merchants, the spec's payment calls (section 7) and refunds through the
provider. A provider is asked to charge an order only in a currency it takes (api/billing/currencies.py).
The providers' notifications and the payer's confirmation are api/billing/notices.py.
"""

from __future__ import annotations

import logging
from urllib.parse import urlencode

from flask import request
from flask_babel import gettext
from sqlalchemy import select

from api.billing import alipay, currencies, orders, paypal, settlements, wechat
from api.billing.models import Order, PaymentMerchant, PayStatus, PayType, Provider
from api.extensions.db import db
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


def return_url(config: dict, platform: Platform, path: str, **query: str) -> str:
    """Where the payer's browser comes back to after the provider's page: the merchant's returnBase
    (a site served on another port, locally), else the site's configured domain."""
    site = config.get("returnBase") or f"{'https' if platform.https else 'http'}://{platform.top_domain}"
    return f"{site.rstrip('/')}{path}?{urlencode(query)}"


def _payable(order_code: str, provider: Provider) -> Order:
    order = orders.my_order(code=order_code)
    if order.pay_status != PayStatus.UNPAID or order.pay_fee <= 0:
        raise ApiError(gettext("This order cannot be paid."), code=3004)
    currencies.require_chargeable(provider, order.currency)
    return order


def _subject(order: Order) -> str:
    settlement = settlements.settlement_of(order.purpose)
    name = gettext(settlement.label) if settlement else order.package_name or gettext("SMS / voice package")
    return f"{name} {order.order_code}"


# ---- the spec's calls ------------------------------------------------------------------------------------


def wechat_pay(order_code: str, trade_type: str, open_id: str | None) -> dict:
    order = _payable(order_code, Provider.WECHAT)
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
    h5_url = prepay.h5_url
    if h5_url:  # WeChat's cashier sends the payer back to redirect_url once paid (or left)
        success = return_url(config, current_platform(), "/mobilePay/success", orderCode=order.order_code)
        h5_url += ("&" if "?" in h5_url else "?") + urlencode({"redirect_url": success})
    return {
        "orderCode": order.order_code,
        "payFee": order.pay_fee,
        "codeUrl": prepay.code_url,
        "h5Url": h5_url,
        "jsapi": prepay.jsapi,
    }


def wechat_authorize(order_code: str) -> dict:
    """The WeChat OAuth address (snsapi_base: no consent screen) that sends the payer back to the pay
    page with a code, exchanged for the open id a JSAPI payment needs."""
    order = _payable(order_code, Provider.WECHAT)
    config = site_config(Provider.WECHAT)
    back = return_url(config, current_platform(), "/mobilePay/pay", orderCode=order.order_code)
    try:
        return {"authorizeUrl": wechat.authorize_url(config, back, state=order.order_code)}
    except wechat.WeChatError:
        log.exception("wechat authorize address refused")
        raise payment_failed() from None


def wechat_open_id(code: str) -> dict:
    try:
        return {"openId": wechat.open_id(site_config(Provider.WECHAT), code)}
    except wechat.WeChatError:
        log.exception("wechat open id exchange failed")
        raise payment_failed() from None


def ali_pay(order_code: str, mode: str) -> dict:
    order = _payable(order_code, Provider.ALIPAY)
    config = site_config(Provider.ALIPAY)
    notify = base_url(config, current_platform()) + "/api/payment/notify/alipay"
    try:
        if mode == "app":
            answer = {
                "orderString": alipay.app_order_string(config, notify, order.order_code, _subject(order), order.pay_fee)
            }
        else:
            back = config.get("returnUrl") or return_url(
                config, current_platform(), "/mobilePay/success", orderCode=order.order_code
            )
            url = alipay.pay_url(config, mode, notify, order.order_code, _subject(order), order.pay_fee, back)
            answer = {"payUrl": url}
    except alipay.AlipayError:
        log.exception("alipay order failed for %s", order.order_code)
        raise payment_failed() from None
    order.pay_type = ALIPAY_TYPES[mode]
    db.session.commit()
    return {"orderCode": order.order_code, "payFee": order.pay_fee, **answer}


def paypal_checkout(order_code: str) -> dict:
    order = _payable(order_code, Provider.PAYPAL)
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


def provider_of(pay_type: PayType) -> Provider | None:
    if pay_type.value.startswith("wechat"):
        return Provider.WECHAT
    if pay_type.value.startswith("alipay"):
        return Provider.ALIPAY
    return Provider.PAYPAL if pay_type == PayType.PAYPAL else None


def refund_failed(reason: str) -> ApiError:
    return ApiError(gettext("The payment provider did not refund: %(reason)s", reason=reason[:200]), code=3009)


def refund_at_provider(
    order: Order, reason: str | None, provider: Provider | None = None, transaction_id: str | None = None
) -> str:
    """Give an online payment back through the provider it came through (the order's pay type, or the
    one a late notification came from), with the order's merchant (its platform's, whoever refunds).
    The refund is named after the order, so a retry after a failure between the provider and our
    commit is the same refund there, never a second payout."""
    provider = provider or (provider_of(order.pay_type) if order.pay_type else None)
    config = merchant_config(provider, order.platform_id) if provider else None
    if config is None:
        raise refund_failed(gettext("no merchant is configured for this payment type"))
    refund_no = f"RF{order.order_code}"
    try:
        if provider == Provider.WECHAT:
            return wechat.refund(config, order.order_code, refund_no, order.pay_fee, order.pay_fee, reason)
        if provider == Provider.ALIPAY:
            return alipay.refund(config, order.order_code, refund_no, order.pay_fee, reason)
        capture = transaction_id or order.transaction_id or ""
        return paypal.refund(config, capture, refund_no, order.pay_fee, order.currency)
    except (wechat.WeChatError, alipay.AlipayError, paypal.PayPalError) as error:
        log.warning("refund of %s at %s failed: %s", order.order_code, provider.value, error)
        raise refund_failed(str(error)) from None
