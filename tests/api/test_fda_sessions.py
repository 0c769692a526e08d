"""FDA mode's password and session rules (api/fda/sessions.py): an expired password no longer signs
in, an idle session is signed out, the web is told the idle limit; nothing changes outside FDA mode."""

from __future__ import annotations

from datetime import timedelta
from urllib.parse import quote

from sqlalchemy import select, update

from api.extensions.db import db, utcnow
from api.extensions.reasons import REASON_HEADER
from api.fda.records import EVIDENCE_REQUIRED, PASSWORD_HEADER, SIGNER_HEADER
from api.fda.sessions import IDLE_HEADER, PASSWORD_EXPIRED
from api.identity.models import Account, AccountSession
from tests.api.account_helpers import BASE, PASSWORD, auth, login, make_account
from tests.api.fda_helpers import fda_mode

EN = {"Accept-Language": "en-US"}
CONFIG = "/api/fda/FdaConfig"


def age_password(app, account_id, days):
    with app.app_context():
        db.session.execute(
            update(Account).where(Account.id == account_id).values(prev_reset_at=utcnow() - timedelta(days=days))
        )
        db.session.commit()


def idle_for(app, minutes):
    with app.app_context():
        db.session.execute(update(AccountSession).values(last_seen_at=utcnow() - timedelta(minutes=minutes)))
        db.session.commit()


def sign_in(client):
    return client.post(f"{BASE}/login", json={"userName": "demouser", "password": PASSWORD}, headers=EN).get_json()


def test_in_fda_mode_a_password_older_than_its_lifetime_no_longer_signs_in(app, client):
    account_id = make_account(app)
    age_password(app, account_id, 91)
    assert sign_in(client)["code"] == 0  # FDA mode off: only the web's warning
    fda_mode(app)
    refused = sign_in(client)
    assert refused["code"] == PASSWORD_EXPIRED and refused["data"] is None
    assert refused["msg"] == (
        'Your password is older than 90 days and no longer signs in (FDA mode). Set a new one with "Forgot password".'
    )
    age_password(app, account_id, 89)
    assert sign_in(client)["code"] == 0


def test_in_fda_mode_an_idle_session_is_signed_out_and_the_web_is_told_the_limit(app, client):
    make_account(app)
    fda_mode(app, idle_minutes=15)
    headers = {**auth(login(client)), **EN}
    answer = client.get(f"{CONFIG}/get", headers=headers)
    assert answer.status_code == 200 and answer.headers[IDLE_HEADER] == "900"
    assert answer.get_json()["data"]["idleMinutes"] == 15
    idle_for(app, 14)
    assert client.get(f"{CONFIG}/get", headers=headers).status_code == 200
    idle_for(app, 16)
    expired = client.get(f"{CONFIG}/get", headers=headers)
    assert expired.status_code == 401
    assert expired.get_json()["msg"] == "Signed out after 15 minutes without activity (FDA mode)."
    with app.app_context():
        assert db.session.scalar(select(AccountSession.revoked_at)) is not None
    idle_for(app, 0)  # revoked stays revoked
    assert client.get(f"{CONFIG}/get", headers=headers).status_code == 401


def test_outside_fda_mode_idleness_changes_nothing(app, client):
    make_account(app)
    headers = auth(login(client))
    idle_for(app, 600)
    answer = client.get(f"{CONFIG}/get", headers=headers)
    assert answer.status_code == 200 and IDLE_HEADER not in answer.headers


def test_the_idle_limit_is_bounded_and_signed_in_fda_mode(app, client):
    make_account(app)
    headers = {**auth(login(client)), **EN}
    bad = client.put(f"{CONFIG}/idle", json={"idleMinutes": 3}, headers=headers)
    assert bad.status_code == 422 and "idleMinutes" in bad.get_json()["data"]["errors"]
    assert (
        client.put(f"{CONFIG}/idle", json={"idleMinutes": 30}, headers=headers).get_json()["data"]["idleMinutes"] == 30
    )
    fda_mode(app, idle_minutes=30)
    unsigned = client.put(f"{CONFIG}/idle", json={"idleMinutes": 10}, headers=headers).get_json()
    assert unsigned["code"] == EVIDENCE_REQUIRED and unsigned["data"]["needs"] == "signature"
    signed = {
        REASON_HEADER: quote("Shared terminals on the ward"),
        SIGNER_HEADER: "demouser",
        PASSWORD_HEADER: quote(PASSWORD),
    }
    answer = client.put(f"{CONFIG}/idle", json={"idleMinutes": 10}, headers={**headers, **signed})
    assert answer.get_json()["data"]["idleMinutes"] == 10 and answer.headers[IDLE_HEADER] == "1800"
