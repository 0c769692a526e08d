"""WeChat Pay API v3 fake (see tests/payment_fakes/__init__.py)."""

from __future__ import annotations

import base64
import html
import json
import re
import secrets
import time
from datetime import UTC, datetime
from urllib.parse import urlencode

import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from werkzeug.wrappers import Request, Response

from tests.payment_fakes.keys import HttpFake, new_key, private_pem, rsa_sign, rsa_verify, self_signed

# ---- WeChat Pay API v3 ---------------------------------------------------------------------------------------

AUTH = re.compile(r'(\w+)="([^"]*)"')


class WeChatPayFake(HttpFake):
    def __init__(self, port: int = 0):
        super().__init__(port)
        self.mchid, self.appid = "1900000109", "wx0fake00000000001"
        self.apiv3_key = secrets.token_hex(16)  # 32 characters, as WeChat's APIv3 keys
        self.merchant_key = new_key()
        self.merchant_serial = format(secrets.randbits(64), "X")
        self.platform_key = new_key()
        self.platform_cert = self_signed(self.platform_key, "Tenpay.com Root CA", secrets.randbits(64))
        self.platform_serial = format(self.platform_cert.serial_number, "X")
        self.trades: dict[str, dict] = {}
        self.refused: list[str] = []  # requests whose signature did not verify
        self.refunds: dict[str, dict] = {}  # out_refund_no -> the refund
        self.refuse_refunds = False  # the merchant account cannot pay out

    def merchant_config(self, **extra) -> dict:
        return {
            "mchid": self.mchid,
            "appid": self.appid,
            "appSecret": "fake-app-secret",
            "privateKey": private_pem(self.merchant_key),
            "certSerialNo": self.merchant_serial,
            "apiv3Key": self.apiv3_key,
            "platformCert": self.platform_cert.public_bytes(serialization.Encoding.PEM).decode(),
            "gateway": self.url,
            "oauthGateway": self.url,
            "authorizeGateway": self.url,
            **extra,
        }

    # answers signed as WeChat signs them: timestamp \n nonce \n body \n
    def signed(self, payload: dict | None, status: int = 200, key=None) -> Response:
        body = json.dumps(payload) if payload is not None else ""
        timestamp, nonce = str(int(time.time())), secrets.token_hex(16)
        signature = rsa_sign(key or self.platform_key, f"{timestamp}\n{nonce}\n{body}\n")
        headers = {
            "Wechatpay-Timestamp": timestamp,
            "Wechatpay-Nonce": nonce,
            "Wechatpay-Signature": signature,
            "Wechatpay-Serial": self.platform_serial,
            "Wechatpay-Signature-Type": "WECHATPAY2-SHA256-RSA2048",
        }
        return Response(body, status=status, headers=headers, content_type="application/json")

    def encrypt(self, plaintext: str, associated_data: str) -> dict:
        nonce = secrets.token_hex(6)  # 12 characters, as WeChat's
        cipher = AESGCM(self.apiv3_key.encode()).encrypt(nonce.encode(), plaintext.encode(), associated_data.encode())
        return {
            "algorithm": "AEAD_AES_256_GCM",
            "ciphertext": base64.b64encode(cipher).decode(),
            "associated_data": associated_data,
            "nonce": nonce,
        }

    def _authorized(self, request: Request) -> bool:
        header = request.headers.get("Authorization", "")
        if not header.startswith("WECHATPAY2-SHA256-RSA2048 "):
            return False
        fields = dict(AUTH.findall(header))
        path = request.full_path.rstrip("?")
        body = request.get_data(as_text=True)
        text = f"{request.method}\n{path}\n{fields.get('timestamp')}\n{fields.get('nonce_str')}\n{body}\n"
        return (
            fields.get("mchid") == self.mchid
            and fields.get("serial_no") == self.merchant_serial
            and rsa_verify(self.merchant_key.public_key(), text, fields.get("signature", ""))
        )

    def handle(self, request: Request) -> Response:
        path = request.path
        if path == "/favicon.ico":  # the cashier page's icon, asked for by the payer's browser
            return Response(status=204)
        if path == "/sns/oauth2/access_token":
            return Response(
                json.dumps({"openid": f"o-fake-{request.args.get('code')}"}), content_type="application/json"
            )
        if path == "/connect/oauth2/authorize":  # the messaging browser's silent OAuth: back with a code
            return self.authorize(request)
        if path.startswith("/fake/scan/"):  # the payer scans the QR code and pays: notify over HTTP
            self.deliver(path.rsplit("/", 1)[-1])
            return Response("<html><body><h1 id='paid'>paid</h1></body></html>", content_type="text/html")
        if path == "/fake/h5/checkmweb":  # H5: WeChat's cashier page in the phone's browser
            return self.cashier(request)
        if path.startswith("/fake/h5/pay/"):  # the payer confirms: notify, then back to redirect_url
            self.deliver(path.rsplit("/", 1)[-1])
            back = request.args.get("redirect_url")
            if back:
                return Response(status=302, headers={"Location": back})
            return Response("<html><body><h1 id='paid'>paid</h1></body></html>", content_type="text/html")
        if not self._authorized(request):
            self.refused.append(path)
            return Response(json.dumps({"code": "SIGN_ERROR", "message": "bad signature"}), 401)
        if path == "/v3/certificates":
            pem = self.platform_cert.public_bytes(serialization.Encoding.PEM).decode()
            valid = {"effective_time": "2026-01-01T00:00:00+08:00", "expire_time": "2036-01-01T00:00:00+08:00"}
            entry = {
                "serial_no": self.platform_serial,
                **valid,
                "encrypt_certificate": self.encrypt(pem, "certificate"),
            }
            return self.signed({"data": [entry]})
        match = re.fullmatch(r"/v3/pay/transactions/(native|jsapi|h5)", path)
        if match and request.method == "POST":
            order = request.get_json()
            code = order["out_trade_no"]
            self.trades[code] = {**order, "trade_state": "NOTPAY", "kind": match.group(1)}
            if match.group(1) == "native":
                return self.signed({"code_url": f"weixin://wxpay/bizpayurl?pr={code}"})
            if match.group(1) == "h5":
                query = urlencode({"prepay_id": f"wx{code}", "package": secrets.randbelow(10**10)})
                return self.signed({"h5_url": f"{self.url}/fake/h5/checkmweb?{query}"})
            return self.signed({"prepay_id": f"wx{code}"})
        if path == "/v3/refund/domestic/refunds" and request.method == "POST":
            return self.refund(request.get_json())
        match = re.fullmatch(r"/v3/pay/transactions/out-trade-no/(\w+)", path)
        if match:
            trade = self.trades.get(match.group(1))
            if trade is None:
                return self.signed({"code": "ORDER_NOT_EXIST", "message": "no such order"}, 404)
            return self.signed(self.transaction(trade))
        return self.signed({"code": "NOT_FOUND"}, 404)

    def authorize(self, request: Request) -> Response:
        """snsapi_base OAuth: only this app's, back to redirect_uri with ?code=...&state=..."""
        back = request.args.get("redirect_uri", "")
        if request.args.get("appid") != self.appid or not back.startswith(("http://", "https://")):
            return Response("invalid appid or redirect_uri", 400)
        code = secrets.token_hex(8)
        query = urlencode({"code": code, "state": request.args.get("state", "")})
        return Response(status=302, headers={"Location": back + ("&" if "?" in back else "?") + query})

    def cashier(self, request: Request) -> Response:
        """The H5 cashier: the order's amount and a pay button (to /fake/h5/pay, keeping redirect_url)."""
        prepay_id = request.args.get("prepay_id", "")
        trade = self.trades.get(prepay_id.removeprefix("wx"))
        if trade is None or trade["kind"] != "h5":
            return Response("<html><body><h1 id='expired'>expired</h1></body></html>", 404, content_type="text/html")
        code = trade["out_trade_no"]
        back = request.args.get("redirect_url")
        target = f"/fake/h5/pay/{code}" + (f"?{urlencode({'redirect_url': back})}" if back else "")
        cents = trade["amount"]["total"]
        link = f"<a id='pay' href='{html.escape(target)}'>pay {cents // 100}.{cents % 100:02d}</a>"
        return Response(f"<html><body><h1>WeChat Pay</h1>{link}</body></html>", content_type="text/html")

    def refund(self, asked: dict) -> Response:
        """v3 domestic refund: only a paid trade, never more than it took; one refund per out_refund_no
        (asked again, it answers the same refund)."""
        if self.refuse_refunds:
            return self.signed({"code": "NOT_ENOUGH", "message": "基本账户余额不足"}, 403)
        known = self.refunds.get(asked["out_refund_no"])
        if known is not None:
            return self.signed(known)
        trade = self.trades.get(asked.get("out_trade_no", ""))
        if trade is None or trade["trade_state"] != "SUCCESS":
            return self.signed({"code": "RESOURCE_NOT_EXISTS", "message": "订单不存在"}, 404)
        amount = asked["amount"]
        if amount["total"] != trade["amount"]["total"] or amount["refund"] > amount["total"]:
            return self.signed({"code": "PARAM_ERROR", "message": "退款金额无效"}, 400)
        done = {
            "refund_id": "5030" + secrets.token_hex(12),
            "out_refund_no": asked["out_refund_no"],
            "transaction_id": trade.get("transaction_id", ""),
            "out_trade_no": trade["out_trade_no"],
            "status": "SUCCESS",
            "amount": {**amount, "payer_refund": amount["refund"]},
        }
        self.refunds[asked["out_refund_no"]] = done
        return self.signed(done)

    def transaction(self, trade: dict, total: int | None = None) -> dict:
        amount = trade["amount"]["total"] if total is None else total
        return {
            "appid": self.appid,
            "mchid": self.mchid,
            "out_trade_no": trade["out_trade_no"],
            "transaction_id": trade.get("transaction_id", ""),
            "trade_type": trade["kind"].upper(),
            "trade_state": trade["trade_state"],
            "trade_state_desc": "",
            "success_time": datetime.now(UTC).isoformat(),
            "payer": {"openid": "o-fake-payer"},
            "amount": {"total": amount, "payer_total": amount, "currency": "CNY", "payer_currency": "CNY"},
        }

    def pay(self, out_trade_no: str, total: int | None = None, key=None) -> tuple[dict, bytes]:
        """The payer paid: the notification WeChat sends (headers, body), signed (by `key` if given)."""
        trade = self.trades[out_trade_no]
        trade["trade_state"] = "SUCCESS"
        trade.setdefault("transaction_id", "4200" + secrets.token_hex(12))
        resource = self.encrypt(json.dumps(self.transaction(trade, total)), "transaction")
        body = {
            "id": secrets.token_hex(18),
            "create_time": datetime.now(UTC).isoformat(),
            "resource_type": "encrypt-resource",
            "event_type": "TRANSACTION.SUCCESS",
            "summary": "支付成功",
            "resource": {**resource, "original_type": "transaction"},
        }
        response = self.signed(body, key=key)
        headers = {k: v for k, v in response.headers.items() if k.startswith("Wechatpay")}
        headers["Content-Type"] = "application/json"
        return headers, response.get_data()

    def deliver(self, out_trade_no: str) -> int:
        headers, body = self.pay(out_trade_no)
        return requests.post(
            self.trades[out_trade_no]["notify_url"], data=body, headers=headers, timeout=10
        ).status_code
