"""PayPal checkout through PayPal's own `paypal-server-sdk`: an order is created with the
/mobilePay/paypal/callback and /cancel pages as return and cancel URLs, captured when the payer comes
back, and webhooks are verified with PayPal's verify-webhook-signature call (the SDK has none).

Merchant config: clientId, clientSecret, webhookId; optional gateway (the sandbox or the local fake).
"""

from __future__ import annotations

from paypalserversdk.configuration import Configuration, Environment, Server
from paypalserversdk.http.auth.o_auth_2 import ClientCredentialsAuthCredentials
from paypalserversdk.models.amount_with_breakdown import AmountWithBreakdown
from paypalserversdk.models.checkout_payment_intent import CheckoutPaymentIntent
from paypalserversdk.models.order_application_context import OrderApplicationContext
from paypalserversdk.models.order_request import OrderRequest
from paypalserversdk.models.purchase_unit_request import PurchaseUnitRequest
from paypalserversdk.paypal_serversdk_client import PaypalServersdkClient

from api.billing.alipay import cents_of, yuan
from api.extensions import outbound

GATEWAY = "https://api-m.paypal.com"
TIMEOUT = 20


class PayPalError(Exception):
    pass


def client(config: dict) -> PaypalServersdkClient:
    configuration = Configuration(
        environment=Environment.PRODUCTION,
        timeout=TIMEOUT,
        client_credentials_auth_credentials=ClientCredentialsAuthCredentials(
            o_auth_client_id=config["clientId"], o_auth_client_secret=config["clientSecret"]
        ),
    )
    # The SDK's environments are PayPal's two hosts; a configured gateway (the local fake) replaces them.
    configuration.environments = {Environment.PRODUCTION: {Server.DEFAULT: gateway(config)}}
    return PaypalServersdkClient(config=configuration)


def gateway(config: dict) -> str:
    """The configured gateway (the sandbox, the local fake) or PayPal's host, checked before use."""
    try:
        return outbound.check_url(config.get("gateway") or GATEWAY)
    except outbound.OutboundRefusedError as refused:
        raise PayPalError(f"gateway refused: {refused}") from None


def create_checkout(config: dict, order_code: str, currency: str, cents: int, return_url: str, cancel_url: str):
    """PayPal's order id and the approval link the payer opens."""
    body = OrderRequest(
        intent=CheckoutPaymentIntent.CAPTURE,
        purchase_units=[
            PurchaseUnitRequest(
                amount=AmountWithBreakdown(currency_code=currency, value=yuan(cents)),
                reference_id=order_code,
                custom_id=order_code,
            )
        ],
        application_context=OrderApplicationContext(
            return_url=return_url, cancel_url=cancel_url, user_action="PAY_NOW"
        ),
    )
    try:
        answer = client(config).orders.create_order({"body": body, "prefer": "return=representation"}).body
    except Exception as error:  # transport errors and PayPal's error answers
        raise PayPalError(str(error)) from error
    approve = next((link.href for link in answer.links or [] if link.rel in ("approve", "payer-action")), None)
    if not answer.id or not approve:
        raise PayPalError("no approval link")
    return answer.id, approve


def capture(config: dict, paypal_order_id: str) -> dict:
    """Capture an approved order: {status, captureId, orderCode, cents, currency}."""
    try:
        answer = client(config).orders.capture_order({"id": paypal_order_id, "prefer": "return=representation"}).body
    except Exception as error:
        raise PayPalError(str(error)) from error
    unit = answer.purchase_units[0]
    captured = unit.payments.captures[0]
    return {
        "status": captured.status,
        "captureId": captured.id,
        "orderCode": captured.custom_id or unit.custom_id or unit.reference_id,
        "cents": cents_of(captured.amount.value),
        "currency": captured.amount.currency_code,
    }


def refund(config: dict, capture_id: str, refund_no: str, cents: int, currency: str) -> str:
    """Refund a captured payment; `refund_no` is the PayPal-Request-Id, so a retry is the same refund.
    Returns PayPal's refund id."""
    body = {"amount": {"value": yuan(cents), "currency_code": currency}}
    try:
        answer = (
            client(config)
            .payments.refund_captured_payment(
                {
                    "capture_id": capture_id,
                    "paypal_request_id": refund_no,
                    "body": body,
                    "prefer": "return=representation",
                }
            )
            .body
        )
    except Exception as error:
        raise PayPalError(str(error)) from error
    if answer.status not in ("COMPLETED", "PENDING"):
        raise PayPalError(f"refund {answer.status}")
    return answer.id


HEADERS = {
    "auth_algo": "Paypal-Auth-Algo",
    "cert_url": "Paypal-Cert-Url",
    "transmission_id": "Paypal-Transmission-Id",
    "transmission_sig": "Paypal-Transmission-Sig",
    "transmission_time": "Paypal-Transmission-Time",
}


def verify_webhook(config: dict, headers, event: dict) -> bool:
    """Ask PayPal whether this webhook delivery is genuine (its verify-webhook-signature call)."""
    fields = {name: headers.get(header) for name, header in HEADERS.items()}
    if not all(fields.values()):
        return False
    try:
        token = client(config).auth_managers["Oauth2"].fetch_token().access_token
        response = outbound.session().post(
            gateway(config) + "/v1/notifications/verify-webhook-signature",
            json={**fields, "webhook_id": config["webhookId"], "webhook_event": event},
            headers={"Authorization": f"Bearer {token}"},
            timeout=TIMEOUT,
        )
    except Exception:  # PayPal unreachable: not verified, PayPal retries the delivery
        return False
    return response.ok and response.json().get("verification_status") == "SUCCESS"
