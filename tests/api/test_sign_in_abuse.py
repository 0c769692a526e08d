"""Sign-in abuse (issue 15): nobody can keep an account's owner from signing in or recovering, and
the answers and the work are the same for names and addresses that no account has."""

from __future__ import annotations

import re
from contextlib import contextmanager
from datetime import timedelta

import pytest
from sqlalchemy import event, insert, select

from api.account import services as account_services
from api.extensions.db import db, utcnow
from api.notify.models import DeliveryStatus, OutboundMessage
from api.tenancy import find_platform
from api.verification.models import CaptchaChallenge, CodeChannel, CodePurpose, VerificationCode
from api.verification.services import _digest
from tests.api.account_helpers import BASE, PASSWORD, last_code, make_account, providers

__all__ = ["providers"]

OWNER_IP = "127.0.0.1"
VICTIM = "victim@example.com"
WRONG = "Wrong#123"


def ip(address: str) -> dict:
    return {"environ_base": {"REMOTE_ADDR": address}}


def attacker(n: int) -> dict:
    return ip(f"203.0.113.{n}")


@pytest.fixture
def victim(app):
    return make_account(app, email=VICTIM)


def password_login(client, user_name="demouser", password=PASSWORD, **kwargs):
    return client.post(f"{BASE}/login", json={"userName": user_name, "password": password}, **kwargs).get_json()


def ask_code(client, purpose="login", captcha=None, email=VICTIM, **kwargs):
    query = {"email": email, "type": purpose, **(captcha or {})}
    return client.get(f"{BASE}/code/email", query_string=query, **kwargs).get_json()


def solved_captcha(app, client) -> dict:
    """A challenge from newVerify with an answer the test knows (the image is only for humans)."""
    key = client.get(f"{BASE}/newVerify").headers["X-Captcha-Key"]
    with app.app_context():
        db.session.get(CaptchaChallenge, key).answer_hash = _digest(key, "AB34")
        db.session.commit()
    return {"verifyKey": key, "verifyCode": "ab34"}


@contextmanager
def work(app):
    """What a request costs: the SQL statements it runs and the argon2 verifications it does."""
    seen = {"sql": [], "argon2": 0}
    original = account_services.password_hasher

    class Counting:
        def matches(self, *args, **kwargs):
            seen["argon2"] += 1
            return original.matches(*args, **kwargs)

        def __getattr__(self, name):
            return getattr(original, name)

    def statement(conn, cursor, text, params, context, executemany):
        seen["sql"].append(re.sub(r"\s+", " ", text.split(" WHERE ")[0])[:60])

    with app.app_context():
        engine = db.engine
    account_services.password_hasher = Counting()
    event.listen(engine, "before_cursor_execute", statement)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", statement)
        account_services.password_hasher = original


def no_time(body: dict) -> dict:
    """The lock message names the minute the lock ends; two answers a second apart may differ there."""
    return {**body, "msg": re.sub(r"\d\d:\d\d", "HH:MM", body["msg"])}


class TestPasswordLockout:
    def test_an_attacker_locks_only_itself(self, make_client, victim):
        client = make_client(lang="en-US")
        for _ in range(4):
            assert password_login(client, password=WRONG, **attacker(1))["code"] == 1001
        assert password_login(client, password=WRONG, **attacker(1))["code"] == 429
        assert password_login(client, **attacker(1))["code"] == 429  # the attacker waits, even with the password
        assert password_login(client, **ip(OWNER_IP))["code"] == 0  # the owner does not

    def test_many_requesters_slow_everyone_down_but_the_owners_known_device(self, client, victim):
        assert password_login(client, **ip(OWNER_IP))["code"] == 0  # the owner's usual device
        for n in range(4):  # 4 x 5 wrong passwords: every pair locked, and the global backoff starts
            for _ in range(5):
                password_login(client, password=WRONG, **attacker(n))
        assert password_login(client, **ip("198.51.100.7"))["code"] == 429  # a new requester waits
        assert password_login(client, **ip(OWNER_IP))["code"] == 0  # the owner's device is let in

    def test_unknown_and_existing_names_get_the_same_answers_for_the_same_work(self, app, client, victim):
        password_login(client, "warm_up_name", WRONG)  # loads the per-process snapshots (platforms)
        answers = {}
        for n, name in enumerate(("demouser", "nobody_here")):
            answers[name] = []
            for _ in range(6):  # wrong, wrong, wrong, wrong, locks, locked
                with work(app) as cost:
                    body = password_login(client, name, WRONG, **attacker(20 + n))
                answers[name].append((no_time(body), cost["argon2"], cost["sql"]))
        assert answers["demouser"] == answers["nobody_here"]
        bodies = [body["code"] for body, _argon2, _sql in answers["demouser"]]
        assert bodies == [1001, 1001, 1001, 1001, 429, 429]
        assert [argon2 for _body, argon2, _sql in answers["demouser"]] == [1, 1, 1, 1, 1, 0]

    def test_recovery_clears_every_count(self, app, client, run_jobs, providers, victim):
        inbox, _ = providers
        for n in range(4):
            for _ in range(5):
                password_login(client, password=WRONG, **attacker(n))
        assert password_login(client, **ip(OWNER_IP))["code"] == 429  # never signed in here before
        assert ask_code(client, "forgot", **ip(OWNER_IP))["code"] == 0
        run_jobs()
        new = "Fresh#2027"
        payload = {"email": VICTIM, "code": last_code(inbox.bodies_to(VICTIM)), "password": new, "confirmPassword": new}
        assert client.post(f"{BASE}/forgot", json=payload, **ip(OWNER_IP)).get_json()["code"] == 0
        assert password_login(client, password=new, **ip("198.51.100.7"))["code"] == 0


class TestCodeQuota:
    def test_the_reported_attack_no_longer_locks_the_owner_out(self, app, make_client, run_jobs, providers, victim):
        """5 wrong passwords plus 10 code requests for the victim's address, from the attacker's
        addresses: the owner still signs in with the password, and with an email code."""
        inbox, _ = providers
        client = make_client(lang="en-US")
        for _ in range(5):
            password_login(client, password=WRONG, **attacker(1))
        answers = [ask_code(client, **attacker(10 + n))["code"] for n in range(10)]
        assert answers == [0, 0, 0] + [1014] * 7  # hot after 3: the rest need a captcha
        assert password_login(client, **ip(OWNER_IP))["code"] == 0
        refused = ask_code(client, **ip(OWNER_IP))
        assert refused["code"] == 1014 and "image verification code" in refused["msg"]
        assert ask_code(client, captcha=solved_captcha(app, client), **ip(OWNER_IP))["code"] == 0
        run_jobs()
        code = last_code(inbox.bodies_to(VICTIM))
        body = client.post(f"{BASE}/login/email", json={"email": VICTIM, "code": code}, **ip(OWNER_IP)).get_json()
        assert body["code"] == 0

    def test_a_solved_captcha_passes_a_full_day_of_other_requesters_codes(self, app, client, monkeypatch, victim):
        monkeypatch.setitem(app.config, "CAPTCHA_REQUIRED", True)
        with app.app_context():
            platform_id = find_platform("localhost").id
            earlier = utcnow() - timedelta(hours=2)
            rows = [
                {
                    "platform_id": platform_id,
                    "channel": CodeChannel.EMAIL,
                    "target": VICTIM,
                    "purpose": CodePurpose.FORGOT,
                    "code_hash": "x",
                    "client_ip": f"203.0.113.{n}",
                    "created_at": earlier,
                    "expires_at": earlier + timedelta(minutes=10),
                }
                for n in range(40)
            ]
            db.session.execute(insert(VerificationCode), rows)
            db.session.commit()
        assert ask_code(client, "forgot", **ip(OWNER_IP))["code"] == 1014
        wrong = {**solved_captcha(app, client), "verifyCode": "zzzz"}
        assert ask_code(client, "forgot", captcha=wrong, **ip(OWNER_IP))["code"] == 1002
        assert ask_code(client, "forgot", captcha=solved_captcha(app, client), **ip(OWNER_IP))["code"] == 0

    def test_each_requester_has_its_own_daily_quota(self, app, make_client, victim):
        client = make_client(lang="en-US")
        with app.app_context():
            platform_id = find_platform("localhost").id
            earlier = utcnow() - timedelta(hours=3)
            for _ in range(5):
                db.session.add(
                    VerificationCode(
                        platform_id=platform_id,
                        channel=CodeChannel.EMAIL,
                        target=VICTIM,
                        purpose=CodePurpose.LOGIN,
                        code_hash="x",
                        client_ip="203.0.113.1",
                        created_at=earlier,
                        expires_at=earlier + timedelta(minutes=10),
                    )
                )
            db.session.commit()
        spent = client.get(
            f"{BASE}/code/email", query_string={"email": VICTIM, "verifyKey": "k", "verifyCode": "c"}, **attacker(1)
        )
        assert spent.status_code == 429 and "Too many codes" in spent.get_json()["msg"]
        assert ask_code(client, captcha={"verifyKey": "k", "verifyCode": "c"}, **ip(OWNER_IP))["code"] == 0

    def test_the_resend_minute_is_per_requester(self, client, victim):
        assert ask_code(client, **attacker(1))["code"] == 0
        assert ask_code(client, **attacker(1))["code"] == 429
        assert ask_code(client, **ip(OWNER_IP))["code"] == 0


class TestCodeGuesses:
    def test_a_strangers_request_and_guesses_do_not_void_the_owners_code(self, client, run_jobs, providers, victim):
        inbox, _ = providers
        assert ask_code(client, **ip(OWNER_IP))["code"] == 0
        run_jobs()
        code = last_code(inbox.bodies_to(VICTIM))
        assert ask_code(client, **attacker(1))["code"] == 0  # a newer code for the same address
        for _ in range(6):  # and more wrong guesses than a code allows
            body = client.post(f"{BASE}/login/email", json={"email": VICTIM, "code": "000000"}, **attacker(1))
            assert body.get_json()["code"] == 1003
        body = client.post(f"{BASE}/login/email", json={"email": VICTIM, "code": code}, **ip(OWNER_IP)).get_json()
        assert body["code"] == 0
        # Once used, every live code of that purpose is gone.
        again = client.post(f"{BASE}/login/email", json={"email": VICTIM, "code": code}, **ip(OWNER_IP)).get_json()
        assert again["code"] == 1003


@pytest.mark.parametrize("purpose", ["login", "forgot"])
def test_code_requests_for_unknown_and_existing_addresses_cost_the_same(app, client, run_jobs, providers, purpose):
    inbox, _ = providers
    make_account(app, email="known@example.com")
    costs, answers = {}, {}
    for address in ("known@example.com", "unknown@example.com"):
        with work(app) as cost:
            answers[address] = ask_code(client, purpose, email=address)
        costs[address] = cost["sql"]
    assert (
        answers["known@example.com"]
        == answers["unknown@example.com"]
        == {
            "code": 0,
            "msg": "成功",
            "data": {"resendAfter": 60},
        }
    )
    assert costs["known@example.com"] == costs["unknown@example.com"]
    assert any(sql.startswith("INSERT INTO outbound_message") for sql in costs["unknown@example.com"])
    with app.app_context():
        unknown = db.session.scalar(select(OutboundMessage).where(OutboundMessage.recipient == "unknown@example.com"))
        assert unknown.status == DeliveryStatus.SUPPRESSED and not re.search(r"\d{6}", unknown.body)
    run_jobs()
    assert inbox.bodies_to("unknown@example.com") == [] and last_code(inbox.bodies_to("known@example.com"))


def test_old_counts_and_codes_are_purged_but_known_requesters_stay(app, client, victim):
    from api.account.jobs import purge_sign_in_records
    from api.identity.models import SignInThrottle

    assert password_login(client, password=WRONG, **attacker(1))["code"] == 1001  # pair + global rows
    assert password_login(client, **ip(OWNER_IP))["code"] == 0  # a known requester
    assert ask_code(client, **ip(OWNER_IP))["code"] == 0
    with app.app_context():
        two_days_ago = utcnow() - timedelta(days=2, minutes=1)
        for row in db.session.scalars(select(SignInThrottle)):
            row.window_start = two_days_ago
        for row in db.session.scalars(select(VerificationCode)):
            row.created_at = two_days_ago
        db.session.commit()
        assert purge_sign_in_records() == {"throttle": 2, "codes": 1, "suppressed": 0}
        assert [row.requester for row in db.session.scalars(select(SignInThrottle))] == [OWNER_IP]
