"""Issue 45 finding 8: misuse of electronic signatures is reported (21 CFR 11.300(d)). Five wrong signature
passwords lock the account's signing, sign it out and tell the owner and its FDA contacts once per lock;
every answer words the lock's end the same way, in the account's time zone with its offset."""

from __future__ import annotations

import re
from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import delete, select, update

from api.audit.models import OperationLog
from api.extensions.db import db, utcnow
from api.fda.models import SigningThrottle
from api.fda.signing_lock import SIGNING_LOCKED
from api.identity.models import Account, SignInThrottle
from api.notify.models import OutboundMessage
from tests.api.account_helpers import BASE, PASSWORD, auth, login
from tests.api.device_helpers import guids
from tests.api.fda_helpers import REASON
from tests.api.org_helpers import build_enterprise, ok
from tests.api.report_helpers import load_readings
from tests.api.test_fda import BEGIN, END, FDA, enable, sign

__all__ = ["guids"]

EN = {"Accept-Language": "en-US"}
WRONG = "Wrong#2026"


@pytest.fixture
def world(app, client, guids):
    """demouser (FDA on, with an email) and two members: member_admin (Administrator: holds `fda`, the
    checker of a data file) and member_observer; member_admin's time zone is Europe/Berlin."""
    e = build_enterprise(app, client, guids, members=("admin", "observer"))
    device_id = e.devices["th_b"]
    load_readings(app, device_id, [4.0 + i % 5 for i in range(36)], step_s=600)
    with app.app_context():
        db.session.execute(update(Account).where(Account.user_name == "demouser").values(email="qa@example.com"))
        db.session.execute(update(Account).where(Account.user_name == "member_admin").values(time_zone="Europe/Berlin"))
        db.session.commit()
    assert enable(client, e.owner)["code"] == 0
    owner = {**e.owner, **REASON}
    endorsement = ok(client.post(f"{FDA}/Endorsement/insert", json={"endorsementName": "Approved"}, headers=owner))
    window = {"collectBegin": BEGIN.isoformat(), "collectEnd": END.isoformat()}
    data_file = ok(
        client.post(
            f"{FDA}/ElectronicSignature/insert",
            json={"fileName": "Batch 7", "subjectType": "device", "subjectId": device_id, **window},
            headers=owner,
        )
    )
    checker = e.member_ids["admin"]
    ok(
        client.put(
            f"{FDA}/ElectronicSignature/assign", json={"id": data_file["id"], "checkerId": checker}, headers=owner
        )
    )
    return {"e": e, "device": device_id, "endorsement": endorsement["id"], "file": data_file["id"]}


def lock_end(app, account_id: int):
    with app.app_context():
        return db.session.get(SigningThrottle, account_id).locked_until


def lock_messages(app) -> list[OutboundMessage]:
    with app.app_context():
        rows = db.session.scalars(
            select(OutboundMessage).where(OutboundMessage.dedupe_key.startswith("fda-signing-lock:"))
        ).all()
        db.session.expunge_all()
        return rows


def may_sign_in_again(app) -> None:
    """The wrong signatures also counted toward the password sign-in lock: lifted, as a recovery does."""
    with app.app_context():
        db.session.execute(delete(SignInThrottle))
        db.session.commit()


def test_five_wrong_signature_passwords_lock_sign_out_and_tell_the_fda_contacts(app, client, world):
    e = world["e"]
    checker_id = e.member_ids["admin"]
    checker = {**e.members["admin"], **EN}
    for _ in range(4):
        assert sign(client, checker, world, password=WRONG)["code"] == 1001
    assert client.get(f"{BASE}/accountInfo", headers=checker).status_code == 200  # still signed in
    assert lock_messages(app) == []

    response = client.post(
        f"{FDA}/ElectronicSignature/sign",
        json={
            "id": world["file"],
            "endorsementId": world["endorsement"],
            "checkUserName": "member_admin",
            "checkPassword": WRONG,
        },
        headers={**checker, "X-Timezone": "Asia/Tokyo"},
    )
    until = lock_end(app, checker_id)
    berlin = until.astimezone(ZoneInfo("Europe/Berlin"))
    hours = int(berlin.utcoffset().total_seconds() // 3600)  # Berlin in November: +01:00
    when = f"{berlin:%Y-%m-%d %H:%M} (UTC+{hours:02d}:00)"
    body = response.get_json()
    assert response.status_code == 401 and body["code"] == 2010
    assert body["msg"] == (
        f"Too many wrong signature passwords: signing is locked until {when} and you have been signed out. "
        "The account's FDA contacts have been told."
    )
    assert timedelta(minutes=29) < until - utcnow() <= timedelta(minutes=30)
    # Signed out: the session is over.
    assert client.get(f"{BASE}/accountInfo", headers=checker).status_code == 401

    # The owner and its FDA-granted member are told, once; the observer (no `fda`) is not.
    told = sorted(m.recipient for m in lock_messages(app))
    assert told == ["member_admin@example.com", "qa@example.com"]
    [to_owner] = [m for m in lock_messages(app) if m.recipient == "qa@example.com"]
    assert f"member_admin (account {checker_id})" in to_owner.body and "5 wrong signature passwords" in to_owner.body
    with app.app_context():
        [entry] = db.session.scalars(
            select(OperationLog).where(OperationLog.summary.startswith("Electronic signing locked"))
        ).all()
        owner_id = db.session.scalar(select(Account.id).where(Account.user_name == "demouser"))
        assert entry.account_id == checker_id and entry.after[0]["values"]["told"] == sorted([owner_id, checker_id])

    # Signed in again: signing stays locked, even with the right password, and every answer words the
    # lock's end the same way whatever zone the caller's browser is in; nobody is told twice.
    may_sign_in_again(app)
    again = auth(login(client, "member_admin"))
    for zone in ("America/New_York", "Asia/Shanghai"):
        answer = sign(client, {**again, **EN, "X-Timezone": zone}, world, password=PASSWORD)
        assert answer["code"] == SIGNING_LOCKED
        assert answer["msg"] == f"Too many wrong signature passwords: signing is locked until {when}."
    chinese = sign(client, again, world, password=PASSWORD)
    assert chinese["msg"] == f"签名密码错误次数过多：签名已锁定至 {when}。"
    assert len(lock_messages(app)) == 2

    # The lock over, the right password signs.
    with app.app_context():
        db.session.execute(
            update(SigningThrottle)
            .where(SigningThrottle.account_id == checker_id)
            .values(locked_until=utcnow() - timedelta(seconds=1))
        )
        db.session.commit()
    assert sign(client, {**again, **EN}, world, password=PASSWORD)["code"] == 0


def test_wrong_attempts_outside_the_window_do_not_add_up(app, client, world):
    e = world["e"]
    checker_id, checker = e.member_ids["admin"], {**e.members["admin"], **EN}
    for _ in range(4):
        assert sign(client, checker, world, password=WRONG)["code"] == 1001
    with app.app_context():
        db.session.execute(
            update(SigningThrottle)
            .where(SigningThrottle.account_id == checker_id)
            .values(window_start=utcnow() - timedelta(minutes=16))
        )
        db.session.commit()
    may_sign_in_again(app)
    assert sign(client, checker, world, password=WRONG)["code"] == 1001  # a new window: one wrong so far
    assert lock_messages(app) == []


def test_the_password_sign_in_lock_states_its_zone_the_same_in_every_answer(app, client, world):
    for _ in range(4):
        client.post(f"{BASE}/login", json={"userName": "member_admin", "password": WRONG})
    answers = [
        client.post(
            f"{BASE}/login",
            json={"userName": "member_admin", "password": WRONG},
            headers={**EN, "X-Timezone": zone},
        ).get_json()
        for zone in ("UTC", "Asia/Shanghai")
    ]
    assert answers[0]["code"] == answers[1]["code"] == 429
    assert answers[0]["msg"] == answers[1]["msg"]
    # In the site's zone (Asia/Shanghai), not member_admin's (Europe/Berlin): a name without an account
    # is answered the same (tests/api/test_sign_in_abuse.py).
    assert re.search(r"locked until \d{4}-\d\d-\d\d \d\d:\d\d \(UTC\+08:00\)\.", answers[0]["msg"]), answers[0]
