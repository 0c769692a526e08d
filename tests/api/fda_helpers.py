"""FDA mode switched on or off directly (the signed switch itself is tested in test_fda.py), and the
signing sequence set through the api."""

from __future__ import annotations

from urllib.parse import quote

from sqlalchemy import select

from api.extensions.db import db
from api.extensions.reasons import REASON_HEADER
from api.fda.models import FdaSetting
from api.identity.models import Account


def fda_mode(app, enabled: bool = True, *, user_name: str = "demouser", idle_minutes: int | None = None) -> None:
    with app.app_context():
        account = db.session.scalar(select(Account).where(Account.user_name == user_name))
        setting = db.session.get(FdaSetting, account.id) or FdaSetting(
            account_id=account.id, platform_id=account.platform_id
        )
        setting.enabled = enabled
        if idle_minutes is not None:
            setting.idle_minutes = idle_minutes
        db.session.add(setting)
        db.session.commit()


def signing_sequence(client, headers, *roles: str, **step_options) -> dict:
    """Set the signing sequence of the account behind `headers` through the api (FDA mode asks a
    reason): one step per role, each open to any meaning and any checker unless step_options say."""
    response = client.put(
        "/api/fda/SigningSequence/update",
        json={"steps": [{"role": role, **step_options} for role in roles]},
        headers={**headers, REASON_HEADER: quote("signing sequence for the test")},
    )
    body = response.get_json()
    assert body["code"] == 0, body
    return body["data"]


# The reason FDA mode asks of every change (api/fda/records.py), for calls whose reason is not the test's subject.
REASON = {"X-Change-Reason": "Per SOP-7"}
