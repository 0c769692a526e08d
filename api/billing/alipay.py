"""Alipay through `python-alipay-sdk` (RSA2): page pay (desktop), wap pay (mobile browser) and app pay;
asynchronous notifications verified with Alipay's public key by the SDK.

Merchant config: appid, appPrivateKey (PEM), alipayPublicKey (PEM); optional gateway (a sandbox or
the local fake), notifyBase, returnUrl (else the site's /mobilePay/success), returnBase.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from alipay import AliPay
from alipay.utils import AliPayConfig

from api.extensions import outbound

GATEWAY = "https://openapi.alipay.com/gateway.do"
PAID_STATES = ("TRADE_SUCCESS", "TRADE_FINISHED")


class AlipayError(Exception):
    pass


def client(config: dict, notify_url: str | None = None) -> AliPay:
    try:
        pay = AliPay(
            appid=config["appid"],
            app_notify_url=notify_url,
            app_private_key_string=config["appPrivateKey"],
            alipay_public_key_string=config["alipayPublicKey"],
            sign_type="RSA2",
            config=AliPayConfig(timeout=15),
        )
    except (KeyError, ValueError, IndexError, TypeError) as error:
        raise AlipayError(f"bad merchant configuration: {error}") from error
    # The SDK knows only production and its sandbox; a configured gateway (the local fake) replaces it.
    try:
        pay._gateway = outbound.check_url(config.get("gateway") or GATEWAY)
    except outbound.OutboundRefusedError as refused:
        raise AlipayError(f"gateway refused: {refused}") from None
    return pay


def yuan(cents: int) -> str:
    """Alipay's total_amount: yuan with two decimals, from integer cents."""
    return f"{cents // 100}.{cents % 100:02d}"


def cents_of(amount: str | None) -> int | None:
    try:
        value = Decimal(amount or "") * 100
    except InvalidOperation:
        return None
    return int(value) if value == value.to_integral_value() else None


def currency_of(answer: dict) -> str:
    """The currency of a notification or trade query: a domestic trade is in yuan (no currency field);
    a cross-border one names its trade currency."""
    return answer.get("trans_currency") or "CNY"


def pay_url(
    config: dict, mode: str, notify_url: str, order_code: str, subject: str, cents: int, return_url: str | None
) -> str:
    """The URL the browser opens (page / wap) to pay; Alipay sends the payer back to `return_url`."""
    pay = client(config, notify_url)
    call = pay.api_alipay_trade_page_pay if mode == "page" else pay.api_alipay_trade_wap_pay
    signed = call(subject=subject[:256], out_trade_no=order_code, total_amount=yuan(cents), return_url=return_url)
    return f"{pay._gateway}?{signed}"


def app_order_string(config: dict, notify_url: str, order_code: str, subject: str, cents: int) -> str:
    """The signed order string the mobile app hands to the Alipay SDK."""
    pay = client(config, notify_url)
    return pay.api_alipay_trade_app_pay(subject=subject[:256], out_trade_no=order_code, total_amount=yuan(cents))


def verify_notification(config: dict, form: dict) -> dict | None:
    """The notification's fields when Alipay's signature verifies (and it names our app), else None."""
    data = dict(form)
    signature = data.pop("sign", None)
    if not signature:
        return None
    try:
        ok = client(config).verify(dict(data), signature)
    except Exception:  # an unknown sign type, or a signature that is not base64
        return None
    if not ok or data.get("app_id") != config["appid"]:
        return None
    return data


def query(config: dict, order_code: str) -> dict:
    try:
        return client(config).api_alipay_trade_query(out_trade_no=order_code)
    except Exception as error:  # transport, an error response, or a response signature that fails
        raise AlipayError(str(error)) from error


def refund(config: dict, order_code: str, refund_no: str, cents: int, reason: str | None) -> str:
    """Give the payment back; `refund_no` (out_request_no) makes a retry the same refund. Returns
    Alipay's trade number of the refunded trade."""
    try:
        answer = client(config).api_alipay_trade_refund(
            refund_amount=yuan(cents), out_trade_no=order_code, out_request_no=refund_no, refund_reason=reason or ""
        )
    except Exception as error:
        raise AlipayError(str(error)) from error
    if answer.get("code") != "10000" or answer.get("fund_change") not in ("Y", "N"):
        raise AlipayError(f"{answer.get('code')} {answer.get('sub_msg') or answer.get('msg')}")
    return answer.get("trade_no") or refund_no
