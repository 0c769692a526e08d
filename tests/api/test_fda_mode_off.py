"""Issue 45 finding 6: one person could turn FDA mode off and on again. Off now takes a second person's
electronic signature: the owner's signed request stays pending (FDA mode on) until a member who
administers the owner's FDA mode approves it with their own user name, password and meaning."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from api.audit.models import OperationLog
from api.extensions.db import db
from api.fda.mode_off import OFF_PENDING
from api.fda.models import FdaOffRequest, FdaSetting, OffRequestState
from tests.api.account_helpers import PASSWORD, auth, login, make_account
from tests.api.device_helpers import guids
from tests.api.org_helpers import build_enterprise, ok
from tests.api.test_fda import FDA, enable

__all__ = ["guids"]

EN = {"Accept-Language": "en-US"}


@pytest.fixture
def e(app, client, guids):
    """demouser in FDA mode; member_admin (Administrator, holds `fda`) and member_observer (does not)."""
    enterprise = build_enterprise(app, client, guids, members=("admin", "observer"))
    assert enable(client, enterprise.owner)["code"] == 0
    return enterprise


def config(client, headers) -> dict:
    return ok(client.get(f"{FDA}/FdaConfig/get", headers=headers))


def approve(client, headers, request_id, user_name="member_admin", password=PASSWORD, meaning="QA approves"):
    body = {"requestId": request_id, "checkUserName": user_name, "checkPassword": password, "meaning": meaning}
    return client.post(f"{FDA}/FdaConfig/approveOff", json=body, headers={**headers, **EN}).get_json()


def fda_enabled(app, owner_name="demouser") -> bool:
    with app.app_context():
        from api.identity.models import Account

        owner_id = db.session.scalar(select(Account.id).where(Account.user_name == owner_name))
        return db.session.get(FdaSetting, owner_id).enabled


def test_off_waits_for_a_second_persons_signature(app, client, e):
    asked = enable(client, {**e.owner, **EN}, enabled=False)
    assert asked["code"] == 0 and asked["data"]["enabled"] is True  # still on
    pending = asked["data"]["pendingOff"]
    assert pending["reason"] == "GxP records" and pending["requestedBy"].startswith("demouser (#")
    assert fda_enabled(app) is True
    again = enable(client, {**e.owner, **EN}, enabled=False)
    assert again["code"] == OFF_PENDING and fda_enabled(app) is True

    # The one who asked cannot approve; a member without `fda` cannot; the right member can, signed.
    own = approve(client, e.owner, pending["id"], user_name="demouser")
    assert own["code"] == 422 and own["data"]["errors"]["requestId"] == [
        "A second person must approve: not the one who asked."
    ]
    observer = approve(client, e.members["observer"], pending["id"], user_name="member_observer")
    assert observer["code"] == 403  # the Observer role does not hold `fda`
    listed = ok(client.get(f"{FDA}/FdaConfig/offRequests", headers=e.members["admin"]))
    assert [r["id"] for r in listed] == [pending["id"]] and listed[0]["ownerUserName"] == "demouser"
    wrong = approve(client, e.members["admin"], pending["id"], password="Wrong#2026")
    assert wrong["code"] == 1001 and fda_enabled(app) is True

    assert approve(client, e.members["admin"], pending["id"], meaning="Validation closed, SOP-3")["code"] == 0
    assert fda_enabled(app) is False
    mode = config(client, e.owner)
    assert mode["enabled"] is False and mode["pendingOff"] is None and mode["changedBy"] == "member_admin"
    with app.app_context():
        request = db.session.get(FdaOffRequest, pending["id"])
        assert request.state == OffRequestState.APPROVED and request.meaning == "Validation closed, SOP-3"
        assert request.decided_by == e.member_ids["admin"] and request.requested_by != request.decided_by
        [signed] = db.session.scalars(
            select(OperationLog).where(OperationLog.summary.startswith("Electronically signed: FDA mode off"))
        ).all()
        assert signed.account_id == e.member_ids["admin"] and signed.reason == "Validation closed, SOP-3"
        assert signed.after[0]["values"]["meaning"] == "Validation closed, SOP-3"
        asked_entry = db.session.scalars(
            select(OperationLog).where(OperationLog.path.endswith("/FdaConfig/update")).order_by(OperationLog.id)
        ).all()[-1]
        assert asked_entry.reason == "GxP records"
    assert approve(client, e.members["admin"], pending["id"])["code"] == 422  # decided already

    # On again: one person's signed act, as before.
    assert enable(client, e.owner)["data"]["enabled"] is True and fda_enabled(app) is True


def test_the_owner_withdraws_its_request_and_strangers_cannot_approve(app, client, e):
    pending = enable(client, e.owner, enabled=False)["data"]["pendingOff"]
    make_account(app, user_name="stranger_1")
    stranger = auth(login(client, "stranger_1"))
    assert ok(client.get(f"{FDA}/FdaConfig/offRequests", headers=stranger)) == []
    assert approve(client, stranger, pending["id"], user_name="stranger_1")["code"] == 404
    withdrawn = ok(client.post(f"{FDA}/FdaConfig/cancelOff", json={"requestId": pending["id"]}, headers=e.owner))
    assert withdrawn["enabled"] is True and withdrawn["pendingOff"] is None
    assert approve(client, e.members["admin"], pending["id"])["code"] == 422
    assert fda_enabled(app) is True
