"""Verification codes by SMS and email, registration, recovery, binding and cancellation."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from api.extensions.db import db
from api.notify.jobs import WIPED
from api.notify.models import DeliveryStatus, OutboundMessage
from tests.api.account_helpers import BASE, PASSWORD, auth, last_code, load_account, login, make_account, providers

__all__ = ["providers"]

NEW_PASSWORD = "Fresh#2027"


def register_payload(**overrides):
    return {
        "accountType": "personal",
        "userName": "new_user",
        "email": "new.user@example.com",
        "password": NEW_PASSWORD,
        "confirmPassword": NEW_PASSWORD,
        "code": "000000",
        **overrides,
    }


def email_code(client, run_jobs, inbox, address, purpose):
    assert client.get(f"{BASE}/code/email", query_string={"email": address, "type": purpose}).get_json()["code"] == 0
    run_jobs()
    return last_code(inbox.bodies_to(address))


class TestCodes:
    def test_email_code_goes_out_over_smtp_and_is_wiped_after(self, app, client, run_jobs, providers):
        inbox, _sms = providers
        body = client.get(f"{BASE}/code/email", query_string={"email": "a.b@example.com", "type": "register"})
        assert body.get_json() == {"code": 0, "msg": "成功", "data": {"resendAfter": 60}}
        run_jobs()
        [text] = inbox.bodies_to("a.b@example.com")
        assert "冷迹云监测平台" in text and last_code([text])
        with app.app_context():
            message = db.session.scalar(select(OutboundMessage))
            assert (message.status, message.body) == (DeliveryStatus.SENT, WIPED)

    def test_phone_code_goes_to_the_provider_signed(self, client, run_jobs, providers):
        _inbox, sms = providers
        client.get(f"{BASE}/code/phone", query_string={"phone": "13900139000", "type": "register"})
        run_jobs()
        assert last_code(sms.texts_to("+8613900139000"))

    def test_provider_failure_is_retried_not_lost(self, app, client, run_jobs, providers):
        _inbox, sms = providers
        sms.fail_next = 1
        client.get(f"{BASE}/code/phone", query_string={"phone": "13900139000", "type": "register"})
        run_jobs()
        with app.app_context():
            message = db.session.scalar(select(OutboundMessage))
            assert (message.status, message.attempts) == (DeliveryStatus.PENDING, 1)
            from api.notify.jobs import deliver_message

            assert deliver_message(message.id) == "sent"  # what RQ's Retry does after its interval
            assert deliver_message(message.id) == "skipped"  # and a duplicate run sends nothing
        assert len(sms.texts_to("+8613900139000")) == 1

    def test_resend_within_a_minute_is_refused(self, make_client, providers):
        client = make_client(lang="en-US")
        query = {"email": "a.b@example.com", "type": "register"}
        client.get(f"{BASE}/code/email", query_string=query)
        again = client.get(f"{BASE}/code/email", query_string=query)
        assert again.status_code == 429
        assert "seconds before asking for another code" in again.get_json()["msg"]

    def test_per_address_limit(self, client, providers):
        statuses = [
            client.get(
                f"{BASE}/code/email", query_string={"email": f"u{i}@example.com", "type": "register"}
            ).status_code
            for i in range(6)
        ]
        assert statuses == [200] * 5 + [429]

    @pytest.mark.parametrize(
        ("query", "field"),
        [({"phone": "12345", "type": "register"}, "phone"), ({"phone": "13900139000", "type": "spam"}, "type")],
    )
    def test_bad_input_names_the_field(self, client, query, field):
        body = client.get(f"{BASE}/code/phone", query_string=query).get_json()
        assert body["code"] == 422 and field in body["data"]["errors"]

    def test_recovery_code_for_an_unknown_address_says_nothing_and_sends_nothing(self, client, run_jobs, providers):
        inbox, _ = providers
        body = client.get(f"{BASE}/code/email", query_string={"email": "ghost@example.com", "type": "forgot"})
        assert body.get_json()["code"] == 0
        run_jobs()
        assert inbox.bodies_to("ghost@example.com") == []

    def test_register_code_for_a_taken_address_is_refused(self, app, make_client, providers):
        make_account(app, email="taken@example.com")
        body = make_client(lang="en-US").get(
            f"{BASE}/code/email", query_string={"email": "taken@example.com", "type": "register"}
        )
        assert body.get_json()["msg"] == "The user already exists"


class TestRegister:
    def test_personal_account_with_email_code_then_sign_in(self, client, run_jobs, providers):
        inbox, _ = providers
        code = email_code(client, run_jobs, inbox, "new.user@example.com", "register")
        body = client.post(f"{BASE}/register", json=register_payload(code=code)).get_json()
        assert body["code"] == 0 and body["data"]["token"]
        info = client.get(f"{BASE}/accountInfo", headers=auth(body["data"]["token"])).get_json()["data"]
        assert info["baseAccount"]["accountType"] == "personal"
        assert login(client, "new_user", NEW_PASSWORD)

    def test_business_account_needs_a_company(self, client):
        body = client.post(f"{BASE}/register", json=register_payload(accountType="enterprise")).get_json()
        assert body["code"] == 422 and "companyName" in body["data"]["errors"]

    def test_a_wrong_code_registers_nothing(self, make_client, providers):
        client = make_client(lang="en-US")
        client.get(f"{BASE}/code/email", query_string={"email": "new.user@example.com", "type": "register"})
        body = client.post(f"{BASE}/register", json=register_payload(code="123456")).get_json()
        assert body["msg"] == "The code is wrong or has expired, please get a new one."
        assert (
            client.post(f"{BASE}/login", json={"userName": "new_user", "password": NEW_PASSWORD}).get_json()["code"]
            == 1001
        )

    def test_closed_on_a_site_with_enable_register(self, make_client):
        response = make_client(host="junjia.localhost", lang="en-US").post(f"{BASE}/register", json=register_payload())
        assert response.get_json() == {"code": 1008, "msg": "Registration is closed on this site.", "data": None}

    def test_existing_user_name_is_refused(self, app, client, run_jobs, providers):
        inbox, _ = providers
        make_account(app, user_name="new_user")
        code = email_code(client, run_jobs, inbox, "new.user@example.com", "register")
        assert client.post(f"{BASE}/register", json=register_payload(code=code)).get_json()["code"] == 1004

    @pytest.mark.parametrize(
        ("overrides", "field", "message"),
        [
            ({"userName": "abc"}, "userName", "6-50 letters"),
            ({"userName": "1starts_with_digit"}, "userName", "not starting with a digit"),
            ({"userName": "_underscore"}, "userName", "not starting with a digit"),
            ({"password": "short", "confirmPassword": "short"}, "password", "6-20 characters"),
            ({"password": "onlyletters", "confirmPassword": "onlyletters"}, "password", "at least two of"),
            ({"password": "12345678", "confirmPassword": "12345678"}, "password", "at least two of"),
            ({"password": "with space1", "confirmPassword": "with space1"}, "password", "without spaces"),
            ({"password": "a" * 19 + "1!", "confirmPassword": "a" * 19 + "1!"}, "password", "6-20 characters"),
            ({"confirmPassword": "Other#2027"}, "confirmPassword", "do not match"),
            ({"email": None}, "phone", "either a phone number or an email"),
            ({"phone": "13900139000"}, "phone", "either a phone number or an email"),
            ({"email": "not-an-email"}, "email", "valid email"),
            ({"accountType": "martian"}, "accountType", "Must be one of"),
        ],
    )
    def test_validation_rules(self, make_client, overrides, field, message):
        body = make_client(lang="en-US").post(f"{BASE}/register", json=register_payload(**overrides)).get_json()
        assert body["code"] == 422, body
        assert message in " ".join(body["data"]["errors"][field])

    def test_chinese_user_names_are_allowed(self, make_client):
        body = (
            make_client(lang="en-US").post(f"{BASE}/register", json=register_payload(userName="冷链用户abc")).get_json()
        )
        assert "userName" not in body["data"].get("errors", {}) if body["data"] else True


class TestRecovery:
    def test_forgot_password_resets_and_ends_every_session(self, app, client, run_jobs, providers):
        inbox, _ = providers
        account_id = make_account(app, email="demouser@example.com")
        old_token = login(client)
        code = email_code(client, run_jobs, inbox, "demouser@example.com", "forgot")
        body = client.post(
            f"{BASE}/forgot",
            json={
                "email": "demouser@example.com",
                "code": code,
                "password": NEW_PASSWORD,
                "confirmPassword": NEW_PASSWORD,
            },
        ).get_json()
        assert body["code"] == 0
        assert client.get(f"{BASE}/accountInfo", headers=auth(old_token)).status_code == 401
        assert login(client, password=NEW_PASSWORD)
        assert load_account(app, account_id).prev_reset_at > load_account(app, account_id).created_at

    def test_new_password_must_differ(self, app, make_client, run_jobs, providers):
        inbox, _ = providers
        make_account(app, email="demouser@example.com")
        client = make_client(lang="en-US")
        code = email_code(client, run_jobs, inbox, "demouser@example.com", "forgot")
        body = client.post(
            f"{BASE}/forgot",
            json={"email": "demouser@example.com", "code": code, "password": PASSWORD, "confirmPassword": PASSWORD},
        ).get_json()
        assert body["msg"] == "The new password must differ from the original one."

    def test_change_password_needs_the_old_one_and_revokes_sessions(self, app, make_client):
        make_account(app)
        client = make_client(lang="en-US")
        token = login(client)
        payload = {"oldPassword": "Wrong#000", "password": NEW_PASSWORD, "confirmPassword": NEW_PASSWORD}
        body = client.post(f"{BASE}/updatePassword", json=payload, headers=auth(token)).get_json()
        assert body["msg"] == "The original password is incorrect."
        payload["oldPassword"] = PASSWORD
        assert client.post(f"{BASE}/updatePassword", json=payload, headers=auth(token)).get_json()["code"] == 0
        assert client.get(f"{BASE}/accountInfo", headers=auth(token)).status_code == 401

    def test_email_code_sign_in_works_while_password_is_locked(self, app, client, run_jobs, providers):
        inbox, _ = providers
        make_account(app, email="demouser@example.com")
        for _ in range(5):
            client.post(f"{BASE}/login", json={"userName": "demouser", "password": "Wrong#123"})
        code = email_code(client, run_jobs, inbox, "demouser@example.com", "login")
        body = client.post(f"{BASE}/login/email", json={"email": "demouser@example.com", "code": code}).get_json()
        assert body["code"] == 0 and body["data"]["token"]

    def test_a_code_allows_five_guesses(self, app, client, run_jobs, providers):
        inbox, _ = providers
        make_account(app, email="demouser@example.com")
        code = email_code(client, run_jobs, inbox, "demouser@example.com", "login")
        for _ in range(5):
            client.post(f"{BASE}/login/email", json={"email": "demouser@example.com", "code": "999999"})
        body = client.post(f"{BASE}/login/email", json={"email": "demouser@example.com", "code": code}).get_json()
        assert body["code"] == 1003


class TestBindAndCancel:
    def test_bind_phone_and_email(self, app, client, run_jobs, providers):
        inbox, sms = providers
        account_id = make_account(app)
        token = login(client)
        client.get(f"{BASE}/code/phone", query_string={"phone": "13700137000", "type": "bind"})
        run_jobs()
        phone_code = last_code(sms.texts_to("+8613700137000"))
        assert (
            client.post(
                f"{BASE}/bindPhone", json={"phone": "13700137000", "code": phone_code}, headers=auth(token)
            ).get_json()["code"]
            == 0
        )
        code = email_code(client, run_jobs, inbox, "bound@example.com", "bind")
        assert (
            client.post(
                f"{BASE}/bindEmail", json={"email": "bound@example.com", "code": code}, headers=auth(token)
            ).get_json()["code"]
            == 0
        )
        account = load_account(app, account_id)
        assert (account.phone, account.email) == ("+8613700137000", "bound@example.com")
        assert login(client, "13700137000")

    def test_binding_needs_a_session(self, client):
        assert client.post(f"{BASE}/bindEmail", json={"email": "x@example.com", "code": "123456"}).status_code == 401

    def test_cancellation_ends_sessions_and_sign_in(self, app, make_client):
        make_account(app)
        client = make_client(lang="en-US")
        token = login(client)
        assert client.post(f"{BASE}/cancelWithNoParam", headers=auth(token)).get_json()["code"] == 0
        assert client.get(f"{BASE}/accountInfo", headers=auth(token)).status_code == 401
        body = client.post(f"{BASE}/login", json={"userName": "demouser", "password": PASSWORD}).get_json()
        assert body["code"] == 1001
