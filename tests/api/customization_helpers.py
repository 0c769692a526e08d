"""Shared pieces of the customization and operator-area tests."""

from __future__ import annotations

import io

from api.identity.models import StaffRole
from tests.api.account_helpers import auth, login, make_account

CUSTOM = "/api/base/BaseCustomPage"
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64
JPG = b"\xff\xd8\xff\xe0" + b"\x00" * 64
GIF = b"GIF89a" + b"\x00" * 64


def operator_client(app, make_client, lang="zh-CN"):
    make_account(app, user_name="operator", staff_role=StaffRole.OPERATOR)
    operator = make_client(lang=lang)
    return operator, auth(login(operator, "operator"))


def staff(app, make_client, lang="zh-CN"):
    """(operator client + headers, reseller client + headers, plain user client + headers)."""
    make_account(app, user_name="operator", staff_role=StaffRole.OPERATOR)
    make_account(app, user_name="demouser")
    make_account(app, host="junjia.localhost", user_name="reseller", staff_role=StaffRole.PLATFORM_ADMIN)
    operator, user = make_client(lang=lang), make_client(lang=lang)
    reseller = make_client(host="junjia.localhost", lang=lang)
    return (
        (operator, auth(login(operator, "operator"))),
        (reseller, auth(login(reseller, "reseller"))),
        (user, auth(login(user, "demouser"))),
    )


def upload(client, headers, field: str, content: bytes, name: str = "logo.png"):
    return client.post(
        f"{CUSTOM}/upload",
        headers=headers,
        data={"field": field, "file": (io.BytesIO(content), name)},
        content_type="multipart/form-data",
    )


def acme(**overrides) -> dict:
    body = {
        "enterpriseName": "Acme Cold Chain",
        "title": {"zh-CN": "艾克米冷链", "en-US": "Acme Cold Chain"},
        "topDomain": "acme.localhost",
        "domains": ["acme.example.com"],
        "https": False,
        "loginPage": "default",
        "themeColor": "#1A2B3C",
        "styleModel": "junjia",
        "defaultLocale": "en-US",
        "enableRegister": True,
        "independent": True,
        "recordCompany": "Acme Ltd.",
        "recordNumber": "ICP 123",
        "recordLink": "https://beian.example.com/",
        "remark": "Reseller Acme",
    }
    body.update(overrides)
    return body
