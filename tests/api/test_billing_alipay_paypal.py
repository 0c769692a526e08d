"""Alipay (RSA2, python-alipay-sdk) and PayPal (paypal-server-sdk, verify-webhook-signature) against
their local fakes: paid once, replays change nothing, forged or wrong amounts are refused."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlsplit

import requests
from sqlalchemy import select

from api.billing.models import PaymentNotice
from api.extensions.db import db
from tests.api.billing_helpers import (
    BILLING,
    PAYMENT,
    alipay_fake,
    expiries,
    in_months,
    merchant,
    ok,
    operator,
    order_year,
    paypal_fake,
    shop,
)
from tests.api.device_helpers import guids
from tests.payment_fakes import alipay_text, new_key, rsa_verify

__all__ = ["alipay_fake", "guids", "operator", "paypal_fake", "shop"]


def notices(app) -> list[str]:
    with app.app_context():
        return list(db.session.scalars(select(PaymentNotice.outcome).order_by(PaymentNotice.id)))


def test_alipay_page_pay_is_signed_and_its_notification_applies_once(app, client, operator, shop, alipay_fake):
    merchant(client, operator, "alipay", alipay_fake.merchant_config())
    before = expiries(app, shop["devices"])
    order = order_year(client, shop)
    url = ok(client.get(f"{PAYMENT}/payment/aliPay?orderCode={order['orderCode']}", headers=shop["buyer"]))["payUrl"]
    params = dict(parse_qsl(urlsplit(url).query))
    assert params["method"] == "alipay.trade.page.pay" and params["sign_type"] == "RSA2"
    assert rsa_verify(alipay_fake.app_key.public_key(), alipay_text(params, request=True), params["sign"])
    cashier = requests.get(url, timeout=10)  # the browser opens the cashier: the fake checks the signature
    assert cashier.status_code == 200 and "pay 440.00" in cashier.text

    form = alipay_fake.notification(order["orderCode"])
    first = client.post(f"{PAYMENT}/notify/alipay", data=form)
    assert first.get_data(as_text=True) == "success"
    after = expiries(app, shop["devices"])
    assert after == [in_months(b, 12) for b in before]
    assert client.post(f"{PAYMENT}/notify/alipay", data=form).get_data(as_text=True) == "success"
    assert expiries(app, shop["devices"]) == after
    assert notices(app) == ["applied", "duplicate"]


def test_alipay_refuses_forged_and_wrong_amounts(app, client, operator, shop, alipay_fake):
    merchant(client, operator, "alipay", alipay_fake.merchant_config())
    before = expiries(app, shop["devices"])
    order = order_year(client, shop)
    url = f"{PAYMENT}/payment/aliPay?orderCode={order['orderCode']}&mode=wap"
    pay_url = ok(client.get(url, headers=shop["buyer"]))["payUrl"]
    assert "alipay.trade.wap.pay" in pay_url
    assert requests.get(pay_url.replace("sign=", "sign=A"), timeout=10).status_code == 400  # the fake checks
    assert requests.get(pay_url, timeout=10).status_code == 200
    forged = alipay_fake.notification(order["orderCode"], key=new_key())
    assert client.post(f"{PAYMENT}/notify/alipay", data=forged).get_data(as_text=True) == "failure"
    tampered = {**alipay_fake.notification(order["orderCode"]), "total_amount": "0.01"}
    assert client.post(f"{PAYMENT}/notify/alipay", data=tampered).get_data(as_text=True) == "failure"
    cheap = alipay_fake.notification(order["orderCode"], total_amount="0.01")  # genuine, but one cent
    assert client.post(f"{PAYMENT}/notify/alipay", data=cheap).get_data(as_text=True) == "failure"
    assert expiries(app, shop["devices"]) == before
    assert notices(app) == ["forged", "forged", "amount_mismatch"]


def test_alipay_confirm_pay_queries_the_trade(app, client, operator, shop, alipay_fake):
    merchant(client, operator, "alipay", alipay_fake.merchant_config())
    order = order_year(client, shop)
    app_string = ok(client.get(f"{PAYMENT}/payment/aliAppPay?orderCode={order['orderCode']}", headers=shop["buyer"]))
    assert "alipay.trade.app.pay" in app_string["orderString"]
    ok(client.get(f"{PAYMENT}/payment/aliPay?orderCode={order['orderCode']}", headers=shop["buyer"]))
    requests.get(
        ok(client.get(f"{PAYMENT}/payment/aliPay?orderCode={order['orderCode']}", headers=shop["buyer"]))["payUrl"],
        timeout=10,
    )
    alipay_fake.notification(order["orderCode"])  # paid at Alipay; the notification is lost
    confirmed = ok(client.get(f"{PAYMENT}/PayOrder/confirmPay?orderCode={order['orderCode']}", headers=shop["buyer"]))
    assert confirmed["payStatus"] == "paid" and confirmed["payType"] == "alipay_page"


def test_paypal_checkout_capture_and_verified_webhook(app, client, operator, shop, paypal_fake):
    merchant(client, operator, "paypal", paypal_fake.merchant_config())
    before = expiries(app, shop["devices"])
    order = order_year(client, shop)
    approve = ok(client.get(f"{PAYMENT}/payment/payPal?orderCode={order['orderCode']}", headers=shop["buyer"]))
    back = requests.get(approve["approveUrl"], allow_redirects=False, timeout=10)  # the payer approves at PayPal
    assert back.status_code == 302
    assert f"/mobilePay/paypal/callback?orderCode={order['orderCode']}&token=" in back.headers["Location"]
    token = dict(parse_qsl(urlsplit(back.headers["Location"]).query))["token"]
    url = f"{PAYMENT}/PayOrder/confirmPay?orderCode={order['orderCode']}&token={token}"
    assert ok(client.get(url, headers=shop["buyer"]))["payStatus"] == "paid"  # captured on the callback page
    after = expiries(app, shop["devices"])
    assert after == [in_months(b, 12) for b in before]

    headers, event = paypal_fake.webhook(token)
    assert client.post(f"{PAYMENT}/notify/paypal", json=event, headers=headers).status_code == 200
    forged_headers, forged_event = paypal_fake.webhook(token, key=new_key())
    assert client.post(f"{PAYMENT}/notify/paypal", json=forged_event, headers=forged_headers).status_code == 400
    cheap_headers, cheap = paypal_fake.webhook(token, value="0.01")  # PayPal-signed, but not the order's amount
    assert client.post(f"{PAYMENT}/notify/paypal", json=cheap, headers=cheap_headers).status_code == 400
    assert expiries(app, shop["devices"]) == after
    assert notices(app) == ["applied", "duplicate", "forged", "amount_mismatch"]


def test_paypal_refuses_a_capture_before_approval(client, operator, shop, paypal_fake):
    merchant(client, operator, "paypal", paypal_fake.merchant_config())
    order = order_year(client, shop)
    ok(client.get(f"{PAYMENT}/payment/payPal?orderCode={order['orderCode']}", headers=shop["buyer"]))
    body = client.get(f"{PAYMENT}/PayOrder/confirmPay?orderCode={order['orderCode']}", headers=shop["buyer"])
    assert body.get_json()["code"] == 3003


def test_alipay_refund_goes_back_once(app, client, operator, shop, alipay_fake):
    merchant(client, operator, "alipay", alipay_fake.merchant_config())
    before = expiries(app, shop["devices"])
    order = order_year(client, shop)
    url = ok(client.get(f"{PAYMENT}/payment/aliPay?orderCode={order['orderCode']}", headers=shop["buyer"]))["payUrl"]
    assert requests.get(url, timeout=10).status_code == 200  # the payer opens the cashier and pays
    assert client.post(f"{PAYMENT}/notify/alipay", data=alipay_fake.notification(order["orderCode"])).status_code == 200
    refunded = ok(client.put(f"{BILLING}/OrderAdmin/refund", json={"id": order["id"]}, headers=operator))
    [refund] = alipay_fake.refunds.values()
    assert refund["refund_fee"] == "440.00" and refund["out_trade_no"] == order["orderCode"]
    assert refunded["payStatus"] == "refunded" and expiries(app, shop["devices"]) == before
    assert alipay_fake.refused == []


def test_paypal_refund_of_the_capture(app, client, operator, shop, paypal_fake):
    merchant(client, operator, "paypal", paypal_fake.merchant_config())
    order = order_year(client, shop)
    approve = ok(client.get(f"{PAYMENT}/payment/payPal?orderCode={order['orderCode']}", headers=shop["buyer"]))
    back = requests.get(approve["approveUrl"], allow_redirects=False, timeout=10)
    token = dict(parse_qsl(urlsplit(back.headers["Location"]).query))["token"]
    ok(client.get(f"{PAYMENT}/PayOrder/confirmPay?orderCode={order['orderCode']}&token={token}", headers=shop["buyer"]))
    refunded = ok(client.put(f"{BILLING}/OrderAdmin/refund", json={"id": order["id"]}, headers=operator))
    [(request_id, refund)] = paypal_fake.refunds.items()
    assert request_id == f"RF{order['orderCode']}" and refund["amount"]["value"] == "440.00"
    assert refunded["refundId"] == refund["id"] and refunded["payStatus"] == "refunded"
