"""Platform customization (/customized/list): the calls of business-domain section 7, their rules,
reseller isolation, and a new site live on another process at once."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import requests
from sqlalchemy import func, select

from api.billing.models import Order, PayStatus
from api.extensions.db import db
from api.identity.models import Account, StaffRole
from api.notify.models import OutboundMessage
from api.platform.models import Platform
from api.platform.services import sync_tenants
from tests.api.customization_helpers import CUSTOM, GIF, JPG, PNG, acme, operator_client, staff, upload
from tests.api.gunicorn_helpers import Api

BRANDING = f"{CUSTOM}/queryByTopDomain"


def create_acme(operator, headers, **overrides) -> dict:
    logo = upload(operator, headers, "loginLogo", PNG).get_json()["data"]["url"]
    icon = upload(operator, headers, "browserLogo", PNG, "icon.png").get_json()["data"]["url"]
    body = operator.post(f"{CUSTOM}/insert", headers=headers, json=acme(loginLogo=logo, browserLogo=icon, **overrides))
    assert body.status_code == 200, body.get_json()
    return body.get_json()["data"]


def platform_rows(app) -> list[tuple]:
    with app.app_context():
        return [
            (p.slug, p.top_domain, p.theme_color, p.remark, p.login_logo, sorted(d.domain for d in p.domains))
            for p in db.session.scalars(select(Platform).order_by(Platform.id))
        ]


def uploaded_files(app) -> int:
    folder = Path(app.config["UPLOAD_DIR"]) / "_branding"
    return len(list(folder.iterdir())) if folder.is_dir() else 0


def test_operator_creates_a_site_that_answers_at_once(app, make_client):
    operator, headers = operator_client(app, make_client)
    created = create_acme(operator, headers, admin={"userName": "acme_admin", "email": "admin@acme.example.com"})
    assert created["themeColor"] == "#1a2b3c" and created["pageManaged"] is True
    assert created["adminUserName"] == "acme_admin"
    assert sorted(created["domains"]) == ["acme.example.com", "acme.localhost"]

    visitor = make_client(host="acme.localhost:3000", lang="en-US")
    branding = visitor.get(f"{BRANDING}?topDomain=acme.localhost").get_json()["data"]
    assert (branding["title"], branding["themeColor"], branding["styleModel"]) == (
        "Acme Cold Chain",
        "#1a2b3c",
        "junjia",
    )
    logo = visitor.get(branding["loginLogo"])
    assert logo.status_code == 200 and logo.mimetype == "image/png" and logo.data == PNG
    assert logo.headers["X-Content-Type-Options"] == "nosniff"
    with app.app_context():
        admin = db.session.scalar(select(Account).where(Account.user_name == "acme_admin"))
        assert admin.staff_role == StaffRole.PLATFORM_ADMIN
        message = db.session.scalar(
            select(OutboundMessage).where(OutboundMessage.recipient == "admin@acme.example.com")
        )
        assert "http://acme.localhost/user/recover" in message.body


def test_page_lists_every_platform_for_the_operator_and_only_its_own_for_a_reseller(app, make_client):
    (operator, op), (reseller, rs), _ = staff(app, make_client)
    create_acme(operator, op)
    everything = operator.post(f"{CUSTOM}/get/page", headers=op, json={"start": 1, "pageSize": 10}).get_json()["data"]
    assert {row["slug"] for row in everything["list"]} == {"default", "junjia", "acme"}
    assert "oauth" not in str(everything) and "clientSecret" not in str(everything)
    found = operator.post(f"{CUSTOM}/get/page", headers=op, json={"keyword": "ACME.example"}).get_json()["data"]
    assert [row["slug"] for row in found["list"]] == ["acme"]
    own = reseller.post(f"{CUSTOM}/get/page", headers=rs, json={}).get_json()["data"]
    assert [row["slug"] for row in own["list"]] == ["junjia"] and own["total"] == 1


def test_reseller_admin_edits_only_its_own_branding(app, make_client):
    (operator, op), (reseller, rs), _ = staff(app, make_client)
    acme_id = create_acme(operator, op)["id"]
    with app.app_context():
        ids = dict(db.session.execute(select(Platform.slug, Platform.id)).all())
    before = platform_rows(app)
    for platform_id in (ids["default"], acme_id):
        assert reseller.get(f"{CUSTOM}/get/{platform_id}", headers=rs).status_code == 404
        answer = reseller.put(f"{CUSTOM}/update", headers=rs, json={"id": platform_id, "themeColor": "#000000"})
        assert answer.status_code == 404, answer.get_json()
        assert reseller.delete(f"{CUSTOM}/delete?id={platform_id}", headers=rs).status_code == 403
    assert reseller.post(f"{CUSTOM}/insert", headers=rs, json=acme(topDomain="evil.localhost")).status_code == 403
    # The reduced form: domains, https, independence and the admin are the operator's.
    refused = reseller.put(f"{CUSTOM}/update", headers=rs, json={"id": ids["junjia"], "topDomain": "junjia2.localhost"})
    assert refused.status_code == 403 and "topDomain" in refused.get_json()["data"]["errors"]
    assert platform_rows(app) == before

    changed = reseller.put(f"{CUSTOM}/update", headers=rs, json={"id": ids["junjia"], "themeColor": "#123456"})
    assert changed.status_code == 200 and changed.get_json()["data"]["themeColor"] == "#123456"
    assert reseller.get(f"{CUSTOM}/get/{ids['junjia']}", headers=rs).get_json()["data"]["slug"] == "junjia"


def test_plain_accounts_get_403_on_every_customization_call(app, make_client):
    _, _, (user, headers) = staff(app, make_client)
    files = uploaded_files(app)
    calls = [
        user.post(f"{CUSTOM}/get/page", headers=headers, json={}),
        user.get(f"{CUSTOM}/get/1", headers=headers),
        user.post(f"{CUSTOM}/insert", headers=headers, json=acme()),
        user.put(f"{CUSTOM}/update", headers=headers, json={"id": 1, "themeColor": "#000000"}),
        user.delete(f"{CUSTOM}/delete?id=2", headers=headers),
        upload(user, headers, "loginLogo", PNG),
    ]
    assert [c.status_code for c in calls] == [403] * len(calls)
    assert uploaded_files(app) == files


def test_a_seeded_operator_on_a_reseller_site_is_not_staff_there(app, make_client):
    (operator, op), _, _ = staff(app, make_client)
    acme_id = create_acme(operator, op, independent=False)["id"]
    other = make_client(host="acme.localhost")
    headers = {"Authorization": op["Authorization"]}
    # The operator's token is bound to the operator's site; signing in on the reseller's is another session.
    assert other.post(f"{CUSTOM}/get/page", headers=headers, json={}).status_code == 401
    assert operator.get(f"{CUSTOM}/get/{acme_id}", headers=op).status_code == 200


BAD_INPUT = [
    ("invalid domain", {"topDomain": "not a host!"}, "topDomain"),
    ("duplicate domain", {"topDomain": "junjia.example.com"}, "topDomain"),
    ("duplicate extra domain", {"domains": ["junjia.example.com"]}, "domains"),
    ("bad colour", {"themeColor": "#12345G"}, "themeColor"),
    ("unknown style", {"styleModel": "nope"}, "styleModel"),
    ("remark of 51", {"remark": "x" * 51}, "remark"),
    ("empty remark", {"remark": ""}, "remark"),
    ("title of 101", {"title": {"zh-CN": "x" * 101}}, "title"),
    ("incomplete filing", {"recordLink": None}, "recordLink"),
    ("logo not uploaded", {"loginLogo": "https://evil.example.com/x.png"}, "loginLogo"),
]


def chinese(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def test_bad_input_names_the_field_and_changes_nothing(app, make_client):
    operator, op = operator_client(app, make_client)
    with app.app_context():
        default = db.session.scalar(select(Platform.id).where(Platform.slug == "default"))
    before = platform_rows(app)
    for lang in ("zh-CN", "en-US"):
        operator.lang = lang
        for case, change, field in BAD_INPUT:
            for answer in (
                operator.post(f"{CUSTOM}/insert", headers=op, json=acme(**change)),
                operator.put(f"{CUSTOM}/update", headers=op, json={"id": default, **change}),
            ):
                body = answer.get_json()
                assert answer.status_code == 422, (case, lang, body)
                assert field in body["data"]["errors"], (case, lang, body)
                assert field in body["msg"], (case, lang, body)
                assert chinese(str(body["data"]["errors"][field])) == (lang == "zh-CN"), (case, lang, body)
            assert platform_rows(app) == before, case


BAD_UPLOADS = [
    ("loginLogo", GIF, 415),  # a GIF named .png
    ("browserLogo", JPG, 415),  # icons only for the icon field
    ("indexLogo", PNG + b"\x00" * (2 * 1024 * 1024), 413),  # over the 2 MB image cap
    ("browserLogo", PNG + b"\x00" * (1024 * 1024), 413),  # over the 1 MB icon cap
]


def test_bad_uploads_are_refused_by_content(app, make_client):
    operator, op = operator_client(app, make_client)
    before = uploaded_files(app)
    expected = {
        413: {"zh-CN": "文件过大", "en-US": "The file is too large"},
        415: {"zh-CN": "文件错误", "en-US": "file error"},
    }
    for lang in ("zh-CN", "en-US"):
        operator.lang = lang
        for field, content, status in BAD_UPLOADS:
            answer = upload(operator, op, field, content)
            body = answer.get_json()
            assert answer.status_code == status, (field, body)
            assert field in body["data"]["errors"] and field in body["msg"]
            assert expected[status][lang] in body["msg"], body["msg"]
    assert uploaded_files(app) == before
    assert upload(operator, op, "browserLogo", PNG).status_code == 200
    assert uploaded_files(app) == before + 1


def test_a_site_nobody_paid_on_is_removed_with_its_accounts_a_paying_one_only_switched_off(app, make_client):
    """Issue 47: a site could never be removed or switched off once anyone registered."""
    operator, op = operator_client(app, make_client, lang="en-US")
    acme_id = create_acme(operator, op, admin={"userName": "acme_admin", "email": "a@acme.example.com"})["id"]
    with app.app_context():
        customer = Account(platform_id=acme_id, user_name="customer1", password_hash="x", account_type="enterprise")
        db.session.add(customer)
        db.session.flush()
        order = Order(
            platform_id=acme_id,
            owner_account_id=customer.id,
            order_code="T-ACME-1",
            order_fee=100,
            pay_fee=100,
            pay_status=PayStatus.PAID,
        )
        db.session.add(order)
        db.session.commit()
        order_id = order.id
    site = make_client(host="acme.localhost", lang="en-US")
    refused = operator.delete(f"{CUSTOM}/delete?id={acme_id}", headers=op)
    assert refused.status_code == 409 and "1 paying customers" in refused.get_json()["msg"]

    # Switched off: the domain answers "site closed" (its sign-in too); switched on again, it is back.
    closed = operator.put(f"{CUSTOM}/close", json={"id": acme_id, "closed": True}, headers=op).get_json()
    assert closed["code"] == 0 and closed["data"]["closedTime"]
    answer = wait_for(lambda: site.get(f"{BRANDING}?topDomain=acme.localhost"), lambda a: a.status_code == 410)
    assert answer.get_json()["msg"] == "This site is closed."
    signin = site.post("/api/base/BaseAccount/login", json={"userName": "customer1", "password": "x"})
    assert signin.status_code == 410
    assert operator.put(f"{CUSTOM}/close", json={"id": 1, "closed": True}, headers=op).status_code == 409
    reopened = operator.put(f"{CUSTOM}/close", json={"id": acme_id, "closed": False}, headers=op).get_json()
    assert reopened["data"]["closedTime"] is None
    wait_for(lambda: site.get(f"{BRANDING}?topDomain=acme.localhost"), lambda a: a.status_code == 200)

    # Nobody paid (the order gone): removed with its registered accounts.
    with app.app_context():
        db.session.execute(Order.__table__.delete().where(Order.id == order_id))
        db.session.commit()
    assert operator.delete(f"{CUSTOM}/delete?id={acme_id}", headers=op).status_code == 200
    assert make_client(host="acme.localhost").get(f"{BRANDING}?topDomain=acme.localhost").status_code == 421
    with app.app_context():
        names = set(db.session.scalars(select(Account.user_name).where(Account.platform_id == acme_id)))
        assert names == set()
        assert db.session.scalar(select(func.count(Account.id)).where(Account.user_name == "acme_admin")) == 0
    default_id = 1
    assert operator.delete(f"{CUSTOM}/delete?id={default_id}", headers=op).status_code == 409


def wait_for(call, done, seconds: float = 5.0):
    """The answer of `call` once `done` holds (a site change reaches each process's snapshot within a
    second), polled without a fixed sleep."""
    deadline = time.monotonic() + seconds
    while True:
        answer = call()
        if done(answer) or time.monotonic() > deadline:
            return answer


def test_the_page_wins_over_tenants_once_it_edited_a_platform(app, make_client):
    operator, op = operator_client(app, make_client)
    with app.app_context():
        junjia = db.session.scalar(select(Platform).where(Platform.slug == "junjia"))
        junjia_id, seeded = junjia.id, junjia.theme_color
    assert (
        operator.put(f"{CUSTOM}/update", headers=op, json={"id": junjia_id, "themeColor": "#abcdef"}).status_code == 200
    )
    with app.app_context():
        sync_tenants()
        assert db.session.get(Platform, junjia_id).theme_color == "#abcdef" != seeded
        default = db.session.scalar(select(Platform).where(Platform.slug == "default"))
        assert default.page_managed is False  # untouched platforms still follow tenants/


# ---- another process ------------------------------------------------------------------------------


@pytest.fixture
def second_process(app):
    """The api in two gunicorn workers on the same PostgreSQL and Redis as the tests, with the
    development settings' host aliases (junjia.localhost) and the tests' upload folder."""
    api = Api(
        app,
        "-w",
        "2",
        env={
            "APP_ENV": "development",
            "HOST_ALIASES": "localhost=default,junjia.localhost=junjia",
            "UPLOAD_DIR": str(app.config["UPLOAD_DIR"]),
        },
    )
    try:
        yield api.wait_healthy(timeout=120).url
    finally:
        api.close()


def branding_there(url: str, host: str) -> requests.Response:
    headers = {"Host": host, "Accept-Language": "zh-CN"}
    return requests.get(f"{url}{BRANDING}", params={"topDomain": host}, headers=headers, timeout=5)


def test_a_new_site_answers_at_once_in_another_process_and_follows_changes(app, make_client, second_process):
    operator, op = operator_client(app, make_client)
    # Both workers have resolved (and keep) the platforms they were asked for.
    for _ in range(6):
        assert branding_there(second_process, "junjia.localhost").status_code == 200
        assert branding_there(second_process, "acme.localhost").status_code == 421
    created = create_acme(operator, op)
    for _ in range(6):  # whichever worker answers
        answer = branding_there(second_process, "acme.localhost")
        assert answer.status_code == 200, answer.text
        data = answer.json()["data"]
        assert (data["themeColor"], data["title"]) == ("#1a2b3c", "艾克米冷链")
        logo = requests.get(f"{second_process}{data['loginLogo']}", headers={"Host": "acme.localhost"}, timeout=5)
        assert logo.status_code == 200 and logo.content == PNG

    # A change of a platform every worker keeps a copy of shows within 5 s.
    started = time.monotonic()
    operator.put(f"{CUSTOM}/update", headers=op, json={"id": created["id"], "themeColor": "#00ff00"})
    seen: list[str] = []
    while time.monotonic() - started < 5:
        seen = [branding_there(second_process, "acme.localhost").json()["data"]["themeColor"] for _ in range(6)]
        if set(seen) == {"#00ff00"}:
            break
        time.sleep(0.1)
    elapsed = time.monotonic() - started
    assert set(seen) == {"#00ff00"}, seen
    print(f"BENCH customization_live_seconds {elapsed:.2f} s")


def test_a_site_whose_account_is_on_the_trail_is_refused_with_409_not_500(app, make_client):
    """Issue 47 (found by the reseller journey): deleting a site whose admin had used it answered 500.
    The trail is append-only, so its rows' account cannot be set NULL: the accounts' flush failed
    outside the handler that turns such a refusal into "still owns data" (409)."""
    from api.audit.recorder import record_event

    operator, op = operator_client(app, make_client, lang="en-US")
    acme_id = create_acme(operator, op)["id"]
    with app.app_context():
        customer = Account(platform_id=acme_id, user_name="customer1", password_hash="x", account_type="enterprise")
        db.session.add(customer)
        db.session.commit()
        with app.test_request_context("/api/base/BaseAccount/login", method="POST"):
            record_event(customer, "signed in", platform_id=acme_id)
            db.session.commit()
    refused = operator.delete(f"{CUSTOM}/delete?id={acme_id}", headers=op)
    assert refused.status_code == 409, refused.get_data(as_text=True)
    assert "still owns data" in refused.get_json()["msg"]
    with app.app_context():
        assert db.session.get(Platform, acme_id) is not None
