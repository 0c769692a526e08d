"""Billing rules through the real calls: prices in integer cents (table-driven), the catalogue's
limits, activities, coupons, recharge cards, free service, invoices, offline purchases, refunds."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select, update

from api.billing import orders as orders_module
from api.billing.jobs import apply_offline_purchases
from api.billing.models import Order
from api.billing.orders import close_stale
from api.billing.pricing import PackChoice, percent_off, quote
from api.device.expiry import add_months
from api.device.models import Device
from api.extensions.db import db, utcnow
from tests.api.account_helpers import auth, login, make_account
from tests.api.billing_helpers import (
    BILLING,
    YEAR_DATA,
    YEAR_FEE,
    counts,
    expiries,
    in_months,
    ok,
    operator,
    order_year,
    package_body,
    shop,
    type_id,
)
from tests.api.device_helpers import add, guids

__all__ = ["guids", "operator", "shop"]

SMS = PackChoice("sms", "SMS 100", 100, 1000, 10)
VOICE = PackChoice("voice", "Voice 20", 20, 999, 5)
YEAR = {"months": 12, "serviceFee": 19900, "dataFee": 2100, "discount": 0}
TWO = {"months": 24, "serviceFee": 39800, "dataFee": 4200, "discount": 15}


@pytest.mark.parametrize(
    ("devices", "price", "packs", "activity", "coupon", "order_fee", "pay_fee"),
    [
        (1, YEAR, [], 0, 0, 22000, 22000),
        (2, YEAR, [], 0, 0, 44000, 44000),
        (3, TWO, [], 0, 0, 132000, 112200),  # 44000 less 15% = 37400 a device
        (1, YEAR, [], 20, 0, 22000, 17600),  # activity 20% off
        (1, TWO, [], 10, 0, 44000, 33660),  # 37400 then 10% off
        (1, YEAR, [], 0, 5000, 22000, 17000),  # coupon 50.00
        (1, YEAR, [], 0, 99999, 22000, 0),  # a coupon never takes the price below zero
        (2, None, [SMS], 0, 0, 2000, 1800),  # packs only, per device
        (1, None, [SMS, VOICE], 0, 0, 1999, 1849),  # 999 less 5% = 949.05 -> 949
        (1, {"months": 1, "serviceFee": 333, "dataFee": 0, "discount": 50}, [], 0, 0, 333, 167),  # half up
    ],
)
def test_prices_are_integer_cents(devices, price, packs, activity, coupon, order_fee, pay_fee):
    result = quote(devices, price, packs, activity, coupon)
    assert (result.order_fee, result.pay_fee) == (order_fee, pay_fee)
    assert all(isinstance(v, int) for line in result.lines for v in (line["unit"], line["unitDue"]))


def test_percent_off_rounds_half_up_and_fails_without_it():
    assert percent_off(333, 50) == 167
    assert percent_off(100, 0) == 100 and percent_off(100, 100) == 0
    assert 333 * 50 // 100 == 166  # what plain floor division would charge: the rule above matters


def test_add_months_keeps_the_day_or_the_months_last():
    assert add_months(datetime(2026, 1, 31, tzinfo=UTC), 1) == datetime(2026, 2, 28, tzinfo=UTC)
    assert add_months(datetime(2026, 11, 24, tzinfo=UTC), 14) == datetime(2028, 1, 24, tzinfo=UTC)


def test_the_server_prices_the_order_and_ignores_the_browsers_figures(client, shop):
    body = {"deviceIds": shop["devices"], "packageId": shop["package"]["id"], "levelId": shop["level"], "months": 24}
    price = ok(client.post(f"{BILLING}/Order/price", json=body, headers=shop["buyer"]))
    assert price["payFee"] == 2 * percent_off(2 * (YEAR_FEE + YEAR_DATA), 10)
    refused = client.post(f"{BILLING}/Order/insert", json={**body, "payFee": 1}, headers=shop["buyer"])
    assert refused.status_code == 422 and "payFee" in refused.get_json()["data"]["errors"]


def test_catalogue_rules(app, client, guids, operator):
    types = [type_id(app)]
    bad_code = client.post(
        f"{BILLING}/ServicePackage/insert", json=package_body(types, packageCode="123"), headers=operator
    )
    assert bad_code.status_code == 422 and "packageCode" in bad_code.get_json()["data"]["errors"]
    no_rows = package_body(types)
    no_rows["levels"][0]["prices"] = []
    refused = client.post(f"{BILLING}/ServicePackage/insert", json=no_rows, headers=operator)
    assert refused.status_code == 422
    missing_fee = package_body(types)
    del missing_fee["levels"][0]["prices"][0]["dataFee"]
    assert client.post(f"{BILLING}/ServicePackage/insert", json=missing_fee, headers=operator).status_code == 422
    made = ok(client.post(f"{BILLING}/ServicePackage/insert", json=package_body(types), headers=operator))
    again = client.post(f"{BILLING}/ServicePackage/insert", json=package_body(types), headers=operator).get_json()
    assert again["code"] == 409
    changed = package_body(types, id=made["id"], packageName="Renamed")
    changed["levels"][0]["levelId"] = made["levels"][0]["levelId"]
    changed["levels"].append({**changed["levels"][0], "levelId": None, "levelName": "Pro"})
    updated = ok(client.put(f"{BILLING}/ServicePackage/update", json=changed, headers=operator))
    assert [lv["levelId"] for lv in updated["levels"]] == [made["levels"][0]["levelId"], 2]
    for n in range(5):
        pack = {"kind": "sms", "name": f"SMS {n}", "count": 100, "fee": 1000}
        ok(client.post(f"{BILLING}/MessagePack/insert", json=pack, headers=operator))
    sixth = client.post(f"{BILLING}/MessagePack/insert", json={**pack, "name": "SMS 6"}, headers=operator).get_json()
    assert sixth["code"] == 3102
    ok(client.post(f"{BILLING}/MessagePack/insert", json={**pack, "kind": "voice"}, headers=operator))


def test_service_package_not_configured(app, client, guids, operator):
    make_account(app, user_name="lonely_buyer")
    buyer = auth(login(client, "lonely_buyer"))
    device = add(client, buyer, guids["cold_room"][0], name="Room")
    body = client.post(f"{BILLING}/ServicePackage/forDevices", json={"deviceIds": [device]}, headers=buyer).get_json()
    assert body["code"] == 3101 and body["msg"] == "未配置服务套餐"


def test_too_many_devices(client, shop, monkeypatch):
    monkeypatch.setattr(orders_module, "MAX_ORDER_DEVICES", 1)
    body = {"deviceIds": shop["devices"], "packageId": shop["package"]["id"], "levelId": shop["level"], "months": 12}
    answer = client.post(f"{BILLING}/Order/insert", json=body, headers=shop["buyer"]).get_json()
    assert answer["code"] == 3002 and answer["msg"] == "产品数量超出限制"


def test_one_order_keeps_to_one_country(app, client, shop):
    """Recharging requires the same country code (business-domain 5): the devices' time zones decide."""
    body = {"deviceIds": shop["devices"], "packageId": shop["package"]["id"], "levelId": shop["level"], "months": 12}
    with app.app_context():
        db.session.get(Device, shop["devices"][1]).time_zone = "Europe/Berlin"
        db.session.commit()
    en = {**shop["buyer"], "Accept-Language": "en-US"}
    for call in ("price", "insert"):
        refused = client.post(f"{BILLING}/Order/{call}", json=body, headers=en).get_json()
        assert refused["code"] == 3008, refused
        assert refused["msg"] == (
            "The chosen devices are in different countries (CN, DE): recharge each country's devices separately."
        )
    with app.app_context():
        db.session.get(Device, shop["devices"][1]).time_zone = "UTC"  # a zone of no country goes with any
        db.session.commit()
    assert ok(client.post(f"{BILLING}/Order/price", json=body, headers=en))["payFee"] > 0


def test_one_order_is_priced_in_one_currency(app, client, operator, shop):
    """A pack in another currency than the service package cannot join its order (the sum would mix them)."""
    dollars = ok(
        client.post(
            f"{BILLING}/MessagePack/insert",
            json={"kind": "sms", "name": "SMS 100 USD", "count": 100, "fee": 500, "discount": 0, "currency": "USD"},
            headers=operator,
        )
    )
    body = {"deviceIds": shop["devices"], "packageId": shop["package"]["id"], "levelId": shop["level"], "months": 12}
    en = {**shop["buyer"], "Accept-Language": "en-US"}
    refused = client.post(f"{BILLING}/Order/price", json={**body, "smsPackId": dollars["id"]}, headers=en).get_json()
    assert refused["code"] == 422 and refused["data"]["errors"]["smsPackId"] == [
        "This package is priced in USD, the order in CNY."
    ]
    alone = ok(
        client.post(
            f"{BILLING}/Order/price", json={"deviceIds": shop["devices"], "smsPackId": dollars["id"]}, headers=en
        )
    )
    assert alone["currency"] == "USD"


def test_activity_and_coupon_and_sms_pack(app, client, operator, shop):
    now = datetime.now(UTC)
    activity = {
        "packageId": shop["package"]["id"],
        "name": "Spring",
        "discount": 20,
        "startTime": (now - timedelta(days=1)).isoformat(),
        "endTime": (now + timedelta(days=1)).isoformat(),
    }
    public = ok(client.post(f"{BILLING}/Activity/insert", json=activity, headers=operator))
    directed = ok(
        client.post(
            f"{BILLING}/Activity/insert", json={**activity, "directional": True, "accountIds": [1]}, headers=operator
        )
    )
    pack = ok(
        client.post(
            f"{BILLING}/MessagePack/insert",
            json={"kind": "sms", "name": "SMS 100", "count": 100, "fee": 1000, "discount": 0},
            headers=operator,
        )
    )
    coupons = ok(
        client.post(
            f"{BILLING}/Coupon/generate",
            json={
                "prefix": "SPRING",
                "fee": 1000,
                "count": 2,
                "validFrom": (now - timedelta(hours=1)).isoformat(),
                "validTo": (now + timedelta(days=3)).isoformat(),
            },
            headers=operator,
        )
    )
    assert all(c["code"].startswith("SPRING") and not c["used"] for c in coupons)
    sms_before = counts(app, shop["devices"])
    order = order_year(client, shop, activityId=public["id"], couponCode=coupons[0]["code"], smsPackId=pack["id"])
    unit = percent_off(YEAR_FEE + YEAR_DATA, 20)
    assert order["payFee"] == 2 * unit + 2 * 1000 - 1000
    # the coupon is spent: a second order cannot use it
    again = client.post(
        f"{BILLING}/Order/insert",
        json={"deviceIds": shop["devices"], "smsPackId": pack["id"], "couponCode": coupons[0]["code"]},
        headers=shop["buyer"],
    ).get_json()
    assert again["code"] == 3201
    # an activity directed at someone else is not offered
    other = client.post(
        f"{BILLING}/Order/price",
        json={
            "deviceIds": shop["devices"],
            "packageId": shop["package"]["id"],
            "levelId": shop["level"],
            "months": 12,
            "activityId": directed["id"],
        },
        headers=shop["buyer"],
    ).get_json()
    assert other["code"] == 3103
    # paid offline and confirmed by the operator: the SMS counts are credited with the year
    before = expiries(app, shop["devices"])
    ok(
        client.put(
            f"{BILLING}/OrderAdmin/confirmOffline", json={"id": order["id"], "reference": "BANK-1"}, headers=operator
        )
    )
    assert expiries(app, shop["devices"]) == [in_months(b, 12) for b in before]
    assert counts(app, shop["devices"]) == [(s + 100, v) for s, v in sms_before]
    twice = client.put(
        f"{BILLING}/OrderAdmin/confirmOffline", json={"id": order["id"], "reference": "BANK-1"}, headers=operator
    ).get_json()
    assert twice["code"] == 3007 and twice["msg"] == "该订单无法手动处理"
    not_refundable = client.put(f"{BILLING}/OrderAdmin/refund", json={"id": order["id"]}, headers=operator).get_json()
    assert not_refundable["code"] == 3006


def test_free_service_once_per_device(app, client, shop):
    body = {
        "deviceIds": shop["devices"][:1],
        "packageId": shop["package"]["id"],
        "levelId": shop["level"],
        "free": True,
    }
    before = expiries(app, shop["devices"][:1])
    order = ok(client.post(f"{BILLING}/Order/insert", json=body, headers=shop["buyer"]))
    assert order["payStatus"] == "paid" and order["payFee"] == 0 and order["payType"] == "free"
    assert expiries(app, shop["devices"][:1]) == [before[0] + timedelta(days=30)]
    assert client.post(f"{BILLING}/Order/insert", json=body, headers=shop["buyer"]).get_json()["code"] == 3105


def test_recharge_card_is_redeemed_once(app, client, operator, shop):
    cards = ok(
        client.post(
            f"{BILLING}/RechargeCard/generate",
            json={
                "prefix": "RC",
                "packageId": shop["package"]["id"],
                "levelId": shop["level"],
                "months": 12,
                "count": 1,
                "validTo": (datetime.now(UTC) + timedelta(days=90)).isoformat(),
            },
            headers=operator,
        )
    )
    before = expiries(app, shop["devices"][:1])
    redeem = {"code": cards[0]["code"], "deviceId": shop["devices"][0]}
    order = ok(client.post(f"{BILLING}/RechargeCard/redeem", json=redeem, headers=shop["buyer"]))
    assert order["payStatus"] == "paid"
    assert expiries(app, shop["devices"][:1]) == [in_months(before[0], 12)]
    assert client.post(f"{BILLING}/RechargeCard/redeem", json=redeem, headers=shop["buyer"]).get_json()["code"] == 3401
    used = ok(client.post(f"{BILLING}/RechargeCard/page", json={"used": True}, headers=operator))
    assert used["total"] == 1


def test_invoice_requests(app, client, operator, shop):
    info = {
        "billMode": "enterprise",
        "billName": "Cold Co",
        "companyName": "Cold Chain Ltd",
        "taxNumber": "91310000X",
        "isDefault": True,
    }
    missing = client.post(f"{BILLING}/InvoiceInfo/insert", json={**info, "taxNumber": None}, headers=shop["buyer"])
    assert missing.status_code == 422 and "taxNumber" in missing.get_json()["data"]["errors"]
    too_long = client.post(f"{BILLING}/InvoiceInfo/insert", json={**info, "billName": "x" * 21}, headers=shop["buyer"])
    assert too_long.status_code == 422
    saved = ok(client.post(f"{BILLING}/InvoiceInfo/insert", json=info, headers=shop["buyer"]))
    none = client.post(
        f"{BILLING}/InvoiceRequest/insert", json={"infoId": saved["id"], "orderIds": []}, headers=shop["buyer"]
    ).get_json()
    assert none["code"] == 3301 and none["msg"] == "未选择开票订单"
    order = order_year(client, shop)
    unpaid = client.post(
        f"{BILLING}/InvoiceRequest/insert",
        json={"infoId": saved["id"], "orderIds": [order["id"]]},
        headers=shop["buyer"],
    ).get_json()
    assert unpaid["code"] == 3302
    ok(
        client.put(
            f"{BILLING}/OrderAdmin/confirmOffline", json={"id": order["id"], "reference": "B2"}, headers=operator
        )
    )
    made = ok(
        client.post(
            f"{BILLING}/InvoiceRequest/insert",
            json={"infoId": saved["id"], "orderIds": [order["id"]]},
            headers=shop["buyer"],
        )
    )
    assert made["amount"] == order["payFee"] and made["info"]["companyName"] == "Cold Chain Ltd"
    issued = ok(client.put(f"{BILLING}/InvoiceAdmin/issue/{made['id']}", headers=operator))
    assert issued["status"] == "issued"
    assert ok(client.get(f"{BILLING}/Order/detail/{order['id']}", headers=shop["buyer"]))["invoiceStatus"] == "issued"
    make_account(app, user_name="nosy_buyer")
    nosy = auth(login(client, "nosy_buyer"))
    assert ok(client.get(f"{BILLING}/InvoiceInfo/list", headers=nosy)) == []
    assert (
        client.put(f"{BILLING}/InvoiceInfo/update", json={**info, "id": saved["id"]}, headers=nosy).status_code == 404
    )
    assert ok(client.post(f"{BILLING}/InvoiceRequest/page", json={}, headers=nosy))["total"] == 0


def test_offline_purchase_applies_when_the_device_is_claimed(app, client, guids, operator, shop):
    both = package_body([type_id(app), type_id(app, 0x8003)], id=shop["package"]["id"])  # loggers and cold rooms
    both["levels"][0]["levelId"] = shop["level"]
    ok(client.put(f"{BILLING}/ServicePackage/update", json=both, headers=operator))
    body = {"packageId": shop["package"]["id"], "levelId": shop["level"], "months": 12}
    claimed = ok(
        client.post(
            f"{BILLING}/OfflinePurchase/insert", json={**body, "deviceGuid": guids["th_a"][0]}, headers=operator
        )
    )
    assert claimed["state"] == "recharged"
    unknown = ok(
        client.post(f"{BILLING}/OfflinePurchase/insert", json={**body, "deviceGuid": "99999999"}, headers=operator)
    )
    assert unknown["state"] == "failed" and unknown["reason"] == "找不到该设备，请确认后重新输入"
    waiting = ok(
        client.post(
            f"{BILLING}/OfflinePurchase/insert", json={**body, "deviceGuid": guids["cold_room"][0]}, headers=operator
        )
    )
    assert waiting["state"] == "not_recharged"  # nobody has added the device yet
    with app.app_context():
        assert apply_offline_purchases() == 0
    room = add(client, shop["buyer"], guids["cold_room"][0], name="Room")
    first_year = expiries(app, [room])[0]
    with app.app_context():
        assert apply_offline_purchases() == 1
    assert expiries(app, [room]) == [in_months(first_year, 12)]
    states = ok(client.post(f"{BILLING}/OfflinePurchase/page", json={}, headers=operator))["list"]
    assert sorted(s["state"] for s in states) == ["failed", "recharged", "recharged"]


def test_a_refund_without_its_provider_changes_nothing(app, client, operator, shop):
    before = expiries(app, shop["devices"])
    order = order_year(client, shop)
    ok(
        client.put(
            f"{BILLING}/OrderAdmin/confirmOffline", json={"id": order["id"], "reference": "B3"}, headers=operator
        )
    )
    paid = expiries(app, shop["devices"])
    assert paid != before
    offline = client.put(f"{BILLING}/OrderAdmin/refund", json={"id": order["id"]}, headers=operator).get_json()
    assert offline["code"] == 3006  # an offline payment is settled offline
    with app.app_context():  # as if paid online, but the platform has no merchant to pay it back
        db.session.execute(update(Order).values(pay_type="wechat_native"))
        db.session.commit()
    refused = client.put(f"{BILLING}/OrderAdmin/refund", json={"id": order["id"]}, headers=operator).get_json()
    assert refused["code"] == 3009, refused
    assert expiries(app, shop["devices"]) == paid  # the money did not go back: the service stays
    # The refund through a provider, end to end: tests/api/test_billing_wechat.py.


def test_operator_report_and_export(client, operator, shop):
    order = order_year(client, shop)
    ok(
        client.put(
            f"{BILLING}/OrderAdmin/confirmOffline", json={"id": order["id"], "reference": "B4"}, headers=operator
        )
    )
    now = datetime.now(UTC)
    window = {"startTime": (now - timedelta(days=1)).isoformat(), "endTime": (now + timedelta(days=1)).isoformat()}
    report = ok(client.get(f"{BILLING}/OrderAdmin/report", query_string=window, headers=operator))
    assert report["total"] == order["payFee"] and report["byPayType"] == [
        {"payType": "offline", "amount": order["payFee"]}
    ]
    csv = client.get(f"{BILLING}/OrderAdmin/export", headers=operator)
    assert csv.status_code == 200 and order["orderCode"] in csv.get_data(as_text=True)
    assert "440.00" in csv.get_data(as_text=True)
    assert client.get(f"{BILLING}/OrderAdmin/export", headers=shop["buyer"]).status_code == 403


def test_unpaid_orders_close_and_give_their_coupon_back(app, client, operator, shop):
    now = datetime.now(UTC)
    coupon = ok(
        client.post(
            f"{BILLING}/Coupon/generate",
            json={
                "prefix": "C",
                "fee": 100,
                "count": 1,
                "validFrom": (now - timedelta(hours=1)).isoformat(),
                "validTo": (now + timedelta(days=1)).isoformat(),
            },
            headers=operator,
        )
    )[0]
    order_year(client, shop, couponCode=coupon["code"])
    with app.app_context():
        assert close_stale(utcnow() + timedelta(hours=3)) == 1
        assert db.session.scalar(select(Order.pay_status)) == "closed"
    assert order_year(client, shop, couponCode=coupon["code"])["payFee"] == 2 * (YEAR_FEE + YEAR_DATA) - 100
