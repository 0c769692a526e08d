from __future__ import annotations

import re

import pytest

from api.account.services import ensure_account
from api.extensions.db import db
from api.identity.models import Account, AccountType, StaffRole
from api.tenancy import find_platform
from tests.fakes import SmsProvider, SmtpServer

PASSWORD = "Cold#2026"
BASE = "/api/base/BaseAccount"


def make_account(app, host="localhost", user_name="demouser", staff_role=None, **profile) -> int:
    with app.app_context():
        account = ensure_account(
            find_platform(host),
            user_name,
            PASSWORD,
            account_type=AccountType.ENTERPRISE,
            staff_role=staff_role,
            **profile,
        )
        db.session.commit()
        return account.id


def load_account(app, account_id: int) -> Account:
    with app.app_context():
        account = db.session.get(Account, account_id)
        db.session.expunge(account)
        return account


def login(client, user_name="demouser", password=PASSWORD) -> str:
    body = client.post(f"{BASE}/login", json={"userName": user_name, "password": password}).get_json()
    assert body["code"] == 0, body
    return body["data"]["token"]


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def last_code(texts: list[str]) -> str:
    assert texts, "no message was delivered"
    return re.search(r"\b(\d{6})\b", texts[-1]).group(1)


@pytest.fixture
def providers(app, monkeypatch):
    with SmtpServer() as smtp, SmsProvider() as sms:
        for key, value in {
            "SMTP_HOST": "127.0.0.1",
            "SMTP_PORT": smtp.port,
            "SMTP_STARTTLS": False,
            "SMTP_USER": "",
            "SMS_API_URL": f"{sms.url}/send",
            "SMS_API_KEY": sms.key,
            "SMS_API_SECRET": sms.secret,
        }.items():
            monkeypatch.setitem(app.config, key, value)
        yield smtp.inbox, sms


__all__ = ["BASE", "PASSWORD", "StaffRole", "auth", "last_code", "load_account", "login", "make_account", "providers"]
