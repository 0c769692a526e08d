"""The race probe's calibration rule (tests/api/races.py): a lab admin's approval of a cancellation,
sent 20 times at once for a paid application, cancels and refunds it once; the rest are told no
cancellation request is waiting."""

from __future__ import annotations

from sqlalchemy import func, select

from api.calibration.models import StatusHistory
from tests.api.account_helpers import auth, login, make_account
from tests.api.billing_helpers import PAYMENT, ok
from tests.api.calibration_helpers import APP, application_body, item, make_lab_admin
from tests.api.races import CONCURRENCY, Outcome, Scene, together

CALIBRATION_REFUSAL = 400  # api/calibration/services.refuse


def calibration_cancel(s: Scene) -> Outcome:
    make_account(s.app, user_name="race_lab")
    make_lab_admin(s.app, "race_lab")
    lab = auth(login(s.client, "race_lab"))
    body = application_body("race", items=[item(points=[-20, 0, 25], quantity=1)])
    application = ok(s.client.post(f"{APP}/apply", json=body, headers=s.buyer))["applicationId"]
    order = ok(s.client.post(f"{APP}/payOrder", json={"applicationId": application}, headers=s.buyer))
    url = f"{PAYMENT}/payment/wechatPay?orderCode={order['orderCode']}&tradeType=native"
    ok(s.client.get(url, headers=s.buyer))
    headers, notice = s.wechat.pay(order["orderCode"])
    assert s.client.post(f"{PAYMENT}/notify/wechat", data=notice, headers=headers).status_code == 204
    cancel = {"applicationId": application, "reason": "race"}
    ok(s.client.post(f"{APP}/cancel/apply", json=cancel, headers=s.buyer))
    check = {"applicationId": application, "approve": True, "answer": "ok"}
    request = {"method": "PUT", "path": f"{APP}/cancel/check", "body": check, "headers": lab}
    answers = together(s.port, [request] * CONCURRENCY)
    refunds = (
        select(func.count())
        .select_from(StatusHistory)
        .where(StatusHistory.order_code == order["orderCode"], StatusHistory.payment == "refunded")
    )
    return Outcome("calibration_cancel", answers, s.count(refunds), refusals=(CALIBRATION_REFUSAL,))
