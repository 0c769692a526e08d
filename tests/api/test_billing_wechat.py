"""WeChat Pay end to end against the local fake: the SDK's real signing, verification and decryption
run; a paid notification extends the devices once; a replay, a forgery and a wrong amount change nothing."""

from __future__ import annotations

from sqlalchemy import select

from api.billing.models import Order, PaymentNotice
from api.extensions.db import db
from tests.api.account_helpers import auth, login, make_account
from tests.api.billing_helpers import (
    BILLING,
    PAYMENT,
    YEAR_DATA,
    YEAR_FEE,
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
from tests.payment_fakes import new_key

__all__ = ["alipay_fake", "guids", "operator", "paypal_fake", "shop", "wechat_fake"]


def notices(app) -> list[str]:
    with app.app_context():
        return list(db.session.scalars(select(PaymentNotice.outcome).order_by(PaymentNotice.id)))


def prepay(client, shop, order) -> dict:
    url = f"{PAYMENT}/payment/wechatPay?orderCode={order['orderCode']}&tradeType=native"
    return ok(client.get(url, headers=shop["buyer"]))


def test_a_paid_notification_extends_both_devices_once(app, client, operator, shop, wechat_fake):
    merchant(client, operator, "wechat", wechat_fake.merchant_config())
    before = expiries(app, shop["devices"])
    sms_before = counts(app, shop["devices"])
    order = order_year(client, shop)
    assert order["payFee"] == order["orderFee"] == 2 * (YEAR_FEE + YEAR_DATA)
    assert order["payStatus"] == "unpaid"

    paying = prepay(client, shop, order)
    assert paying["codeUrl"].startswith("weixin://wxpay/bizpayurl?pr=")
    assert wechat_fake.trades[order["orderCode"]]["amount"] == {"total": order["payFee"], "currency": "CNY"}
    assert wechat_fake.refused == []  # the SDK signed the request as WeChat expects

    headers, body = wechat_fake.pay(order["orderCode"])
    assert client.post(f"{PAYMENT}/notify/wechat", data=body, headers=headers).status_code == 204
    after = expiries(app, shop["devices"])
    assert after == [in_months(b, 12) for b in before]
    assert counts(app, shop["devices"]) == sms_before
    paid = ok(client.get(f"{PAYMENT}/PayOrder/get?orderCode={order['orderCode']}", headers=shop["buyer"]))
    assert paid["payStatus"] == "paid" and paid["payType"] == "wechat_native"

    # WeChat delivers again (it retries until it sees success): nothing is extended twice.
    assert client.post(f"{PAYMENT}/notify/wechat", data=body, headers=headers).status_code == 204
    assert expiries(app, shop["devices"]) == after
    assert notices(app) == ["applied", "duplicate"]


def test_a_forged_notification_is_refused_and_logged(app, client, operator, shop, wechat_fake):
    merchant(client, operator, "wechat", wechat_fake.merchant_config())
    before = expiries(app, shop["devices"])
    order = order_year(client, shop)
    prepay(client, shop, order)
    headers, body = wechat_fake.pay(order["orderCode"], key=new_key())  # not the platform's key
    response = client.post(f"{PAYMENT}/notify/wechat", data=body, headers=headers)
    assert response.status_code == 401 and response.get_json()["code"] == "FAIL"
    tampered_headers, genuine = wechat_fake.pay(order["orderCode"])
    tampered = genuine.replace(b'"summary"', b'"summary2"')
    assert client.post(f"{PAYMENT}/notify/wechat", data=tampered, headers=tampered_headers).status_code == 401
    assert expiries(app, shop["devices"]) == before
    assert notices(app) == ["forged", "forged"]
    with app.app_context():
        assert db.session.scalar(select(Order.pay_status)) == "unpaid"


def test_an_amount_that_is_not_the_orders_is_refused(app, client, operator, shop, wechat_fake):
    merchant(client, operator, "wechat", wechat_fake.merchant_config())
    before = expiries(app, shop["devices"])
    order = order_year(client, shop)
    prepay(client, shop, order)
    headers, body = wechat_fake.pay(order["orderCode"], total=1)  # genuine signature, one cent paid
    assert client.post(f"{PAYMENT}/notify/wechat", data=body, headers=headers).status_code == 401
    assert expiries(app, shop["devices"]) == before
    assert notices(app) == ["amount_mismatch"]


def test_confirm_pay_asks_wechat_when_the_notification_is_late(app, client, operator, shop, wechat_fake):
    merchant(client, operator, "wechat", wechat_fake.merchant_config())
    before = expiries(app, shop["devices"])
    order = order_year(client, shop)
    prepay(client, shop, order)
    url = f"{PAYMENT}/PayOrder/confirmPay?orderCode={order['orderCode']}"
    assert ok(client.get(url, headers=shop["buyer"]))["payStatus"] == "unpaid"  # not paid yet: WeChat says NOTPAY
    wechat_fake.pay(order["orderCode"])  # paid; the notification is lost
    assert ok(client.get(url, headers=shop["buyer"]))["payStatus"] == "paid"
    assert expiries(app, shop["devices"]) == [in_months(b, 12) for b in before]


def test_the_open_id_comes_from_the_oauth_code_and_pays_in_the_messaging_browser(client, operator, shop, wechat_fake):
    merchant(client, operator, "wechat", wechat_fake.merchant_config())
    open_id = ok(client.get(f"{PAYMENT}/payment/getOpenId?code=abc", headers=shop["buyer"]))["openId"]
    order = order_year(client, shop)
    url = f"{PAYMENT}/payment/wechatPay?orderCode={order['orderCode']}&tradeType=jsapi&openId={open_id}"
    jsapi = ok(client.get(url, headers=shop["buyer"]))["jsapi"]
    assert jsapi["package"].startswith("prepay_id=") and jsapi["signType"] == "RSA" and jsapi["paySign"]
    assert wechat_fake.trades[order["orderCode"]]["payer"] == {"openid": "o-fake-abc"}


def test_no_merchant_means_payment_failed(client, shop):
    order = order_year(client, shop)
    body = client.get(f"{PAYMENT}/payment/wechatPay?orderCode={order['orderCode']}", headers=shop["buyer"]).get_json()
    assert body["code"] == 3003 and body["msg"] == "支付失败"


def test_another_account_never_sees_or_pays_my_order(app, client, operator, shop, wechat_fake):
    merchant(client, operator, "wechat", wechat_fake.merchant_config())
    order = order_year(client, shop)
    make_account(app, user_name="other_buyer")
    other = auth(login(client, "other_buyer"))
    for url in (
        f"{PAYMENT}/PayOrder/get?orderCode={order['orderCode']}",
        f"{PAYMENT}/payment/wechatPay?orderCode={order['orderCode']}",
        f"{PAYMENT}/PayOrder/confirmPay?orderCode={order['orderCode']}",
        f"{BILLING}/Order/detail/{order['id']}",
    ):
        assert client.get(url, headers=other).status_code == 404, url
    page = ok(client.post(f"{BILLING}/Order/page", json={}, headers=other))
    assert page["total"] == 0
    assert order["orderCode"] not in wechat_fake.trades


def test_a_refund_goes_back_through_wechat_once_and_takes_the_service_back(app, client, operator, shop, wechat_fake):
    merchant(client, operator, "wechat", wechat_fake.merchant_config())
    before = expiries(app, shop["devices"])
    order = order_year(client, shop)
    prepay(client, shop, order)
    headers, body = wechat_fake.pay(order["orderCode"])
    assert client.post(f"{PAYMENT}/notify/wechat", data=body, headers=headers).status_code == 204
    paid = expiries(app, shop["devices"])

    # The provider refuses (no balance): the order stays paid, the service stays.
    wechat_fake.refuse_refunds = True
    refused = client.put(f"{BILLING}/OrderAdmin/refund", json={"id": order["id"]}, headers=operator).get_json()
    assert refused["code"] == 3009 and "NOT_ENOUGH" in refused["msg"], refused
    assert expiries(app, shop["devices"]) == paid and wechat_fake.refunds == {}

    wechat_fake.refuse_refunds = False
    refunded = ok(client.put(f"{BILLING}/OrderAdmin/refund", json={"id": order["id"]}, headers=operator))
    [refund] = wechat_fake.refunds.values()
    assert refund["out_refund_no"] == f"RF{order['orderCode']}"
    assert refund["amount"]["refund"] == refund["amount"]["total"] == order["payFee"]
    assert refunded["payStatus"] == "refunded" and refunded["refundId"] == refund["refund_id"]
    assert expiries(app, shop["devices"]) == before
    assert wechat_fake.refused == []  # the SDK signed the refund as WeChat expects

    again = client.put(f"{BILLING}/OrderAdmin/refund", json={"id": order["id"]}, headers=operator).get_json()
    assert again["code"] == 3006 and len(wechat_fake.refunds) == 1
