"""PayPal fake: OAuth, checkout orders, capture, verify-webhook-signature (see tests/payment_fakes/__init__.py)."""

from __future__ import annotations

import base64
import json
import re
import secrets
import zlib
from datetime import UTC, datetime
from urllib.parse import urlencode

from werkzeug.wrappers import Request, Response

from tests.payment_fakes.keys import HttpFake, new_key, rsa_sign, rsa_verify

# ---- PayPal --------------------------------------------------------------------------------------------------


class PayPalFake(HttpFake):
    def __init__(self, port: int = 0):
        super().__init__(port)
        self.client_id, self.client_secret = "fake-client", secrets.token_hex(12)
        self.webhook_id = "WH-" + secrets.token_hex(6).upper()
        self.signing_key = new_key()
        self.tokens: set[str] = set()
        self.orders: dict[str, dict] = {}
        self.deliveries: dict[str, dict] = {}  # transmission id -> the event it carried
        self.refunds: dict[str, dict] = {}  # PayPal-Request-Id -> the refund

    def merchant_config(self, **extra) -> dict:
        return {
            "clientId": self.client_id,
            "clientSecret": self.client_secret,
            "webhookId": self.webhook_id,
            "gateway": self.url,
            **extra,
        }

    def _json(self, payload: dict, status: int = 200) -> Response:
        return Response(json.dumps(payload), status=status, content_type="application/json")

    def handle(self, request: Request) -> Response:
        path = request.path
        if path == "/v1/oauth2/token":
            expected = base64.b64encode(f"{self.client_id}:{self.client_secret}".encode()).decode()
            if request.headers.get("Authorization") != f"Basic {expected}":
                return self._json({"error": "invalid_client"}, 401)
            token = secrets.token_hex(16)
            self.tokens.add(token)
            return self._json({"access_token": token, "token_type": "Bearer", "expires_in": 32400})
        if path == "/fake/approve":
            order = self.orders[request.args["token"]]
            order["status"] = "APPROVED"
            glue = "&" if "?" in order["return_url"] else "?"
            target = order["return_url"] + glue + urlencode({"token": order["id"], "PayerID": "FAKEPAYER"})
            return Response(status=302, headers={"Location": target})
        if request.headers.get("Authorization", "").removeprefix("Bearer ") not in self.tokens:
            return self._json({"name": "AUTHENTICATION_FAILURE"}, 401)
        if path == "/v2/checkout/orders" and request.method == "POST":
            body = request.get_json()
            unit = body["purchase_units"][0]
            order_id = secrets.token_hex(8).upper()
            context = body.get("application_context", {})
            self.orders[order_id] = {
                "id": order_id,
                "status": "CREATED",
                "unit": unit,
                "return_url": context.get("return_url"),
                "cancel_url": context.get("cancel_url"),
            }
            approve = f"{self.url}/fake/approve?token={order_id}"
            return self._json(
                {
                    "id": order_id,
                    "status": "CREATED",
                    "intent": "CAPTURE",
                    "links": [{"href": approve, "rel": "approve", "method": "GET"}],
                },
                201,
            )
        match = re.fullmatch(r"/v2/checkout/orders/(\w+)/capture", path)
        if match:
            order = self.orders.get(match.group(1))
            if order is None or order["status"] != "APPROVED":
                return self._json({"name": "UNPROCESSABLE_ENTITY", "details": [{"issue": "ORDER_NOT_APPROVED"}]}, 422)
            order["status"] = "COMPLETED"
            unit = order["unit"]
            capture = {
                "id": secrets.token_hex(8).upper(),
                "status": "COMPLETED",
                "amount": unit["amount"],
                "custom_id": unit.get("custom_id"),
            }
            order["capture"] = capture
            return self._json(
                {
                    "id": order["id"],
                    "status": "COMPLETED",
                    "purchase_units": [
                        {
                            "reference_id": unit.get("reference_id"),
                            "custom_id": unit.get("custom_id"),
                            "payments": {"captures": [capture]},
                        }
                    ],
                },
                201,
            )
        match = re.fullmatch(r"/v2/payments/captures/(\w+)/refund", path)
        if match and request.method == "POST":
            return self.refund(match.group(1), request.headers.get("PayPal-Request-Id", ""), request.get_json() or {})
        if path == "/v1/notifications/verify-webhook-signature":
            body = request.get_json()
            sent = self.deliveries.get(body.get("transmission_id"))
            text = f"{body.get('transmission_id')}|{body.get('transmission_time')}|{body.get('webhook_id')}|"
            text += str(zlib.crc32(json.dumps(body.get("webhook_event"), sort_keys=True).encode()))
            ok = (
                sent is not None
                and body.get("webhook_id") == self.webhook_id
                and rsa_verify(self.signing_key.public_key(), text, body.get("transmission_sig", ""))
            )
            return self._json({"verification_status": "SUCCESS" if ok else "FAILURE"})
        return self._json({"name": "RESOURCE_NOT_FOUND"}, 404)

    def refund(self, capture_id: str, request_id: str, body: dict) -> Response:
        """Refund a capture: at most its amount, in its currency; the same PayPal-Request-Id answers the
        same refund (PayPal's idempotency)."""
        if request_id in self.refunds:
            return self._json(self.refunds[request_id], 201)
        capture = next(
            (o["capture"] for o in self.orders.values() if o.get("capture", {}).get("id") == capture_id), None
        )
        if capture is None:
            return self._json({"name": "RESOURCE_NOT_FOUND"}, 404)
        amount = body.get("amount") or capture["amount"]
        if amount["currency_code"] != capture["amount"]["currency_code"] or float(amount["value"]) > float(
            capture["amount"]["value"]
        ):
            return self._json({"name": "UNPROCESSABLE_ENTITY", "details": [{"issue": "REFUND_AMOUNT_EXCEEDED"}]}, 422)
        done = {"id": secrets.token_hex(8).upper(), "status": "COMPLETED", "amount": amount}
        self.refunds[request_id] = done
        return self._json(done, 201)

    def webhook(self, order_id: str, value: str | None = None, key=None) -> tuple[dict, dict]:
        """The PAYMENT.CAPTURE.COMPLETED webhook PayPal sends (headers, event), signed (by `key` if given)."""
        capture = self.orders[order_id]["capture"]
        event = {
            "id": "WH-EVT-" + secrets.token_hex(6).upper(),
            "event_type": "PAYMENT.CAPTURE.COMPLETED",
            "resource_type": "capture",
            "resource": {**capture, "amount": {**capture["amount"], "value": value or capture["amount"]["value"]}},
        }
        transmission_id, sent_at = secrets.token_hex(8), datetime.now(UTC).isoformat()
        text = f"{transmission_id}|{sent_at}|{self.webhook_id}|{zlib.crc32(json.dumps(event, sort_keys=True).encode())}"
        self.deliveries[transmission_id] = event
        headers = {
            "Paypal-Auth-Algo": "SHA256withRSA",
            "Paypal-Cert-Url": f"{self.url}/certs/fake.pem",
            "Paypal-Transmission-Id": transmission_id,
            "Paypal-Transmission-Sig": rsa_sign(key or self.signing_key, text),
            "Paypal-Transmission-Time": sent_at,
        }
        return headers, event
