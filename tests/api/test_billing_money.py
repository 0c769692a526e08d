"""Money (issue 44), through the api on the local provider fakes: an order is charged only in its own
currency by a provider that takes it, and a notification must name the order's amount AND currency;
settlement refuses orders no longer unpaid (a closed order's late payment goes back through the
provider, its coupon never counts twice); a refund takes back exactly what its order gave, tells the
operator what it took back, and no invoice is issued for a refunded order."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import requests
from sqlalchemy import select

from api.billing.models import Order, PaymentNotice
from api.billing.orders import close_stale
from api.device.models import Device, DeviceEvent
from api.extensions.db import db, utcnow
from tests.api.billing_helpers import (
    BILLING,
    PAYMENT,
    alipay_fake,
    counts,
    expiries,
    in_months,
    merchant,
    ok,
    operator,
    order_year,
    paypal_fake,
    shop,
    wechat_fake,
)
from tests.api.device_helpers import guids

__all__ = ["alipay_fake", "guids", "operator", "paypal_fake", "shop", "wechat_fake"]
USD_100 = 10000  # an SMS pack of USD 100.00


def notices(app) -> list[str]:
    with app.app_context():
        return list(db.session.scalars(select(PaymentNotice.outcome).order_by(PaymentNotice.id)))


def dollar_order(client, operator, shop) -> dict:
    """An SMS pack of USD 100.00 for one device: the order is in dollars, from the catalogue."""
    pack = {"kind": "sms", "name": "SMS 100 USD", "count": 100, "fee": USD_100, "currency": "USD"}
    made = ok(client.post(f"{BILLING}/MessagePack/insert", json=pack, headers=operator))
    body = {"deviceIds": shop["devices"][:1], "smsPackId": made["id"]}
    order = ok(client.post(f"{BILLING}/Order/insert", json=body, headers=shop["buyer"]))
    assert order["currency"] == "USD" and order["payFee"] == USD_100
    return order


def test_wechat_and_alipay_refuse_a_dollar_order_paypal_charges_it_in_dollars(
    app, client, operator, shop, wechat_fake, alipay_fake, paypal_fake
):
    for provider, fake in (("wechat", wechat_fake), ("alipay", alipay_fake), ("paypal", paypal_fake)):
        merchant(client, operator, provider, fake.merchant_config())
    order = dollar_order(client, operator, shop)
    code = order["orderCode"]
    wechat = client.get(f"{PAYMENT}/payment/wechatPay?orderCode={code}&tradeType=native", headers=shop["buyer"])
    assert wechat.get_json()["code"] == 3010
    assert wechat.get_json()["msg"] == "微信支付 无法收取以 USD 计价的订单（仅支持 CNY），请选择其他支付方式。"
    english = {**shop["buyer"], "Accept-Language": "en-US"}
    alipay = client.get(f"{PAYMENT}/payment/aliPay?orderCode={code}", headers=english).get_json()
    assert alipay["code"] == 3010 and alipay["msg"].startswith("Alipay cannot charge an order in USD")
    assert client.get(f"{PAYMENT}/payment/aliAppPay?orderCode={code}", headers=english).get_json()["code"] == 3010
    assert code not in wechat_fake.trades and code not in alipay_fake.trades  # never asked to charge

    approve = ok(client.get(f"{PAYMENT}/payment/payPal?orderCode={code}", headers=shop["buyer"]))
    [paypal_order] = paypal_fake.orders.values()
    assert paypal_order["unit"]["amount"] == {"currency_code": "USD", "value": "100.00"}
    assert approve["payFee"] == USD_100


def test_a_yuan_notification_never_pays_a_dollar_order(app, client, operator, shop, wechat_fake, alipay_fake):
    """The example found: USD 100.00 paid through WeChat / Alipay as ¥100.00 and marked paid."""
    merchant(client, operator, "wechat", wechat_fake.merchant_config())
    merchant(client, operator, "alipay", alipay_fake.merchant_config())
    sms_before = counts(app, shop["devices"][:1])
    order = dollar_order(client, operator, shop)
    code = order["orderCode"]
    # Genuinely signed by the providers, for the same number in yuan (a trade opened before the refusal).
    wechat_fake.trades[code] = {"out_trade_no": code, "amount": {"total": USD_100}, "kind": "native"}
    headers, body = wechat_fake.pay(code)
    assert client.post(f"{PAYMENT}/notify/wechat", data=body, headers=headers).status_code == 401
    alipay_fake.trades[code] = {"out_trade_no": code, "total_amount": "100.00", "subject": "SMS"}
    assert client.post(f"{PAYMENT}/notify/alipay", data=alipay_fake.notification(code)).get_data() == b"failure"
    assert notices(app) == ["currency_mismatch", "currency_mismatch"]
    assert ok(client.get(f"{PAYMENT}/PayOrder/get?orderCode={code}", headers=shop["buyer"]))["payStatus"] == "unpaid"
    assert counts(app, shop["devices"][:1]) == sms_before


def test_a_paypal_webhook_in_another_currency_is_refused(app, client, operator, shop, paypal_fake):
    merchant(client, operator, "paypal", paypal_fake.merchant_config())
    order = dollar_order(client, operator, shop)
    approve = ok(client.get(f"{PAYMENT}/payment/payPal?orderCode={order['orderCode']}", headers=shop["buyer"]))
    requests.get(approve["approveUrl"], allow_redirects=False, timeout=10)
    [paypal_order] = paypal_fake.orders.values()
    paypal_order["status"] = "COMPLETED"
    paypal_order["capture"] = {
        "id": "CAPTUREHKD",
        "status": "COMPLETED",
        "amount": {"currency_code": "HKD", "value": "100.00"},  # the same number in Hong Kong dollars
        "custom_id": order["orderCode"],
    }
    headers, event = paypal_fake.webhook(paypal_order["id"])
    assert client.post(f"{PAYMENT}/notify/paypal", json=event, headers=headers).status_code == 400
    assert notices(app) == ["currency_mismatch"]


def _coupon(client, operator) -> str:
    now = datetime.now(UTC)
    batch = {
        "prefix": "C",
        "fee": 100,
        "count": 1,
        "validFrom": (now - timedelta(hours=1)).isoformat(),
        "validTo": (now + timedelta(days=1)).isoformat(),
    }
    return ok(client.post(f"{BILLING}/Coupon/generate", json=batch, headers=operator))[0]["code"]


def _prepay(client, shop, order) -> None:
    ok(
        client.get(
            f"{PAYMENT}/payment/wechatPay?orderCode={order['orderCode']}&tradeType=native", headers=shop["buyer"]
        )
    )


def _notify(client, wechat_fake, order) -> int:
    headers, body = wechat_fake.pay(order["orderCode"])
    return client.post(f"{PAYMENT}/notify/wechat", data=body, headers=headers).status_code


def test_a_closed_orders_late_payment_is_refunded_and_its_coupon_counts_once(app, client, operator, shop, wechat_fake):
    """The example found: a coupon released when its unpaid order closed was used on a second order,
    then the first order's late payment was settled too: both paid at the discount."""
    merchant(client, operator, "wechat", wechat_fake.merchant_config())
    before = expiries(app, shop["devices"])
    coupon = _coupon(client, operator)
    first = order_year(client, shop, couponCode=coupon)
    _prepay(client, shop, first)
    with app.app_context():
        assert close_stale(utcnow() + timedelta(hours=3)) == 1  # the coupon comes back
    second = order_year(client, shop, couponCode=coupon)
    assert second["payFee"] == first["payFee"]  # at the discount, once
    _prepay(client, shop, second)
    assert _notify(client, wechat_fake, second) == 204
    assert _notify(client, wechat_fake, first) == 204  # the old QR code is paid late: accepted, not applied

    assert expiries(app, shop["devices"]) == [in_months(b, 12) for b in before]  # one year, not two
    first_now = ok(client.get(f"{PAYMENT}/PayOrder/get?orderCode={first['orderCode']}", headers=shop["buyer"]))
    assert first_now["payStatus"] == "closed"
    [refund] = wechat_fake.refunds.values()
    assert refund["out_trade_no"] == first["orderCode"] and refund["amount"]["refund"] == first["payFee"]
    assert notices(app) == ["applied", "late_refunded"]
    # WeChat delivers the late payment again: the same refund (named after the order), nothing applied.
    assert _notify(client, wechat_fake, first) == 204
    assert len(wechat_fake.refunds) == 1 and expiries(app, shop["devices"]) == [in_months(b, 12) for b in before]
    # The operator cannot settle the closed order by hand either.
    offline = {"id": first["id"], "reference": "BANK-1"}
    assert client.put(f"{BILLING}/OrderAdmin/confirmOffline", json=offline, headers=operator).get_json()["code"] == 3007


def test_a_late_payment_the_provider_will_not_refund_is_refused_so_it_is_delivered_again(
    app, client, operator, shop, wechat_fake
):
    merchant(client, operator, "wechat", wechat_fake.merchant_config())
    order = order_year(client, shop)
    _prepay(client, shop, order)
    with app.app_context():
        close_stale(utcnow() + timedelta(hours=3))
    wechat_fake.refuse_refunds = True
    assert _notify(client, wechat_fake, order) == 401
    wechat_fake.refuse_refunds = False
    assert _notify(client, wechat_fake, order) == 204
    assert notices(app) == ["late_unrefunded", "late_refunded"] and len(wechat_fake.refunds) == 1


def _paid(app, client, shop, wechat_fake, **extra) -> dict:
    order = order_year(client, shop, **extra)
    _prepay(client, shop, order)
    assert _notify(client, wechat_fake, order) == 204
    return order


def test_a_refund_takes_back_exactly_what_its_order_gave_though_later_orders_extended_the_device(
    app, client, operator, shop, wechat_fake
):
    """The example found: refunded order 2 (12 months + 100 SMS) left the device at 2030 with 149 SMS."""
    merchant(client, operator, "wechat", wechat_fake.merchant_config())
    pack = {"kind": "sms", "name": "SMS 100", "count": 100, "fee": 1000}
    sms_pack = ok(client.post(f"{BILLING}/MessagePack/insert", json=pack, headers=operator))
    before = expiries(app, shop["devices"])
    sms_before = counts(app, shop["devices"])
    _paid(app, client, shop, wechat_fake)
    second = _paid(app, client, shop, wechat_fake, smsPackId=sms_pack["id"])
    _paid(app, client, shop, wechat_fake)
    assert expiries(app, shop["devices"]) == [in_months(b, 36) for b in before]
    with app.app_context():  # the first device has sent all but 70 of its SMS since
        db.session.get(Device, shop["devices"][0]).sms_count = 70
        db.session.commit()

    refunded = ok(client.put(f"{BILLING}/OrderAdmin/refund", json={"id": second["id"]}, headers=operator))
    assert refunded["payStatus"] == "refunded"
    # Order 2's year comes off; what orders 1 and 3 gave stays (the device is not back at order 2's start).
    given = [in_months(b, 24) - in_months(b, 12) for b in before]
    expected = [in_months(b, 36) - g for b, g in zip(before, given, strict=True)]
    assert expiries(app, shop["devices"]) == expected
    (_, voice_a), (sms_b, voice_b) = sms_before
    assert counts(app, shop["devices"]) == [(0, voice_a), (sms_b, voice_b)]
    by_device = {item["deviceId"]: item for item in refunded["reversed"]}
    first_device, other = by_device[shop["devices"][0]], by_device[shop["devices"][1]]
    assert first_device["months"] == 12 and first_device["sms"] == 70 and first_device["smsUsed"] == 30
    assert other["sms"] == 100 and other["smsUsed"] == 0
    assert datetime.fromisoformat(other["expiresAfter"]) == expected[1]
    # The refund's record: on the order (the operator's list) and in each device's events.
    listed = ok(client.post(f"{BILLING}/OrderAdmin/page", json={"orderCode": second["orderCode"]}, headers=operator))
    assert listed["list"][0]["reversed"] == refunded["reversed"]
    with app.app_context():
        events = db.session.scalars(select(DeviceEvent.detail).where(DeviceEvent.action == "refund")).all()
    assert sorted(e["sms"] for e in events) == [70, 100] and {e["orderCode"] for e in events} == {second["orderCode"]}


def test_no_invoice_is_issued_for_a_refunded_order(app, client, operator, shop, wechat_fake):
    merchant(client, operator, "wechat", wechat_fake.merchant_config())
    order = _paid(app, client, shop, wechat_fake)
    info = {"billMode": "personal", "billName": "Me", "personalName": "Buyer", "isDefault": True}
    saved = ok(client.post(f"{BILLING}/InvoiceInfo/insert", json=info, headers=shop["buyer"]))
    asked = {"infoId": saved["id"], "orderIds": [order["id"]]}
    made = ok(client.post(f"{BILLING}/InvoiceRequest/insert", json=asked, headers=shop["buyer"]))
    ok(client.put(f"{BILLING}/OrderAdmin/refund", json={"id": order["id"]}, headers=operator))
    refused = client.put(f"{BILLING}/InvoiceAdmin/issue/{made['id']}", headers=operator).get_json()
    assert refused["code"] == 3303 and refused["msg"] == f"已退款的订单不能开具发票（{order['orderCode']}）。"
    with app.app_context():
        assert db.session.get(Order, order["id"]).invoice_status == "requested"
