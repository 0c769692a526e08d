"""Signatures only their owner can make (issue 45, findings 2, 4 and 5): a staff password reset gives
staff no usable password and is on the customer's trail and in the user's mail; FDA mode's session
rules govern every account that can sign the owner's records, on every sign-in path, on open sessions
and at signing; user names are never re-used and every trail entry and signature names the account id.
"""

from __future__ import annotations

import csv
import io
from datetime import timedelta

from sqlalchemy import select, update

from api.audit.models import OperationLog
from api.extensions.db import db, utcnow
from api.extensions.smorest import SESSION_EXPIRED
from api.fda.sessions import PASSWORD_EXPIRED
from api.identity.models import Account, AccountSession, StaffRole
from api.identity.sessions import PASSWORD_NOT_OWN
from api.verification.models import VerificationCode
from tests.api import report_helpers
from tests.api.account_helpers import BASE, PASSWORD, auth, login, make_account, providers
from tests.api.device_helpers import guids
from tests.api.fda_helpers import REASON, fda_mode
from tests.api.org_helpers import ACCOUNT as ORG
from tests.api.org_helpers import member_ticket, ok
from tests.api.report_helpers import REPORT, pdf_text
from tests.api.test_account_codes import email_code, register_payload
from tests.api.test_account_social import finish, oauth, start
from tests.api.test_fda import EN, FDA, sign, world
from tests.fakes import OldPlatform

__all__ = ["guids", "oauth", "providers", "world"]
files_dir = report_helpers.files_dir

STAFF_CHOSEN = "Staff#2027"
OWN = "Mine#2028"
LOG = "/api/base/BaseOperationLog"
MEMBER_EMAIL = "member_admin@example.com"


def a_minute_passes(app) -> None:
    """The codes asked for so far were asked two minutes earlier (a code is resent after 60 s)."""
    with app.app_context():
        db.session.execute(update(VerificationCode).values(created_at=utcnow() - timedelta(minutes=2)))
        db.session.commit()


def password_sign_in(client, user_name, password):
    return client.post(f"{BASE}/login", json={"userName": user_name, "password": password}, headers=EN).get_json()


def email_sign_in(app, client, run_jobs, inbox, address):
    a_minute_passes(app)
    code = email_code(client, run_jobs, inbox, address, "login")
    return client.post(f"{BASE}/login/email", json={"email": address, "code": code}, headers=EN).get_json()


def set_own_password(app, client, run_jobs, inbox, address, password=OWN):
    a_minute_passes(app)
    code = email_code(client, run_jobs, inbox, address, "forgot")
    body = {"email": address, "code": code, "password": password, "confirmPassword": password}
    return client.post(f"{BASE}/forgot", json=body, headers=EN).get_json()


def operator(app, make_client):
    make_account(app, user_name="operator", staff_role=StaffRole.OPERATOR)
    client = make_client(lang="en-US")
    return client, auth(login(client, "operator"))


def account_info(client, headers):
    return client.get(f"{BASE}/accountInfo", headers={**headers, **EN})


class TestStaffReset:
    def test_staff_learn_no_password_the_user_is_told_and_it_is_on_the_owners_trail(
        self, app, client, make_client, run_jobs, providers, world
    ):
        inbox, _sms = providers
        e, member_id = world["e"], world["e"].member_ids["admin"]
        staff, op = operator(app, make_client)
        reset = f"{BASE}/resetPasswordBySys"

        chosen = staff.post(reset, headers=op, json={"id": member_id, "password": STAFF_CHOSEN})
        assert chosen.status_code == 422 and "password" in chosen.get_json()["data"]["errors"]
        answer = staff.post(reset, headers=op, json={"id": member_id})
        assert answer.status_code == 200, answer.get_json()
        assert answer.get_json()["data"] == {"channel": "email", "sentTo": "m***@example.com"}

        # Every session ends; no password staff chose or knew opens the account, nor an email code.
        assert account_info(client, e.members["admin"]).status_code == 401
        for password in (PASSWORD, STAFF_CHOSEN):
            assert password_sign_in(client, "member_admin", password)["code"] == 1001
        refused = email_sign_in(app, client, run_jobs, inbox, MEMBER_EMAIL)
        assert refused["code"] == PASSWORD_NOT_OWN and refused["data"] is None
        assert "Forgot password" in refused["msg"]

        # The user's mail (through the outbox) says what happened and where to set their own.
        [told] = [body for body in inbox.bodies_to(MEMBER_EMAIL) if "reset the password" in body]
        assert "operator" in told and "member_admin" in told and "/user/recover" in told

        # The owner's trail (it reads its members' entries) shows the reset, who did it, and the ids.
        entries = client.post(f"{LOG}/page", json={"pageSize": 50}, headers=e.owner).get_json()["data"]["list"]
        [entry] = [row for row in entries if row["summary"] == "Password reset by platform staff"]
        assert entry["accountId"] == member_id and entry["userName"] == "member_admin"
        details = entry["after"][0]["values"]
        assert details["staffUserName"] == "operator" and details["staffAccountId"] > 0

        # The user sets their own password: signing in and signing work again.
        assert set_own_password(app, client, run_jobs, inbox, MEMBER_EMAIL)["code"] == 0
        member = auth(login(client, "member_admin", OWN))
        assert sign(client, member, world, password=OWN)["code"] == 0

    def test_a_password_staff_chose_signs_in_but_signs_nothing_until_changed(self, app, client, make_client, world):
        e = world["e"]
        staff, op = operator(app, make_client)
        added = staff.post(f"{BASE}/sysAddUser", headers=op, json={"userName": "staff_made", "password": STAFF_CHOSEN})
        made_id = added.get_json()["data"]["id"]
        ticket = member_ticket(client, e.owner, "staff_made")
        body = {"organizationId": e.branch, "ticket": ticket, "roleId": e.roles["Administrator"]}
        joined = client.post(f"{ORG}/organizationAddUser", json=body, headers={**e.owner, **REASON})
        assert joined.get_json()["code"] == 0, joined.get_json()
        ok(
            client.put(
                f"{FDA}/ElectronicSignature/assign",
                json={"id": world["file"], "checkerId": made_id},
                headers={**e.owner, **REASON},
            )
        )
        made = {**auth(login(client, "staff_made", STAFF_CHOSEN)), **EN}
        refused = sign(client, made, world, password=STAFF_CHOSEN, user_name="staff_made")
        assert refused["code"] == PASSWORD_NOT_OWN and refused["msg"].startswith(
            "This account's password was chosen by platform staff."
        )
        with app.app_context():
            [entry] = db.session.scalars(
                select(OperationLog).where(OperationLog.summary.startswith("Electronic signature refused"))
            ).all()
            assert entry.account_id == made_id
        detail = client.get(f"{FDA}/ElectronicSignature/detail/{world['file']}", headers=made).get_json()["data"]
        assert detail["signState"] == "unsigned" and detail["signature"] is None

        body = {"oldPassword": STAFF_CHOSEN, "password": OWN, "confirmPassword": OWN}
        assert client.post(f"{BASE}/updatePassword", json=body, headers=made).get_json()["code"] == 0
        mine = auth(login(client, "staff_made", OWN))
        assert sign(client, mine, world, password=OWN, user_name="staff_made")["code"] == 0

    def test_a_reset_on_another_site_is_on_that_sites_trail(self, app, make_client):
        staff, op = operator(app, make_client)
        far = make_account(app, host="junjia.localhost", user_name="far_user", email="far@example.com")
        assert staff.post(f"{BASE}/resetPasswordBySys", headers=op, json={"id": far}).status_code == 200
        with app.app_context():
            entry = db.session.scalar(
                select(OperationLog).where(OperationLog.summary == "Password reset by platform staff")
            )
            assert (entry.account_id, entry.platform_id) == (far, db.session.get(Account, far).platform_id)
            operator_space = select(Account.platform_id).where(Account.user_name == "operator")
            assert entry.platform_id != db.session.scalar(operator_space)
        assert app.test_cli_runner().invoke(args=["audit", "verify"]).exit_code == 0

    def test_an_account_without_phone_or_email_cannot_be_reset_and_keeps_its_password(self, app, make_client):
        staff, op = operator(app, make_client)
        lonely = make_account(app, user_name="lonely_user")
        answer = staff.post(f"{BASE}/resetPasswordBySys", headers=op, json={"id": lonely})
        assert answer.status_code == 422 and "id" in answer.get_json()["data"]["errors"]
        assert password_sign_in(make_client(), "lonely_user", PASSWORD)["code"] == 0

    def test_staff_cannot_move_an_fda_signers_contact_and_other_moves_are_told(
        self, app, client, make_client, run_jobs, providers, world
    ):
        inbox, _sms = providers
        staff, op = operator(app, make_client)
        modify = f"{BASE}/sysModifyUser"
        # The next reset code would go to the new address: under FDA mode only the user moves it.
        member_id = world["e"].member_ids["admin"]
        moved = staff.post(modify, headers=op, json={"id": member_id, "email": "staff@example.com"})
        assert moved.status_code == 422 and "email" in moved.get_json()["data"]["errors"]
        with app.app_context():
            assert db.session.get(Account, member_id).email == MEMBER_EMAIL

        other = make_account(app, user_name="plain_user", email="plain@example.com")
        moved = staff.post(modify, headers=op, json={"id": other, "email": "staff@example.com"})
        assert moved.status_code == 200 and moved.get_json()["data"]["email"] == "staff@example.com"
        run_jobs()
        [told] = inbox.bodies_to("plain@example.com")
        assert "changed the phone or email" in told and "operator" in told
        mine = auth(login(client, "plain_user"))
        entries = client.post(f"{LOG}/page", json={"pageSize": 50}, headers=mine).get_json()["data"]["list"]
        [entry] = [row for row in entries if row["summary"] == "Phone or email changed by platform staff"]
        assert entry["accountId"] == other and entry["after"][0]["values"]["changed"] == ["email"]


def age_password(app, user_name, days):
    with app.app_context():
        db.session.execute(
            update(Account).where(Account.user_name == user_name).values(prev_reset_at=utcnow() - timedelta(days=days))
        )
        db.session.commit()


def idle_for(app, user_name, minutes):
    with app.app_context():
        account_id = db.session.scalar(select(Account.id).where(Account.user_name == user_name))
        db.session.execute(
            update(AccountSession)
            .where(AccountSession.account_id == account_id)
            .values(last_seen_at=utcnow() - timedelta(minutes=minutes))
        )
        db.session.commit()


class TestMembersFollowTheOwnersFdaRules:
    def test_a_member_idle_past_the_owners_limit_is_signed_out(self, app, client, world):
        fda_mode(app, idle_minutes=5)
        member = world["e"].members["admin"]
        idle_for(app, "member_admin", 4)
        assert account_info(client, member).status_code == 200
        idle_for(app, "member_admin", 9)
        out = account_info(client, member)
        assert out.status_code == 401 and out.get_json()["code"] == SESSION_EXPIRED
        assert out.get_json()["msg"] == "Signed out after 5 minutes without activity (FDA mode)."
        assert sign(client, member, world)["code"] != 0

    def test_a_member_with_an_old_password_changes_it_on_every_path_and_cannot_sign(
        self, app, client, run_jobs, providers, world
    ):
        inbox, _sms = providers
        member = world["e"].members["admin"]
        age_password(app, "member_admin", 100)
        # The open session ends, so nothing is signed with it.
        ended = client.post(
            f"{FDA}/ElectronicSignature/sign",
            json={
                "id": world["file"],
                "endorsementId": world["endorsement"],
                "checkUserName": "member_admin",
                "checkPassword": PASSWORD,
            },
            headers={**member, **EN},
        )
        assert ended.status_code == 401 and ended.get_json()["code"] == PASSWORD_EXPIRED
        assert account_info(client, member).status_code == 401
        assert password_sign_in(client, "member_admin", PASSWORD)["code"] == PASSWORD_EXPIRED
        assert email_sign_in(app, client, run_jobs, inbox, MEMBER_EMAIL)["code"] == PASSWORD_EXPIRED
        # A new password of their own opens it again.
        assert set_own_password(app, client, run_jobs, inbox, MEMBER_EMAIL)["code"] == 0
        assert sign(client, auth(login(client, "member_admin", OWN)), world, password=OWN)["code"] == 0

    def test_the_owners_old_password_is_refused_on_email_sign_in_too(self, app, client, run_jobs, providers):
        inbox, _sms = providers
        make_account(app, email="owner@example.com")
        fda_mode(app)
        session = auth(login(client))
        age_password(app, "demouser", 91)
        assert account_info(client, session).status_code == 401
        assert email_sign_in(app, client, run_jobs, inbox, "owner@example.com")["code"] == PASSWORD_EXPIRED

    def test_social_and_old_platform_sign_in_are_refused_too(self, app, client, oauth, monkeypatch):
        make_account(app)
        state, redirect_uri, _ = start(client, "qq")
        first = finish(client, "qq", oauth.issue_code("user-1", redirect_uri), state)
        bind = {"bindingTicket": first["data"]["bindingTicket"], "userName": "demouser", "password": PASSWORD}
        assert client.post(f"{BASE}/binding", json=bind).get_json()["code"] == 0
        fda_mode(app)
        age_password(app, "demouser", 91)
        state, redirect_uri, _ = start(client, "qq")
        assert finish(client, "qq", oauth.issue_code("user-1", redirect_uri), state)["code"] == PASSWORD_EXPIRED

        make_account(app, user_name="legacy_user")
        with app.app_context():  # reset by staff: even credentials the old platform accepts are not the user's
            db.session.execute(
                update(Account).where(Account.user_name == "legacy_user").values(password_origin="reset")
            )
            db.session.commit()
        with OldPlatform({"legacy_user": "Legacy#123"}) as old:
            monkeypatch.setitem(app.config, "OLD_PLATFORM_URL", old.url)
            body = {"userName": "legacy_user", "password": "Legacy#123"}
            answer = client.post(f"{BASE}/login/toOldPaltform", json=body).get_json()
        assert answer["code"] == PASSWORD_NOT_OWN and answer["data"] is None

    def test_accounts_outside_the_owners_organisations_are_not_governed(self, app, client, world):
        fda_mode(app, idle_minutes=5)
        make_account(app, user_name="stranger")
        stranger = auth(login(client, "stranger"))
        idle_for(app, "stranger", 60)
        age_password(app, "stranger", 100)
        answer = account_info(client, stranger)
        assert answer.status_code == 200 and "X-Idle-Timeout" not in answer.headers
        assert password_sign_in(client, "stranger", PASSWORD)["code"] == 0


class TestUserNamesAndIds:
    def test_a_cancelled_user_name_is_never_registered_again(self, app, make_client, run_jobs, providers):
        inbox, _sms = providers
        client = make_client(lang="en-US")
        code = email_code(client, run_jobs, inbox, "first@example.com", "register")
        first = client.post(f"{BASE}/register", json=register_payload(email="first@example.com", code=code))
        token = first.get_json()["data"]["token"]
        assert client.post(f"{BASE}/cancelWithNoParam", headers=auth(token)).get_json()["code"] == 0

        code = email_code(client, run_jobs, inbox, "second@example.com", "register")
        again = client.post(f"{BASE}/register", json=register_payload(email="second@example.com", code=code))
        body = again.get_json()
        message = "This user name belonged to a cancelled account and can never be used again."
        assert body["code"] == 1004 and body["msg"] == message and body["data"]["errors"]["userName"] == [message]
        with app.app_context():
            [holder] = db.session.scalars(select(Account).where(Account.user_name == "new_user")).all()
            assert holder.cancelled and holder.email is None  # the address is free again, the name is not
        staff, op = operator(app, make_client)
        added = staff.post(f"{BASE}/sysAddUser", headers=op, json={"userName": "new_user", "password": PASSWORD})
        assert added.status_code == 422 and "userName" in added.get_json()["data"]["errors"]

    def test_names_cancelled_before_the_rule_stay_reserved_too(self, app, make_client):
        with app.app_context():  # cancelled under the old rule, which suffixed the name
            legacy = db.session.get(Account, make_account(app, user_name="old_name_x"))
            legacy.user_name, legacy.cancelled = f"old_name_x#cancelled{legacy.id}", True
            db.session.commit()
        staff, op = operator(app, make_client)
        refused = staff.post(f"{BASE}/sysAddUser", headers=op, json={"userName": "old_name_x", "password": PASSWORD})
        assert refused.status_code == 422
        assert refused.get_json()["data"]["errors"]["userName"] == [
            "This user name belonged to a cancelled account and can never be used again."
        ]
        # "_" is a letter here, not a LIKE wildcard: a different name is free.
        added = staff.post(f"{BASE}/sysAddUser", headers=op, json={"userName": "o_d_name_x", "password": PASSWORD})
        assert added.status_code == 200, added.get_json()
        found = staff.post(f"{BASE}/get/list", headers=op, json={"keyword": "D_NAME"}).get_json()["data"]["list"]
        assert [row["userName"] for row in found] == ["o_d_name_x"]

    def test_trail_exports_and_signatures_print_the_account_id(self, app, client, world, files_dir, run_jobs):
        e, member_id = world["e"], world["e"].member_ids["admin"]
        assert sign(client, e.members["admin"], world)["code"] == 0
        with app.app_context():
            owner_id = db.session.scalar(select(Account.id).where(Account.user_name == "demouser"))
        exported = client.get(f"{LOG}/export", headers=e.owner)
        lines = list(csv.reader(io.StringIO(exported.data.decode("utf-8-sig"))))
        column = lines[0].index("Account id")
        assert {(line[2], line[column]) for line in lines[1:]} >= {
            ("demouser", str(owner_id)),
            ("member_admin", str(member_id)),
        }
        queued = client.post(f"{LOG}/exportPdf", json={}, headers={**e.owner, **EN}).get_json()
        assert queued["code"] == 0, queued
        run_jobs()  # the PDF is a download-centre job
        pdf = client.get(f"{REPORT}/ExportFile/download/{queued['data']['id']}", headers=e.owner)
        text = pdf_text(pdf.data)
        assert f"demouser (#{owner_id})" in text and f"member_admin (#{member_id})" in text
        detail = client.get(f"{FDA}/ElectronicSignature/detail/{world['file']}", headers=e.owner).get_json()["data"]
        assert detail["signature"]["userName"] == "member_admin"
        assert detail["signature"]["signerAccountId"] == member_id
