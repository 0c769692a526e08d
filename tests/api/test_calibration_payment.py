"""Calibration applications paid through the payment area, against the local WeChat Pay fake: the
server prices the order, a verified notification confirms the application once (a replay, a forgery
and a wrong amount change nothing), nobody else pays or sees it, the lab's offline confirmation still
works once, a payment arriving for an application already paid is recorded, and an approved
cancellation refunds through the provider (a refusal there changes nothing)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from api.billing.models import Order, PaymentNotice
from api.billing.orders import close_stale
from api.calibration import states
from api.calibration.models import Application
from api.extensions.db import db, utcnow
from tests.api.account_helpers import auth, login, make_account
from tests.api.billing_helpers import PAYMENT, merchant, ok, operator, wechat_fake
from tests.api.calibration_helpers import APP, application_body, item, make_lab_admin
from tests.payment_fakes import new_key

__all__ = ["operator", "wechat_fake"]

# Default prices (api/calibration/services.DEFAULT_PRICES): standard 150.00 for 3 points, 30.00 per extra point.
FOUR_POINTS_TWICE = (15000 + 3000) * 2


@pytest.fixture
def people(app, client, operator, wechat_fake):
    merchant(client, operator, "wechat", wechat_fake.merchant_config())
    make_account(app, user_name="cal_payer", email="payer@example.com")
    make_account(app, user_name="cal_other", email="other@example.com")
    make_account(app, user_name="cal_lab", email="callab@example.com")
    make_lab_admin(app, "cal_lab")
    english = {"Accept-Language": "en-US"}
    return {
        "a": {**auth(login(client, "cal_payer")), **english},
        "b": {**auth(login(client, "cal_other")), **english},
        "lab": {**auth(login(client, "cal_lab")), **english},
    }


def refused(response, code=None) -> dict:
    body = response.get_json()
    assert body["code"] != 0, body
    if code is not None:
        assert body["code"] == code, body
    return body


def applied(client, headers) -> dict:
    body = application_body("pay", items=[item(points=[-20, 0, 25, 40], quantity=2)])
    return ok(client.post(f"{APP}/apply", json=body, headers=headers))


def pay_order(client, headers, application_id: int) -> dict:
    return ok(client.post(f"{APP}/payOrder", json={"applicationId": application_id}, headers=headers))


def detail(client, headers, application_id: int) -> dict:
    return ok(client.get(f"{APP}/get/applicationInfo?applicationId={application_id}", headers=headers))


def prepay(client, headers, order_code: str) -> dict:
    return ok(client.get(f"{PAYMENT}/payment/wechatPay?orderCode={order_code}&tradeType=native", headers=headers))


def notify(client, wechat_fake, order_code: str, **kwargs) -> int:
    headers, body = wechat_fake.pay(order_code, **kwargs)
    return client.post(f"{PAYMENT}/notify/wechat", data=body, headers=headers).status_code


def notices(app) -> list[str]:
    with app.app_context():
        return list(db.session.scalars(select(PaymentNotice.outcome).order_by(PaymentNotice.id)))


def payments_in_history(order: dict) -> list[tuple]:
    return [(h["payment"], h["payType"], h["orderCode"]) for h in order["history"] if h["payment"]]


def test_a_wechat_payment_confirms_the_application_once(app, client, people, wechat_fake):
    application = applied(client, people["a"])
    assert application["totalPrice"] == FOUR_POINTS_TWICE
    order = pay_order(client, people["a"], application["applicationId"])
    assert order["payFee"] == FOUR_POINTS_TWICE and order["payStatus"] == "unpaid" and order["currency"] == "CNY"
    # Asking again reuses the unpaid order.
    assert pay_order(client, people["a"], application["applicationId"])["orderCode"] == order["orderCode"]
    billed = ok(client.get(f"{PAYMENT}/PayOrder/get?orderCode={order['orderCode']}", headers=people["a"]))
    assert billed["purpose"] == "calibration" and billed["subjectId"] == application["applicationId"]
    assert billed["returnPath"] == f"/calibration/order/{application['applicationId']}" and billed["devices"] == []

    paying = prepay(client, people["a"], order["orderCode"])
    assert paying["payFee"] == FOUR_POINTS_TWICE
    assert wechat_fake.trades[order["orderCode"]]["amount"]["total"] == FOUR_POINTS_TWICE
    assert notify(client, wechat_fake, order["orderCode"]) == 204

    after = detail(client, people["a"], application["applicationId"])
    assert after["calibrationStatus"] == states.CONFIRMED
    assert after["payment"]["payStatus"] == "paid" and after["payment"]["payType"] == "wechat_native"
    assert payments_in_history(after) == [("paid", "wechat_native", order["orderCode"])]
    assert after["history"][-1]["fromStatus"] == states.SUBMITTED

    # WeChat delivers again: nothing moves twice.
    assert notify(client, wechat_fake, order["orderCode"]) == 204
    again = detail(client, people["a"], application["applicationId"])
    assert again["history"] == after["history"] and notices(app) == ["applied", "duplicate"]
    # Paid: neither paid again nor confirmed again by the lab.
    refused(client.post(f"{APP}/payOrder", json={"applicationId": application["applicationId"]}, headers=people["a"]))
    confirm = {"applicationId": application["applicationId"], "status": states.CONFIRMED}
    refused(client.put(f"{APP}/applicationStatus", json=confirm, headers=people["lab"]), 409)
    # The customer ships as usual.
    tracking = {"applicationId": application["applicationId"], "trackingCompany": "SF", "trackingNumber": "SF7788"}
    assert ok(client.put(f"{APP}/trackingNumber", json=tracking, headers=people["a"]))["calibrationStatus"] == 3


def test_a_forged_or_short_notification_changes_nothing(app, client, people, wechat_fake):
    application = applied(client, people["a"])
    order = pay_order(client, people["a"], application["applicationId"])
    prepay(client, people["a"], order["orderCode"])
    assert notify(client, wechat_fake, order["orderCode"], key=new_key()) == 401  # not WeChat's key
    assert notify(client, wechat_fake, order["orderCode"], total=1) == 401  # genuine, one cent
    after = detail(client, people["a"], application["applicationId"])
    assert after["calibrationStatus"] == states.SUBMITTED and after["payment"]["payStatus"] == "unpaid"
    assert payments_in_history(after) == [] and notices(app) == ["forged", "amount_mismatch"]


def test_the_amount_is_the_servers(client, people, wechat_fake):
    application = applied(client, people["a"])
    body = {"applicationId": application["applicationId"], "payFee": 1}
    refused(client.post(f"{APP}/payOrder", json=body, headers=people["a"]), 422)
    order = pay_order(client, people["a"], application["applicationId"])
    assert order["payFee"] == FOUR_POINTS_TWICE


def test_nobody_else_pays_or_sees_the_application_s_order(app, client, people, wechat_fake):
    application = applied(client, people["a"])
    order = pay_order(client, people["a"], application["applicationId"])
    other = people["b"]
    assert (
        client.post(f"{APP}/payOrder", json={"applicationId": application["applicationId"]}, headers=other).status_code
        == 404
    )
    for url in (
        f"{APP}/get/applicationInfo?applicationId={application['applicationId']}",
        f"{PAYMENT}/PayOrder/get?orderCode={order['orderCode']}",
        f"{PAYMENT}/payment/wechatPay?orderCode={order['orderCode']}",
        f"{PAYMENT}/PayOrder/confirmPay?orderCode={order['orderCode']}",
    ):
        assert client.get(url, headers=other).status_code == 404, url
    # The lab sees the payment on the detail but does not pay the customer's order.
    assert detail(client, people["lab"], application["applicationId"])["payment"]["orderCode"] == order["orderCode"]
    assert (
        client.get(f"{PAYMENT}/PayOrder/get?orderCode={order['orderCode']}", headers=people["lab"]).status_code == 404
    )
    assert order["orderCode"] not in wechat_fake.trades
    with app.app_context():
        assert db.session.scalar(select(Order.pay_status).where(Order.order_code == order["orderCode"])) == "unpaid"


def test_the_lab_confirms_a_bank_transfer_once(app, client, people, wechat_fake):
    application = applied(client, people["a"])
    order = pay_order(client, people["a"], application["applicationId"])  # started, then paid by transfer
    prepay(client, people["a"], order["orderCode"])
    confirm = {"applicationId": application["applicationId"], "status": states.CONFIRMED, "note": "transfer 0042"}
    assert ok(client.put(f"{APP}/applicationStatus", json=confirm, headers=people["lab"]))["calibrationStatus"] == 2
    after = detail(client, people["a"], application["applicationId"])
    assert after["payment"]["payType"] == "offline" and after["payment"]["orderCode"] == order["orderCode"]
    assert after["history"][-1]["note"] == "transfer 0042"
    assert payments_in_history(after) == [("paid", "offline", order["orderCode"])]
    refused(client.put(f"{APP}/applicationStatus", json=confirm, headers=people["lab"]), 409)
    # The customer's WeChat payment of the same order arrives late: the order is already settled.
    assert notify(client, wechat_fake, order["orderCode"]) == 204
    assert detail(client, people["a"], application["applicationId"])["history"] == after["history"]
    assert notices(app) == ["duplicate"]

    # Cancelled: a bank transfer is given back by the lab (recorded), nothing goes to WeChat.
    ok(
        client.post(
            f"{APP}/cancel/apply",
            json={"applicationId": application["applicationId"], "reason": "r"},
            headers=people["a"],
        )
    )
    check = {"applicationId": application["applicationId"], "approve": True}
    assert ok(client.put(f"{APP}/cancel/check", json=check, headers=people["lab"]))["calibrationStatus"] == 7
    cancelled = detail(client, people["a"], application["applicationId"])
    assert payments_in_history(cancelled)[-1] == ("refund_by_lab", "offline", order["orderCode"])
    assert wechat_fake.refunds == {}


def test_a_lab_confirmation_without_an_order_records_one(client, people):
    application = applied(client, people["a"])
    confirm = {"applicationId": application["applicationId"], "status": states.CONFIRMED}
    ok(client.put(f"{APP}/applicationStatus", json=confirm, headers=people["lab"]))
    payment = detail(client, people["a"], application["applicationId"])["payment"]
    assert payment["payStatus"] == "paid" and payment["payType"] == "offline" and payment["payFee"] == FOUR_POINTS_TWICE


def test_a_late_payment_of_a_closed_order_is_refunded_never_settled(app, client, people, wechat_fake):
    application = applied(client, people["a"])
    first = pay_order(client, people["a"], application["applicationId"])
    prepay(client, people["a"], first["orderCode"])
    with app.app_context():
        assert close_stale(utcnow() + timedelta(hours=3)) == 1  # its payment window passed
    second = pay_order(client, people["a"], application["applicationId"])
    assert second["orderCode"] != first["orderCode"]
    prepay(client, people["a"], second["orderCode"])
    assert notify(client, wechat_fake, second["orderCode"]) == 204
    assert notify(client, wechat_fake, first["orderCode"]) == 204  # the old QR code was paid too
    after = detail(client, people["a"], application["applicationId"])
    assert after["calibrationStatus"] == states.CONFIRMED and after["payment"]["orderCode"] == second["orderCode"]
    # The closed order's payment never settles: it goes back through WeChat at once, recorded.
    assert payments_in_history(after) == [("paid", "wechat_native", second["orderCode"])]
    [refund] = wechat_fake.refunds.values()
    assert refund["out_trade_no"] == first["orderCode"] and refund["amount"]["refund"] == first["payFee"]
    with app.app_context():
        late = db.session.scalar(select(PaymentNotice).where(PaymentNotice.order_code == first["orderCode"]))
        assert late.outcome == "late_refunded" and refund["refund_id"] in late.detail
        assert db.session.scalar(select(Order.pay_status).where(Order.order_code == first["orderCode"])) == "closed"


def test_an_approved_cancellation_refunds_through_wechat(app, client, people, wechat_fake):
    application = applied(client, people["a"])
    application_id = application["applicationId"]
    order = pay_order(client, people["a"], application_id)
    prepay(client, people["a"], order["orderCode"])
    assert notify(client, wechat_fake, order["orderCode"]) == 204
    ok(
        client.post(
            f"{APP}/cancel/apply", json={"applicationId": application_id, "reason": "wrong model"}, headers=people["a"]
        )
    )
    check = {"applicationId": application_id, "approve": True, "answer": "ok"}

    # WeChat refuses the refund: the cancellation is refused with its reason, nothing changes.
    wechat_fake.refuse_refunds = True
    body = refused(client.put(f"{APP}/cancel/check", json=check, headers=people["lab"]), 3009)
    assert "NOT_ENOUGH" in body["msg"]
    still = detail(client, people["a"], application_id)
    assert still["calibrationStatus"] == states.CONFIRMED and still["cancelRequested"] is True
    assert still["payment"]["payStatus"] == "paid" and wechat_fake.refunds == {}

    wechat_fake.refuse_refunds = False
    assert ok(client.put(f"{APP}/cancel/check", json=check, headers=people["lab"]))["calibrationStatus"] == 7
    [refund] = wechat_fake.refunds.values()
    assert refund["out_refund_no"] == f"RF{order['orderCode']}" and refund["amount"]["refund"] == FOUR_POINTS_TWICE
    after = detail(client, people["a"], application_id)
    assert after["payment"]["payStatus"] == "refunded"
    assert payments_in_history(after)[-1] == ("refunded", "wechat_native", order["orderCode"])
    refused(client.post(f"{APP}/payOrder", json={"applicationId": application_id}, headers=people["a"]))


def test_nothing_to_pay_confirms_at_once(app, client, people):
    application = applied(client, people["a"])
    with app.app_context():
        row = db.session.get(Application, application["applicationId"])
        row.total_price = 0
        db.session.commit()
    order = pay_order(client, people["a"], application["applicationId"])
    assert order["payStatus"] == "paid" and order["payType"] == "free"
    assert detail(client, people["a"], application["applicationId"])["calibrationStatus"] == states.CONFIRMED
