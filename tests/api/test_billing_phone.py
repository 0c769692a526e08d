"""Paying on a phone (issue 47) through the real routes against the local fakes: WeChat H5 (the cashier
page pays, WeChat's signed and encrypted notification reaches the api over HTTP, the payer is sent back
to the success page), Alipay wap (likewise, back with Alipay's signed return), WeChat JSAPI in the
messaging browser (OAuth code -> open id -> parameters signed for getBrandWCPayRequest, verifiable with
the merchant's public key); a dollar order is still refused; the receipt names seller, buyer and tax."""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlsplit

import requests
from sqlalchemy import select

from api.billing.models import PaymentNotice
from api.extensions.db import db
from api.platform.models import Platform
from tests.api.billing_helpers import (
    BILLING,
    PAYMENT,
    alipay_fake,
    expiries,
    in_months,
    live_api,
    merchant,
    ok,
    operator,
    order_year,
    shop,
    wechat_fake,
)
from tests.api.device_helpers import guids
from tests.payment_fakes import alipay_text, rsa_verify

__all__ = ["alipay_fake", "guids", "live_api", "operator", "shop", "wechat_fake"]
SITE = "https://shop.example.com"  # where the payer's browser comes back (returnBase)
PAY_LINK = re.compile(r"<a id='pay' href='([^']+)'")


def notices(app) -> list[str]:
    with app.app_context():
        return list(db.session.scalars(select(PaymentNotice.outcome).order_by(PaymentNotice.id)))


def paid_order(client, shop, code: str) -> dict:
    return ok(client.get(f"{PAYMENT}/PayOrder/get?orderCode={code}", headers=shop["buyer"]))


def success_url(code: str) -> str:
    return f"{SITE}/mobilePay/success?orderCode={code}"


def test_wechat_h5_cashier_pays_notifies_and_returns_to_the_success_page(
    app, client, operator, shop, wechat_fake, live_api
):
    merchant(client, operator, "wechat", wechat_fake.merchant_config(notifyBase=live_api, returnBase=SITE))
    before = expiries(app, shop["devices"])
    order = order_year(client, shop)
    code = order["orderCode"]
    url = f"{PAYMENT}/payment/wechatPay?orderCode={code}&tradeType=h5"
    h5_url = ok(client.get(url, headers=shop["buyer"]))["h5Url"]
    assert h5_url.startswith(f"{wechat_fake.url}/fake/h5/checkmweb?prepay_id=wx{code}")
    assert dict(parse_qsl(urlsplit(h5_url).query))["redirect_url"] == success_url(code)
    trade = wechat_fake.trades[code]
    assert trade["kind"] == "h5" and trade["scene_info"]["h5_info"] == {"type": "Wap"}
    assert trade["notify_url"] == f"{live_api}/api/payment/notify/wechat"
    assert paid_order(client, shop, code)["payStatus"] == "unpaid"

    cashier = requests.get(h5_url, timeout=10)  # the phone's browser opens WeChat's cashier
    assert cashier.status_code == 200 and "pay 440.00" in cashier.text
    [link] = PAY_LINK.findall(cashier.text)
    back = requests.get(wechat_fake.url + link.replace("&amp;", "&"), timeout=20, allow_redirects=False)
    assert back.status_code == 302 and back.headers["Location"] == success_url(code)

    # The notification went over HTTP, signed and encrypted: the SDK verified and decrypted it.
    assert notices(app) == ["applied"]
    paid = paid_order(client, shop, code)
    assert paid["payStatus"] == "paid" and paid["payType"] == "wechat_h5"
    assert expiries(app, shop["devices"]) == [in_months(b, 12) for b in before]
    assert wechat_fake.refused == []


def test_alipay_wap_pays_notifies_and_returns_signed_to_the_success_page(
    app, client, operator, shop, alipay_fake, live_api
):
    merchant(client, operator, "alipay", alipay_fake.merchant_config(notifyBase=live_api, returnBase=SITE))
    before = expiries(app, shop["devices"])
    order = order_year(client, shop)
    code = order["orderCode"]
    pay_url = ok(client.get(f"{PAYMENT}/payment/aliPay?orderCode={code}&mode=wap", headers=shop["buyer"]))["payUrl"]
    params = dict(parse_qsl(urlsplit(pay_url).query))
    assert params["method"] == "alipay.trade.wap.pay" and params["return_url"] == success_url(code)
    assert params["notify_url"] == f"{live_api}/api/payment/notify/alipay"

    cashier = requests.get(pay_url, timeout=10)
    assert cashier.status_code == 200 and "pay 440.00" in cashier.text
    [link] = PAY_LINK.findall(cashier.text)
    back = requests.get(alipay_fake.url + link, timeout=20, allow_redirects=False)
    assert back.status_code == 302
    location = back.headers["Location"]
    assert location.startswith(success_url(code) + "&")
    returned = dict(parse_qsl(urlsplit(location).query))
    assert returned.pop("orderCode") == code  # the return URL's own query, kept; Alipay signs its fields
    assert returned["out_trade_no"] == code and returned["method"] == "alipay.trade.wap.pay.return"
    assert rsa_verify(alipay_fake.alipay_key.public_key(), alipay_text(returned), returned["sign"])

    assert notices(app) == ["applied"]
    paid = paid_order(client, shop, code)
    assert paid["payStatus"] == "paid" and paid["payType"] == "alipay_wap"
    assert expiries(app, shop["devices"]) == [in_months(b, 12) for b in before]


def test_wechat_jsapi_in_the_messaging_browser_is_signed_with_the_merchant_key(
    app, client, operator, shop, wechat_fake, live_api
):
    merchant(client, operator, "wechat", wechat_fake.merchant_config(notifyBase=live_api, returnBase=SITE))
    order = order_year(client, shop)
    code = order["orderCode"]
    no_open_id = client.get(f"{PAYMENT}/payment/wechatPay?orderCode={code}&tradeType=jsapi", headers=shop["buyer"])
    assert no_open_id.get_json()["code"] == 3005

    # The pay page sends the messaging browser through WeChat's silent OAuth, back with a code.
    authorize = ok(client.get(f"{PAYMENT}/payment/wechatAuthorize?orderCode={code}", headers=shop["buyer"]))
    query = dict(parse_qsl(urlsplit(authorize["authorizeUrl"]).query))
    assert query["appid"] == wechat_fake.appid and query["scope"] == "snsapi_base"
    assert authorize["authorizeUrl"].endswith("#wechat_redirect")
    redirected = requests.get(authorize["authorizeUrl"].split("#")[0], timeout=10, allow_redirects=False)
    back = redirected.headers["Location"]
    assert back.startswith(f"{SITE}/mobilePay/pay?orderCode={code}&code=")
    oauth_code = dict(parse_qsl(urlsplit(back).query))["code"]

    open_id = ok(client.get(f"{PAYMENT}/payment/getOpenId?code={oauth_code}", headers=shop["buyer"]))["openId"]
    url = f"{PAYMENT}/payment/wechatPay?orderCode={code}&tradeType=jsapi&openId={open_id}"
    jsapi = ok(client.get(url, headers=shop["buyer"]))["jsapi"]
    assert jsapi["appId"] == wechat_fake.appid and jsapi["signType"] == "RSA"
    assert jsapi["package"] == f"prepay_id=wx{code}"
    signed = f"{jsapi['appId']}\n{jsapi['timeStamp']}\n{jsapi['nonceStr']}\n{jsapi['package']}\n"
    assert rsa_verify(wechat_fake.merchant_key.public_key(), signed, jsapi["paySign"])
    assert not rsa_verify(
        wechat_fake.merchant_key.public_key(), signed.replace(code, "0" * len(code)), jsapi["paySign"]
    )
    assert wechat_fake.trades[code]["payer"] == {"openid": open_id}

    assert wechat_fake.deliver(code) == 204  # WeixinJSBridge paid: WeChat notifies the api
    assert paid_order(client, shop, code)["payType"] == "wechat_jsapi"


def test_browser_addresses_of_a_merchant_are_web_addresses(client, operator, wechat_fake):
    for key in ("returnBase", "authorizeGateway", "returnUrl"):
        config = wechat_fake.merchant_config(**{key: "javascript:alert(1)"})
        body = {"provider": "wechat", "config": config}
        refused = client.put(f"{BILLING}/PaymentMerchant/save", json=body, headers=operator)
        assert refused.status_code == 422 and f"config.{key}" in str(refused.get_json()["data"]["errors"]), key
    merchant(client, operator, "wechat", wechat_fake.merchant_config(returnBase="http://localhost:3000"))


def test_a_dollar_order_is_still_refused_by_the_phone_flows(client, operator, shop, wechat_fake, alipay_fake):
    merchant(client, operator, "wechat", wechat_fake.merchant_config())
    merchant(client, operator, "alipay", alipay_fake.merchant_config())
    pack = {"kind": "sms", "name": "SMS 100 USD", "count": 100, "fee": 10000, "currency": "USD"}
    made = ok(client.post(f"{BILLING}/MessagePack/insert", json=pack, headers=operator))
    body = {"deviceIds": shop["devices"][:1], "smsPackId": made["id"]}
    code = ok(client.post(f"{BILLING}/Order/insert", json=body, headers=shop["buyer"]))["orderCode"]
    for url in (
        f"{PAYMENT}/payment/wechatPay?orderCode={code}&tradeType=h5",
        f"{PAYMENT}/payment/wechatPay?orderCode={code}&tradeType=jsapi&openId=o-1",
        f"{PAYMENT}/payment/wechatAuthorize?orderCode={code}",
        f"{PAYMENT}/payment/aliPay?orderCode={code}&mode=wap",
    ):
        assert client.get(url, headers=shop["buyer"]).get_json()["code"] == 3010, url
    assert wechat_fake.trades == {} and alipay_fake.trades == {}


def test_the_receipt_names_seller_buyer_and_tax(app, client, operator, shop, wechat_fake):
    with app.app_context():
        site = db.session.scalar(select(Platform.id).where(Platform.slug == "default"))
    seller = {"companyAddress": "1 Cold Street, Shanghai", "taxId": "91310000MA1FL0000X"}
    default = ok(client.put("/api/base/BaseCustomPage/update", json={"id": site, **seller}, headers=operator))
    assert default["taxId"] == seller["taxId"] and default["companyAddress"] == seller["companyAddress"]
    info = {
        "billMode": "enterprise",
        "billName": "Cold Co",
        "companyName": "Cold Chain Ltd",
        "taxNumber": "91310000X",
        "isDefault": True,
    }
    ok(client.post(f"{BILLING}/InvoiceInfo/insert", json=info, headers=shop["buyer"]))
    merchant(client, operator, "wechat", wechat_fake.merchant_config())
    order = order_year(client, shop)
    code = order["orderCode"]
    ok(client.get(f"{PAYMENT}/payment/wechatPay?orderCode={code}", headers=shop["buyer"]))
    headers, body = wechat_fake.pay(code)
    assert client.post(f"{PAYMENT}/notify/wechat", data=body, headers=headers).status_code == 204

    receipt = ok(client.get(f"{PAYMENT}/PayOrder/receipt?orderCode={code}", headers=shop["buyer"]))
    assert receipt["seller"] == {
        "name": default["enterpriseName"],
        "address": seller["companyAddress"],
        "taxId": seller["taxId"],
    }
    assert receipt["buyer"]["company"] == "Cold Chain Ltd" and receipt["buyer"]["taxId"] == "91310000X"
    assert receipt["buyer"]["name"] == "buyer_one" and receipt["buyer"]["invoiceTitle"] == "Cold Co"
    assert receipt["tax"] == {"included": True, "currency": "CNY", "total": order["payFee"]}
    assert receipt["order"]["orderCode"] == code and receipt["order"]["payStatus"] == "paid"

    # Nobody else's receipt.
    assert client.get(f"{PAYMENT}/PayOrder/receipt?orderCode={code}", headers=operator).status_code == 404
