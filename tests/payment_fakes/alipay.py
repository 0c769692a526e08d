"""Alipay (RSA2) fake (see tests/payment_fakes/__init__.py)."""

from __future__ import annotations

import json
import secrets
from datetime import UTC, datetime
from decimal import Decimal
from urllib.parse import parse_qsl, urlencode

import requests
from werkzeug.wrappers import Request, Response

from tests.payment_fakes.keys import HttpFake, new_key, private_pem, public_pem, rsa_sign, rsa_verify

# ---- Alipay ----------------------------------------------------------------------------------------------------


def alipay_text(params: dict, request: bool = False) -> str:
    """What is signed: every parameter but sign (and, in notifications, sign_type), sorted, k=v joined
    by &, unencoded (Alipay's RSA2 scheme: requests keep sign_type in the signed text, notifications not)."""
    left_out = ("sign",) if request else ("sign", "sign_type")
    return "&".join(f"{k}={v}" for k, v in sorted(params.items()) if k not in left_out and v != "")


class AlipayFake(HttpFake):
    def __init__(self, port: int = 0):
        super().__init__(port)
        self.appid = "2021000000000001"
        self.app_key, self.alipay_key = new_key(), new_key()
        self.trades: dict[str, dict] = {}
        self.refused: list[str] = []
        self.refunds: dict[str, dict] = {}  # out_request_no -> the refund

    def merchant_config(self, **extra) -> dict:
        return {
            "appid": self.appid,
            "appPrivateKey": private_pem(self.app_key),
            "alipayPublicKey": public_pem(self.alipay_key),
            "gateway": f"{self.url}/gateway.do",
            **extra,
        }

    def handle(self, request: Request) -> Response:
        if request.path == "/favicon.ico":  # the cashier page's icon, asked for by the payer's browser
            return Response(status=204)
        if request.path.startswith("/fake/pay/"):  # the payer pays: notify, then back to return_url
            code = request.path.rsplit("/", 1)[-1]
            self.deliver(code)
            back = self.trades[code].get("return_url")
            if back:
                return Response(status=302, headers={"Location": self.return_location(code, back)})
            return Response("<html><body><h1 id='paid'>paid</h1></body></html>", content_type="text/html")
        params = dict(parse_qsl(request.query_string.decode(), keep_blank_values=True))
        params.update(request.form.to_dict())
        if params.get("app_id") != self.appid or not rsa_verify(
            self.app_key.public_key(), alipay_text(params, request=True), params.get("sign", "")
        ):
            self.refused.append(params.get("method", "?"))
            return Response("invalid-signature", 400)
        biz = json.loads(params.get("biz_content") or "{}")
        method = params["method"]
        if method in ("alipay.trade.page.pay", "alipay.trade.wap.pay", "alipay.trade.app.pay"):
            code = biz["out_trade_no"]
            self.trades[code] = {
                **biz,
                "method": method,
                "notify_url": params.get("notify_url"),
                "return_url": params.get("return_url"),
                "trade_status": "WAIT_BUYER_PAY",
            }
            link = f"<a id='pay' href='/fake/pay/{code}'>pay {biz['total_amount']}</a>"
            page = f"<html><body><h1>Alipay</h1>{link}</body></html>"
            return Response(page, content_type="text/html")
        if method == "alipay.trade.query":
            trade = self.trades.get(biz.get("out_trade_no"), {})
            inner = {
                "code": "10000",
                "msg": "Success",
                "out_trade_no": biz.get("out_trade_no"),
                "trade_no": trade.get("trade_no", ""),
                "trade_status": trade.get("trade_status", "WAIT_BUYER_PAY"),
                "total_amount": trade.get("total_amount", "0.00"),
            }
            text = json.dumps(inner, separators=(",", ":"))
            sign = rsa_sign(self.alipay_key, text)
            body = '{"alipay_trade_query_response":' + text + ',"sign":"' + sign + '"}'
            return Response(body, content_type="application/json")
        if method == "alipay.trade.refund":
            return self.refund(biz)
        return Response("unknown method", 400)

    def signed_answer(self, name: str, inner: dict) -> Response:
        text = json.dumps(inner, separators=(",", ":"))
        body = '{"' + name + '":' + text + ',"sign":"' + rsa_sign(self.alipay_key, text) + '"}'
        return Response(body, content_type="application/json")

    def refund(self, biz: dict) -> Response:
        """alipay.trade.refund: a paid trade, at most its amount; one refund per out_request_no."""
        name = "alipay_trade_refund_response"
        known = self.refunds.get(biz.get("out_request_no", ""))
        if known is not None:
            return self.signed_answer(name, known)
        trade = self.trades.get(biz.get("out_trade_no", ""), {})
        if trade.get("trade_status") != "TRADE_SUCCESS":
            failed = {
                "code": "40004",
                "msg": "Business Failed",
                "sub_code": "ACQ.TRADE_NOT_EXIST",
                "sub_msg": "交易不存在",
            }
            return self.signed_answer(name, failed)
        if Decimal(biz["refund_amount"]) > Decimal(trade["total_amount"]):
            failed = {
                "code": "40004",
                "msg": "Business Failed",
                "sub_code": "ACQ.REFUND_AMT_NOT_EQUAL_TOTAL",
                "sub_msg": "退款金额超限",
            }
            return self.signed_answer(name, failed)
        done = {
            "code": "10000",
            "msg": "Success",
            "trade_no": trade["trade_no"],
            "out_trade_no": biz["out_trade_no"],
            "refund_fee": biz["refund_amount"],
            "fund_change": "Y",
        }
        self.refunds[biz["out_request_no"]] = done
        return self.signed_answer(name, done)

    def notification(self, out_trade_no: str, total_amount: str | None = None, key=None) -> dict:
        trade = self.trades[out_trade_no]
        trade["trade_status"] = "TRADE_SUCCESS"
        trade.setdefault("trade_no", datetime.now(UTC).strftime("%Y%m%d") + secrets.token_hex(8))
        form = {
            "notify_time": datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S"),
            "notify_type": "trade_status_sync",
            "notify_id": secrets.token_hex(16),
            "app_id": self.appid,
            "charset": "utf-8",
            "version": "1.0",
            "sign_type": "RSA2",
            "trade_no": trade["trade_no"],
            "out_trade_no": out_trade_no,
            "trade_status": "TRADE_SUCCESS",
            "total_amount": total_amount or trade["total_amount"],
            "receipt_amount": total_amount or trade["total_amount"],
            "subject": trade.get("subject", ""),
        }
        form["sign"] = rsa_sign(key or self.alipay_key, alipay_text(form))
        return form

    def return_location(self, out_trade_no: str, back: str) -> str:
        """Alipay's synchronous return: the payer's browser back at return_url with the trade's
        fields signed (the notification, not this, is what settles the order)."""
        trade = self.trades[out_trade_no]
        fields = {
            "charset": "utf-8",
            "out_trade_no": out_trade_no,
            "method": f"{trade['method']}.return",
            "total_amount": trade["total_amount"],
            "trade_no": trade["trade_no"],
            "auth_app_id": self.appid,
            "version": "1.0",
            "app_id": self.appid,
            "sign_type": "RSA2",
            "seller_id": "2088000000000001",
            "timestamp": datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S"),
        }
        fields["sign"] = rsa_sign(self.alipay_key, alipay_text(fields))
        return back + ("&" if "?" in back else "?") + urlencode(fields)

    def deliver(self, out_trade_no: str) -> int:
        form = self.notification(out_trade_no)
        return requests.post(self.trades[out_trade_no]["notify_url"], data=form, timeout=10).status_code
