"""The calibration service: the order state machine (every allowed and refused move, through the
real calls), cancelled orders refuse the PDF, unique certificate numbers, the PDF's points table
matches the recorded results, the public verification page, customers never see each other's
orders and a customer token cannot call the lab's calls."""

from __future__ import annotations

import io
import itertools

import pytest
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from api.calibration import states
from api.calibration.models import Application, Certificate
from api.calibration.states import Action, Actor
from api.extensions.db import db
from tests.api.account_helpers import auth, login, make_account
from tests.api.calibration_helpers import APP, CAL, PDF, POINTS, RESULT, application_body, item, make_lab_admin
from tests.api.device_helpers import add, guids
from tests.api.report_helpers import pdf_text

__all__ = ["guids"]

ALL = range(1, 9)


def ok(response):
    body = response.get_json()
    assert response.status_code == 200 and body["code"] == 0, body
    return body["data"]


def refused(response, code=None):
    body = response.get_json()
    assert body["code"] != 0, body
    if code is not None:
        assert body["code"] == code, body
    return body


@pytest.fixture
def people(app, client):
    make_account(app, user_name="cust_a", email="a@example.com")
    make_account(app, user_name="cust_b", email="b@example.com")
    make_account(app, user_name="lab_x", email="lab@example.com")
    make_lab_admin(app, "lab_x")
    english = {"Accept-Language": "en-US"}
    return {
        "a": {**auth(login(client, "cust_a")), **english},
        "b": {**auth(login(client, "cust_b")), **english},
        "lab": {**auth(login(client, "lab_x")), **english},
    }


def apply(client, headers, **extra):
    return ok(client.post(f"{APP}/apply", json=application_body(**extra), headers=headers))


def force(app, application_id: int, status: int, cancel_requested: bool = False) -> None:
    with app.app_context():
        row = db.session.get(Application, application_id)
        row.status, row.cancel_requested = status, cancel_requested
        db.session.commit()


def status_of(app, application_id: int) -> int:
    with app.app_context():
        return db.session.get(Application, application_id).status


# ---- the table ------------------------------------------------------------------------------------


EXPECTED = {
    (1, 2, Actor.PAYMENT, Action.PAID),  # paid online (tests/api/test_calibration_payment.py)
    (1, 2, Actor.LAB, Action.STATUS),  # paid by bank transfer: the lab confirms it offline
    (1, 8, Actor.LAB, Action.STATUS),
    (2, 3, Actor.CUSTOMER, Action.TRACKING),
    (3, 4, Actor.LAB, Action.STATUS),
    (4, 5, Actor.LAB, Action.STATUS),
    (4, 5, Actor.LAB, Action.RESULT),
    (5, 6, Actor.LAB, Action.CONFIRM),
    (1, 7, Actor.LAB, Action.CANCEL),
    (2, 7, Actor.LAB, Action.CANCEL),
    (3, 7, Actor.LAB, Action.CANCEL),
}


def test_the_table_allows_exactly_the_designed_moves():
    for current, target, actor, action in itertools.product(ALL, ALL, Actor, Action):
        assert states.allowed(current, target, actor, action) == ((current, target, actor, action) in EXPECTED), (
            current,
            target,
            actor,
            action,
        )
    assert all(states.is_cancelled(s) for s in (7, 8)) and not any(states.is_cancelled(s) for s in range(1, 7))


# ---- every move through the calls -----------------------------------------------------------------


def test_lab_status_call_every_pair(app, client, people):
    application = apply(client, people["a"])["applicationId"]
    for current, target in itertools.product(ALL, ALL):
        force(app, application, current)
        response = client.put(
            f"{APP}/applicationStatus", json={"applicationId": application, "status": target}, headers=people["lab"]
        )
        if states.allowed(current, target, Actor.LAB, Action.STATUS):
            assert ok(response)["calibrationStatus"] == target
        else:
            body = refused(response)
            assert status_of(app, application) == current, (current, target)
            if current > 6:
                assert body["msg"] == "this order has been cancelled"


def test_customer_tracking_number_from_every_status(app, client, people):
    application = apply(client, people["a"])["applicationId"]
    body = {"applicationId": application, "trackingCompany": "SF Express", "trackingNumber": "SF1234567"}
    for current in ALL:
        force(app, application, current)
        response = client.put(f"{APP}/trackingNumber", json=body, headers=people["a"])
        if current == states.CONFIRMED:
            data = ok(response)
            assert data["calibrationStatus"] == states.SHIPPED and data["trackingNumber"] == "SF1234567"
        else:
            refused(response)
            assert status_of(app, application) == current


def test_results_start_the_calibration_only_once_received(app, client, people):
    application = apply(client, people["a"])
    item_id = application["items"][0]["itemId"]
    for current in ALL:
        force(app, application["applicationId"], current)
        with app.app_context():
            db.session.execute(db.text("DELETE FROM calibration_result"))
            db.session.commit()
        response = client.post(f"{RESULT}/insert", json={"itemId": item_id, "results": POINTS}, headers=people["lab"])
        if current in (states.RECEIVED, states.CALIBRATING):
            ok(response)
            assert status_of(app, application["applicationId"]) == states.CALIBRATING
        else:
            refused(response)
            assert status_of(app, application["applicationId"]) == current


def test_confirm_from_every_status(app, client, people):
    for current in ALL:
        application = apply(client, people["a"])
        item_id = application["items"][0]["itemId"]
        force(app, application["applicationId"], states.RECEIVED)
        ok(client.post(f"{RESULT}/insert", json={"itemId": item_id, "results": POINTS}, headers=people["lab"]))
        force(app, application["applicationId"], current)
        response = client.put(
            f"{APP}/confirmCalibration", json={"applicationId": application["applicationId"]}, headers=people["lab"]
        )
        if current == states.CALIBRATING:
            assert ok(response)["calibrationStatus"] == states.COMPLETED
        else:
            refused(response)
            assert status_of(app, application["applicationId"]) == current


def test_confirm_needs_every_instrument_s_results(app, client, people):
    application = apply(client, people["a"], items=[item(serial="S-1"), item(serial="S-2")])
    first = application["items"][0]["itemId"]
    force(app, application["applicationId"], states.RECEIVED)
    ok(client.post(f"{RESULT}/insert", json={"itemId": first, "results": POINTS}, headers=people["lab"]))
    body = refused(
        client.put(
            f"{APP}/confirmCalibration", json={"applicationId": application["applicationId"]}, headers=people["lab"]
        )
    )
    assert "S-2" in body["msg"]


def test_cancellation_request_and_check_from_every_status(app, client, people):
    for current in ALL:
        application = apply(client, people["a"])["applicationId"]
        force(app, application, current)
        response = client.post(
            f"{APP}/cancel/apply", json={"applicationId": application, "reason": "ordered twice"}, headers=people["a"]
        )
        if current not in states.CANCELLABLE:
            refused(response)
            continue
        assert ok(response)["cancelRequested"] is True
        # A second request waits for the first.
        refused(
            client.post(f"{APP}/cancel/apply", json={"applicationId": application, "reason": "x"}, headers=people["a"])
        )
        check = {"applicationId": application, "approve": True, "answer": "done"}
        assert ok(client.put(f"{APP}/cancel/check", json=check, headers=people["lab"]))["calibrationStatus"] == 7
    # Refused request: the order goes on.
    application = apply(client, people["a"])["applicationId"]
    ok(client.post(f"{APP}/cancel/apply", json={"applicationId": application, "reason": "r"}, headers=people["a"]))
    data = ok(
        client.put(f"{APP}/cancel/check", json={"applicationId": application, "approve": False}, headers=people["lab"])
    )
    assert data["calibrationStatus"] == 1 and data["cancelRequested"] is False
    refused(
        client.put(f"{APP}/cancel/check", json={"applicationId": application, "approve": True}, headers=people["lab"])
    )


# ---- the whole flow, the certificate and its PDF --------------------------------------------------


def walk_to_completed(client, people, **extra) -> dict:
    application = apply(client, people["a"], **extra)
    application_id = application["applicationId"]
    lab, customer = people["lab"], people["a"]
    ok(client.put(f"{APP}/applicationStatus", json={"applicationId": application_id, "status": 2}, headers=lab))
    tracking = {"applicationId": application_id, "trackingCompany": "SF", "trackingNumber": "SF0001"}
    ok(client.put(f"{APP}/trackingNumber", json=tracking, headers=customer))
    ok(client.put(f"{APP}/applicationStatus", json={"applicationId": application_id, "status": 4}, headers=lab))
    for row in application["items"]:
        ok(client.post(f"{RESULT}/insert", json={"itemId": row["itemId"], "results": POINTS}, headers=lab))
    ok(client.put(f"{APP}/confirmCalibration", json={"applicationId": application_id}, headers=lab))
    return application


def test_the_certificate_pdf_prints_the_recorded_results(app, client, people):
    application = walk_to_completed(client, people)
    application_id = application["applicationId"]
    results = ok(client.get(f"{RESULT}/queryResultList?applicationId={application_id}", headers=people["a"]))
    # A correction before issuing is refused now that the certificate exists.
    result_id = results[0]["results"][0]["resultId"]
    refused(client.put(f"{RESULT}/update", json={**POINTS[0], "resultId": result_id}, headers=people["lab"]))
    response = client.get(f"{APP}/download/order?applicationId={application_id}", headers=people["a"])
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    assert response.data.startswith(b"%PDF-")
    assert "filename=" in response.headers["Content-Disposition"]
    text = pdf_text(response.data)
    recorded = results[0]["results"]
    assert [r["error"] for r in recorded] == pytest.approx([-0.11, 0.04, 0.37])
    position = 0
    for row in recorded:
        for value in (row["reference"], row["reading"], row["error"], row["uncertainty"]):
            found = text.find(f"{value:.3f}", position)
            assert found >= 0, (value, text)
            position = found
        verdict = "Pass" if row["passed"] else "Fail"
        found = text.find(verdict, position)
        assert found >= 0, (verdict, text)
    detail = ok(client.get(f"{APP}/get/applicationInfo?applicationId={application_id}", headers=people["a"]))
    number = detail["certificates"][0]["certificateNumber"]
    assert number in text and "Calibration Certificate" in text and "Traceability" in text
    assert [h["toStatus"] for h in detail["history"]] == [1, 2, 3, 4, 5, 6]
    # The QR code's link opens the public verification page.
    qr = ok(client.get(f"{APP}/getQR?applicationId={application_id}", headers=people["a"]))
    code = qr[0]["url"].split("code=")[1]
    verified = ok(client.get(f"{CAL}/Certificate/verify?code={code}"))
    assert verified["certificateNumber"] == number and verified["valid"] is True and verified["passed"] is False
    assert client.get(f"{CAL}/Certificate/verify?code=not-a-real-code").get_json()["code"] == 404
    explained = ok(client.get(f"{APP}/result/explain?applicationId={application_id}", headers=people["a"]))
    assert explained["items"][0]["passed"] is False and "3" in explained["items"][0]["explanation"]


def test_certificate_numbers_are_unique(app, client, people):
    walk_to_completed(client, people, items=[item(serial="A-1"), item(serial="A-2")])
    walk_to_completed(client, people)
    with app.app_context():
        numbers = list(db.session.scalars(select(Certificate.number)))
        assert len(numbers) == 3 and len(set(numbers)) == 3
        first = db.session.scalars(select(Certificate)).first()
        clone = Certificate(
            platform_id=first.platform_id,
            application_id=first.application_id,
            item_id=first.item_id,
            number=first.number,
            verify_code="another-code-123",
            issued_at=first.issued_at,
            next_due_at=first.next_due_at,
            passed=True,
        )
        db.session.add(clone)
        with pytest.raises(IntegrityError):
            db.session.commit()
        db.session.rollback()


def test_a_cancelled_order_refuses_the_pdf(app, client, people):
    application = walk_to_completed(client, people)["applicationId"]
    for status in (7, 8):
        force(app, application, status)
        for who in ("a", "lab"):
            response = client.get(f"{APP}/download/order?applicationId={application}", headers=people[who])
            body = response.get_json()
            assert body["code"] != 0 and body["msg"] == "this order has been cancelled"
    zh = client.get(
        f"{APP}/download/order?applicationId={application}", headers={**people["a"], "Accept-Language": "zh-CN"}
    ).get_json()
    assert zh["code"] != 0 and zh["msg"] == "该订单已取消"


def test_pdf_not_issued_yet(client, people):
    application = apply(client, people["a"])["applicationId"]
    body = client.get(f"{APP}/download/order?applicationId={application}", headers=people["a"]).get_json()
    assert body["code"] != 0


def test_reports_and_imported_certificates_are_pdfs(app, client, people):
    application = apply(client, people["a"])
    application_id, item_id = application["applicationId"], application["items"][0]["itemId"]
    lab = people["lab"]
    not_pdf = {"file": (io.BytesIO(b"hello"), "x.pdf")}
    response = client.post(f"{APP}/upload/report?applicationId={application_id}", data=not_pdf, headers=lab)
    assert response.status_code == 415
    data = {"file": (io.BytesIO(PDF), "report.pdf")}
    ok(client.post(f"{APP}/upload/report?applicationId={application_id}", data=data, headers=lab))
    response = client.get(f"{APP}/download/report?applicationId={application_id}", headers=people["a"])
    assert response.status_code == 200 and response.data == PDF
    # An imported certificate stands in for the results.
    force(app, application_id, states.CALIBRATING)
    data = {"file": (io.BytesIO(PDF), "cert.pdf")}
    ok(client.post(f"{RESULT}/importCert?itemId={item_id}", data=data, headers=lab))
    ok(client.put(f"{APP}/confirmCalibration", json={"applicationId": application_id}, headers=lab))
    response = client.get(f"{APP}/download/order?applicationId={application_id}&itemId={item_id}", headers=people["a"])
    assert response.data == PDF


# ---- validation and limits ------------------------------------------------------------------------


def test_the_item_list_must_not_be_empty_and_too_many_suggests_customer_service(client, people):
    response = client.post(f"{APP}/apply", json=application_body(items=[]), headers=people["a"])
    assert response.status_code == 422 and "items" in response.get_json()["msg"]
    assert "must not be empty" in response.get_json()["msg"]
    many = [item(serial=f"S{i}") for i in range(51)]
    body = client.post(f"{APP}/apply", json=application_body(items=many), headers=people["a"]).get_json()
    assert body["code"] == 4001 and "customer service" in body["msg"]
    bad = client.post(f"{APP}/apply", json=application_body(items=[item(points=[])]), headers=people["a"])
    assert bad.status_code == 422


def test_prices_are_public_and_orders_priced_by_the_server(client, people):
    prices = ok(client.get(f"{CAL}/PriceConf/get/price"))
    standard = next(p for p in prices if p["level"] == "standard")
    application = apply(client, people["a"], items=[item(points=[1, 2, 3, 4, 5], quantity=2)])
    expected = (standard["basePrice"] + 2 * standard["pointPrice"]) * 2
    assert application["totalPrice"] == expected


def test_customer_edits_and_invoice(client, people):
    application = apply(client, people["a"])["applicationId"]
    base = {**{k: v for k, v in application_body().items() if k != "items"}, "applicationId": application}
    assert (
        ok(client.put(f"{APP}/update/baseInfo", json={**base, "contact": "Wang"}, headers=people["a"]))["contact"]
        == "Wang"
    )
    invoice = {"title": "Acme Ltd", "taxNo": "91310000X", "email": "ap@example.com"}
    ok(
        client.put(
            f"{APP}/update/invoice", json={"applicationId": application, "invoice": invoice}, headers=people["a"]
        )
    )
    assert ok(client.get(f"{APP}/getUserInvoice", headers=people["a"]))["title"] == "Acme Ltd"
    assert ok(client.get(f"{APP}/getUserInvoice", headers=people["b"])) is None


def test_quick_orders(client, people):
    quick = ok(
        client.post(
            f"{APP}/applyQuickOrder", json={"contact": "Li", "phone": "13800000000", "quantity": 8}, headers=people["a"]
        )
    )
    page = ok(client.post(f"{APP}/page/allQuickOrder", json={}, headers=people["lab"]))
    assert page["total"] == 1 and page["list"][0]["status"] == "pending"
    handle = {"quickOrderId": quick["quickOrderId"], "status": "handled", "note": "called back"}
    assert ok(client.put(f"{APP}/handleQuickOrder", json=handle, headers=people["lab"]))["status"] == "handled"
    refused(client.put(f"{APP}/handleQuickOrder", json=handle, headers=people["lab"]))


# ---- who sees what --------------------------------------------------------------------------------


def test_a_customer_never_sees_another_s_orders(app, client, people):
    application = walk_to_completed(client, people)
    application_id = application["applicationId"]
    b = people["b"]
    assert ok(client.post(f"{APP}/page/ApplicationOrder", json={}, headers=b))["total"] == 0
    assert ok(client.post(f"{APP}/page/ApplicationOrder", json={}, headers=people["a"]))["total"] == 1
    for path in (
        "get/applicationInfo",
        "download/order",
        "download/report",
        "result/explain",
        "getQR",
    ):
        response = client.get(f"{APP}/{path}?applicationId={application_id}", headers=b)
        assert response.status_code == 404, (path, response.get_data(as_text=True)[:200])
    response = client.get(f"{RESULT}/queryResultList?applicationId={application_id}", headers=b)
    assert response.status_code == 404
    for method, path, body in (
        ("put", "trackingNumber", {"trackingCompany": "SF", "trackingNumber": "SF9999"}),
        ("put", "update/invoice", {"invoice": {"title": "X"}}),
        ("post", "cancel/apply", {"reason": "x"}),
    ):
        response = getattr(client, method)(f"{APP}/{path}", json={"applicationId": application_id, **body}, headers=b)
        assert response.status_code == 404, path
    # The lab admin sees every order of the site.
    assert ok(client.post(f"{APP}/page/allApplicationOrder", json={}, headers=people["lab"]))["total"] == 1
    ok(client.get(f"{APP}/get/applicationInfo?applicationId={application_id}", headers=people["lab"]))


ADMIN_CALLS = (
    ("post", "Application/page/allApplicationOrder", {}),
    ("post", "Application/page/allQuickOrder", {}),
    ("put", "Application/handleQuickOrder", {"quickOrderId": 1, "status": "handled"}),
    ("put", "Application/applicationStatus", {"applicationId": 1, "status": 2}),
    ("put", "Application/cancel/check", {"applicationId": 1, "approve": True}),
    ("put", "Application/confirmCalibration", {"applicationId": 1}),
    ("post", "Application/upload/report?applicationId=1", None),
    ("post", "ResultInfo/insert", {"itemId": 1, "results": POINTS}),
    ("put", "ResultInfo/update", {**POINTS[0], "resultId": 1}),
    ("post", "ResultInfo/importCert?itemId=1", None),
)


def test_a_customer_token_cannot_call_the_lab_s_calls(client, people):
    apply(client, people["a"])
    info = ok(client.get("/api/base/BaseAccount/accountInfo", headers=people["a"]))
    assert "calibration.lab" not in info["permissionRoutes"]
    lab_info = ok(client.get("/api/base/BaseAccount/accountInfo", headers=people["lab"]))
    assert "calibration.lab.edit" in lab_info["permissionRoutes"]
    for method, path, body in ADMIN_CALLS:
        response = getattr(client, method)(f"{CAL}/{path}", json=body, headers=people["a"])
        assert response.status_code == 403, (path, response.get_json())


def test_another_site_s_lab_admin_sees_nothing(app, client, make_client, people):
    application = apply(client, people["a"])["applicationId"]
    junjia = make_client("junjia.localhost")
    make_account(app, host="junjia.localhost", user_name="lab_j")
    make_lab_admin(app, "lab_j", host="junjia.localhost")
    headers = auth(login(junjia, "lab_j"))
    assert ok(junjia.post(f"{APP}/page/allApplicationOrder", json={}, headers=headers))["total"] == 0
    response = junjia.put(f"{APP}/applicationStatus", json={"applicationId": application, "status": 2}, headers=headers)
    assert response.status_code == 404
    assert status_of(app, application) == 1


def test_the_device_detail_shows_its_certificate(app, client, people, guids):
    guid, _ = guids["th_a"]
    device_id = add(client, people["a"], guid, name="Fridge")
    walk_to_completed(client, people, items=[item(serial=guid)])
    data = ok(client.get(f"{CAL}/Certificate/device?deviceId={device_id}", headers=people["a"]))
    assert data["certificateNumber"] and data["overdue"] is False and data["applicationId"]
    assert client.get(f"{CAL}/Certificate/device?deviceId={device_id}", headers=people["b"]).status_code == 404
