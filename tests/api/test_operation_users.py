"""System users and staff roles of the operator's area (business-domain section 7 account calls)."""

from __future__ import annotations

from sqlalchemy import select

from api.extensions.db import db
from api.identity.models import Account, AccountType
from tests.api.account_helpers import PASSWORD, login, make_account
from tests.api.customization_helpers import staff

BASE = "/api/base/BaseAccount"
NEW_PASSWORD = "New#2027"


def account_id(app, user_name: str) -> int:
    with app.app_context():
        return db.session.scalar(select(Account.id).where(Account.user_name == user_name))


def sign_in(client, user_name, password):
    return client.post(f"{BASE}/login", json={"userName": user_name, "password": password}).get_json()


def test_operator_runs_every_account(app, make_client):
    (operator, op), (reseller, _), _ = staff(app, make_client, lang="en-US")
    added = operator.post(
        f"{BASE}/sysAddUser",
        headers=op,
        json={"userName": "newcustomer", "password": PASSWORD, "accountType": "personal", "email": "New@Example.com"},
    )
    assert added.status_code == 200, added.get_json()
    new = added.get_json()["data"]
    assert new["email"] == "new@example.com" and new["accountType"] == "personal" and "password" not in new

    listed = operator.post(f"{BASE}/get/list", headers=op, json={"pageSize": 50}).get_json()["data"]
    assert {"operator", "demouser", "reseller", "newcustomer"} <= {row["userName"] for row in listed["list"]}
    found = operator.post(f"{BASE}/get/list", headers=op, json={"keyword": "NEWCUST"}).get_json()["data"]
    assert [row["userName"] for row in found["list"]] == ["newcustomer"]
    by_role = operator.post(f"{BASE}/queryUserByRole", headers=op, json={"staffRole": "platform_admin"}).get_json()[
        "data"
    ]
    assert [row["userName"] for row in by_role["list"]] == ["reseller"]

    changed = operator.post(
        f"{BASE}/sysModifyUser",
        headers=op,
        json={"id": new["id"], "realName": "New One", "staffRole": "platform_admin"},
    )
    assert (
        changed.get_json()["data"]["realName"] == "New One"
        and changed.get_json()["data"]["staffRole"] == "platform_admin"
    )
    upgraded = operator.put(f"{BASE}/userTypeUpgrade", headers=op, json={"id": new["id"], "companyName": "New Co"})
    assert upgraded.get_json()["data"]["accountType"] == "enterprise"
    again = operator.put(f"{BASE}/userTypeUpgrade", headers=op, json={"id": new["id"], "companyName": "New Co"})
    assert again.status_code == 422 and "id" in again.get_json()["data"]["errors"]

    customer = make_client(lang="en-US")
    token = login(customer, "newcustomer")
    # Staff never choose the new password (tests/api/test_signer_controls.py): they name the account.
    chosen = operator.post(f"{BASE}/resetPasswordBySys", headers=op, json={"id": new["id"], "password": NEW_PASSWORD})
    assert chosen.status_code == 422 and "password" in chosen.get_json()["data"]["errors"]
    reset = operator.post(f"{BASE}/resetPasswordBySys", headers=op, json={"id": new["id"]})
    assert reset.status_code == 200 and reset.get_json()["data"]["sentTo"] == "n***@example.com"
    assert customer.get(f"{BASE}/accountInfo", headers={"Authorization": f"Bearer {token}"}).status_code == 401
    assert sign_in(customer, "newcustomer", PASSWORD)["code"] != 0
    assert sign_in(customer, "newcustomer", NEW_PASSWORD)["code"] != 0

    assert operator.post(f"{BASE}/sysDeleteUser", headers=op, json={"id": new["id"]}).status_code == 200
    assert sign_in(customer, "newcustomer", PASSWORD)["code"] != 0
    assert (
        operator.post(f"{BASE}/sysDeleteUser", headers=op, json={"id": account_id(app, "operator")}).status_code == 409
    )

    roles = operator.get("/api/base/BaseRole/staffRoleList", headers=op).get_json()["data"]
    assert [r["staffRole"] for r in roles] == ["operator", "platform_admin"]
    assert "customized.list" in roles[0]["permissions"] and "customized.list.add" not in roles[1]["permissions"]
    assert reseller is not None


def test_a_reseller_admin_reaches_only_its_own_platform(app, make_client):
    _, (reseller, rs), _ = staff(app, make_client)
    demouser = account_id(app, "demouser")
    before = {
        row["userName"] for row in reseller.post(f"{BASE}/get/list", headers=rs, json={}).get_json()["data"]["list"]
    }
    assert before == {"reseller"}
    for method, path, body in [
        ("post", "sysModifyUser", {"id": demouser, "realName": "Hijacked"}),
        ("post", "sysDeleteUser", {"id": demouser}),
        ("post", "resetPasswordBySys", {"id": demouser}),
        ("put", "userTypeUpgrade", {"id": demouser, "companyName": "Hijacked Co"}),
    ]:
        answer = getattr(reseller, method)(f"{BASE}/{path}", headers=rs, json=body)
        assert answer.status_code == 404, (path, answer.get_json())
    with app.app_context():
        account = db.session.get(Account, demouser)
        assert (account.real_name, account.cancelled, account.account_type) == (None, False, AccountType.ENTERPRISE)
    assert sign_in(make_client(), "demouser", PASSWORD)["code"] == 0
    # Their own platform's accounts, without staff roles.
    made = reseller.post(f"{BASE}/sysAddUser", headers=rs, json={"userName": "junjiauser", "password": PASSWORD})
    with app.app_context():
        junjia = db.session.get(Account, account_id(app, "reseller")).platform_id
    assert made.status_code == 200 and made.get_json()["data"]["platformId"] == junjia
    refused = reseller.post(
        f"{BASE}/sysAddUser", headers=rs, json={"userName": "junjiaboss", "password": PASSWORD, "staffRole": "operator"}
    )
    assert refused.status_code == 422 and "staffRole" in refused.get_json()["data"]["errors"]
    other = reseller.post(
        f"{BASE}/sysAddUser", headers=rs, json={"userName": "elsewhere", "password": PASSWORD, "platformId": 1}
    )
    assert other.status_code == 403
    assert [
        r["staffRole"] for r in reseller.get("/api/base/BaseRole/staffRoleList", headers=rs).get_json()["data"]
    ] == ["platform_admin"]


def test_plain_accounts_get_403_on_every_operator_call(app, make_client):
    _, _, (user, headers) = staff(app, make_client)
    me = account_id(app, "demouser")
    calls = [
        user.post(f"{BASE}/get/list", headers=headers, json={}),
        user.post(f"{BASE}/queryUserByRole", headers=headers, json={"staffRole": "operator"}),
        user.post(f"{BASE}/sysAddUser", headers=headers, json={"userName": "sneaky1", "password": PASSWORD}),
        user.post(f"{BASE}/sysModifyUser", headers=headers, json={"id": me, "staffRole": "operator"}),
        user.post(f"{BASE}/sysDeleteUser", headers=headers, json={"id": me}),
        user.post(f"{BASE}/resetPasswordBySys", headers=headers, json={"id": me}),
        user.put(f"{BASE}/userTypeUpgrade", headers=headers, json={"id": me, "companyName": "Sneaky Co"}),
        user.post(f"{BASE}/unlock/{me}", headers=headers),
        user.get("/api/base/BaseRole/staffRoleList", headers=headers),
    ]
    assert [c.status_code for c in calls] == [403] * len(calls)
    with app.app_context():
        assert db.session.get(Account, me).staff_role is None


def test_bad_input_is_named_and_localized(app, make_client):
    (operator, op), _, _ = staff(app, make_client)
    for lang, expected in (("zh-CN", "用户已存在"), ("en-US", "The user already exists")):
        operator.lang = lang
        duplicate = operator.post(f"{BASE}/sysAddUser", headers=op, json={"userName": "demouser", "password": PASSWORD})
        assert duplicate.status_code == 422 and expected in duplicate.get_json()["data"]["errors"]["userName"][0]
        bad = operator.post(f"{BASE}/sysAddUser", headers=op, json={"userName": "1bad", "password": "short"})
        errors = bad.get_json()["data"]["errors"]
        assert bad.status_code == 422 and {"userName", "password"} <= set(errors)
    with app.app_context():
        assert db.session.scalar(select(Account.id).where(Account.user_name == "1bad")) is None


def test_a_locked_user_shows_locked_in_the_list_and_is_unlocked_from_it(app, make_client):
    """Issue 47: the list read a column the lockout never writes, so a locked user always showed
    "Normal" and could not be unlocked from the list."""
    (operator, op), _, _ = staff(app, make_client, lang="en-US")
    guesser = make_client(lang="en-US")
    for _ in range(5):
        sign_in(guesser, "demouser", "Wrong#123")
    assert guesser.post(f"{BASE}/login", json={"userName": "demouser", "password": PASSWORD}).status_code == 429

    def row():
        listed = operator.post(f"{BASE}/get/list", headers=op, json={"keyword": "demouser"}).get_json()["data"]
        [found] = [r for r in listed["list"] if r["userName"] == "demouser"]
        return found

    locked = row()
    assert locked["locked"] is True and locked["lockedUntil"]
    assert operator.post(f"{BASE}/unlock/{locked['id']}", headers=op).get_json()["code"] == 0
    unlocked = row()
    assert (unlocked["locked"], unlocked["lockedUntil"]) == (False, None)
    assert sign_in(guesser, "demouser", PASSWORD)["code"] == 0


def test_the_operator_unlocks_whom_the_list_shows_on_an_independent_site_too(app, make_client):
    """Unlock reaches exactly the user list's accounts: the operator's list shows a locked account of the
    independent junjia site, and unlocking it from that list works (it answered 404: the unlock looked
    in the operator site's own data space only). A reseller admin still reaches only their own site."""
    (operator, op), (reseller, rs), _ = staff(app, make_client, lang="en-US")
    make_account(app, host="junjia.localhost", user_name="junjiauser")
    guesser = make_client(host="junjia.localhost", lang="en-US")
    for _ in range(5):
        sign_in(guesser, "junjiauser", "Wrong#123")
    assert guesser.post(f"{BASE}/login", json={"userName": "junjiauser", "password": PASSWORD}).status_code == 429

    listed = operator.post(f"{BASE}/get/list", headers=op, json={"keyword": "junjiauser"}).get_json()["data"]
    [row] = [r for r in listed["list"] if r["userName"] == "junjiauser"]
    assert row["locked"] is True
    assert operator.post(f"{BASE}/unlock/{row['id']}", headers=op).get_json()["code"] == 0
    assert sign_in(guesser, "junjiauser", PASSWORD)["code"] == 0

    # The junjia admin does not reach the operator site's demouser, listed or not.
    with app.app_context():
        demouser = db.session.scalar(select(Account.id).where(Account.user_name == "demouser"))
    assert reseller.post(f"{BASE}/unlock/{demouser}", headers=rs).status_code == 404
