"""WeChat Pay API v3 through `wechatpayv3`: native QR, JSAPI (messaging browser, with the payer's open
id), H5; notifications verified with the platform certificate (or platform public key) and decrypted
with the APIv3 key by the SDK itself.

Merchant config (PaymentMerchant.config): mchid, appid, appSecret (open id exchange), privateKey (PEM),
certSerialNo, apiv3Key, and either platformCert (PEM) or publicKey + publicKeyId; optional gateway
oauthGateway and authorizeGateway (a sandbox or a local fake), notifyBase, returnBase.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import tempfile
import time
from dataclasses import dataclass
from urllib.parse import urlencode

import requests
from cryptography import x509
from wechatpayv3 import WeChatPay, WeChatPayType

from api.extensions import outbound

GATEWAY = "https://api.mch.weixin.qq.com"
OAUTH_GATEWAY = "https://api.weixin.qq.com"
AUTHORIZE_GATEWAY = "https://open.weixin.qq.com"
TIMEOUT = (5, 20)
TRADE_TYPES = {"native": WeChatPayType.NATIVE, "jsapi": WeChatPayType.JSAPI, "h5": WeChatPayType.H5}


class WeChatError(Exception):
    pass


def _cert_dir(config: dict) -> str | None:
    """The SDK reads platform certificates from a folder: one folder per certificate set, written once."""
    pem = config.get("platformCert")
    if not pem:
        return None
    digest = hashlib.sha256(pem.encode()).hexdigest()[:16]
    folder = os.path.join(tempfile.gettempdir(), "coldchain-wechatpay", digest)
    if not os.path.isdir(folder):
        os.makedirs(folder, exist_ok=True)
        serial = format(x509.load_pem_x509_certificate(pem.encode()).serial_number, "X")
        with open(os.path.join(folder, f"{serial}.pem"), "w", encoding="utf-8") as handle:
            handle.write(pem)
    return folder


def client(config: dict, trade_type: str = "native", notify_url: str | None = None) -> WeChatPay:
    try:
        pay = WeChatPay(
            wechatpay_type=TRADE_TYPES[trade_type],
            mchid=config["mchid"],
            private_key=config["privateKey"],
            cert_serial_no=config["certSerialNo"],
            appid=config["appid"],
            apiv3_key=config["apiv3Key"],
            notify_url=notify_url,
            cert_dir=_cert_dir(config),
            timeout=TIMEOUT,
            public_key=config.get("publicKey") or None,
            public_key_id=config.get("publicKeyId") or None,
        )
    except Exception as error:  # the SDK raises bare Exceptions for bad keys and missing certificates
        raise WeChatError(str(error)) from error
    # The SDK has no gateway option; a sandbox or the local fake replaces the production host here.
    pay._core._gate_way = gateway(config, "gateway", GATEWAY)
    return pay


def gateway(config: dict, key: str, default: str) -> str:
    """A configured gateway (a sandbox, the local fake) or the production host, checked before use."""
    try:
        return outbound.check_url(config.get(key) or default)
    except outbound.OutboundRefusedError as refused:
        raise WeChatError(f"{key} refused: {refused}") from None


@dataclass(frozen=True)
class Prepay:
    code_url: str | None = None  # native: shown as a QR code
    h5_url: str | None = None
    jsapi: dict | None = None  # the parameters of WeixinJSBridge's getBrandWCPayRequest


def prepay(
    config: dict, trade_type: str, notify_url: str, order_code: str, description: str, cents: int, **extra
) -> Prepay:
    pay = client(config, trade_type, notify_url)
    kwargs: dict = {"amount": {"total": cents, "currency": "CNY"}, "pay_type": TRADE_TYPES[trade_type]}
    if trade_type == "jsapi":
        kwargs["payer"] = {"openid": extra["open_id"]}
    if trade_type == "h5":
        kwargs["scene_info"] = {"payer_client_ip": extra.get("client_ip") or "127.0.0.1", "h5_info": {"type": "Wap"}}
    try:
        code, message = pay.pay(description=description[:127], out_trade_no=order_code, **kwargs)
    except Exception as error:  # transport errors and a response whose signature does not verify
        raise WeChatError(str(error)) from error
    if code not in range(200, 300):
        raise WeChatError(f"{code} {message}")
    answer = json.loads(message)
    if trade_type == "native":
        return Prepay(code_url=answer["code_url"])
    if trade_type == "h5":
        return Prepay(h5_url=answer["h5_url"])
    timestamp, nonce = str(int(time.time())), secrets.token_hex(16)
    package = f"prepay_id={answer['prepay_id']}"
    signature = pay.sign([config["appid"], timestamp, nonce, package])
    return Prepay(
        jsapi={
            "appId": config["appid"],
            "timeStamp": timestamp,
            "nonceStr": nonce,
            "package": package,
            "signType": "RSA",
            "paySign": signature,
        }
    )


def parse_notification(config: dict, headers, body: bytes) -> dict | None:
    """The decrypted transaction of a notification, or None when its signature does not verify."""
    try:
        result = client(config).callback(headers, body)
    except Exception:  # an unknown algorithm or a malformed body: refused like a forged signature
        return None
    if not result or result.get("event_type") != "TRANSACTION.SUCCESS":
        return None if not result else {"trade_state": "NOT_SUCCESS", **result.get("resource", {})}
    return result["resource"]


def query(config: dict, order_code: str) -> dict:
    try:
        code, message = client(config).query(out_trade_no=order_code)
    except Exception as error:
        raise WeChatError(str(error)) from error
    if code not in range(200, 300):
        raise WeChatError(f"{code} {message}")
    return json.loads(message)


def refund(config: dict, order_code: str, refund_no: str, cents: int, total: int, reason: str | None) -> str:
    """Give the payment back (v3 domestic refund); `refund_no` names this refund, so a retry of it is the
    same refund at WeChat, never a second one. Returns WeChat's refund id."""
    amount = {"refund": cents, "total": total, "currency": "CNY"}
    try:
        code, message = client(config).refund(
            out_refund_no=refund_no, amount=amount, out_trade_no=order_code, reason=(reason or None)
        )
    except Exception as error:
        raise WeChatError(str(error)) from error
    if code not in range(200, 300):
        raise WeChatError(f"{code} {message}")
    answer = json.loads(message)
    if answer.get("status") not in ("SUCCESS", "PROCESSING"):
        raise WeChatError(f"refund {answer.get('status')}")
    return answer["refund_id"]


def authorize_url(config: dict, redirect_uri: str, state: str) -> str:
    """WeChat's OAuth page (silent snsapi_base): it sends the messaging browser back to `redirect_uri`
    with ?code=...&state=..."""
    base = (config.get("authorizeGateway") or AUTHORIZE_GATEWAY).rstrip("/")
    if not base.startswith(("https://", "http://")):  # the browser goes there, never this server
        raise WeChatError("authorizeGateway is not a web address")
    query = urlencode(
        {
            "appid": config["appid"],
            "redirect_uri": redirect_uri,
            "response_type": "code",
            "scope": "snsapi_base",
            "state": state,
        }
    )
    return f"{base}/connect/oauth2/authorize?{query}#wechat_redirect"


def open_id(config: dict, oauth_code: str) -> str:
    """The payer's open id from the code the messaging browser's OAuth redirect carried."""
    base = gateway(config, "oauthGateway", OAUTH_GATEWAY)
    try:
        response = outbound.session().get(
            base + "/sns/oauth2/access_token",
            params={
                "appid": config["appid"],
                "secret": config.get("appSecret", ""),
                "code": oauth_code,
                "grant_type": "authorization_code",
            },
            timeout=TIMEOUT,
        )
        answer = response.json()
    except (requests.RequestException, ValueError, KeyError) as error:
        raise WeChatError(str(error)) from error
    if "openid" not in answer:
        raise WeChatError(answer.get("errmsg", "no open id"))
    return answer["openid"]
