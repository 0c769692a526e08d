"""Links in mail and SMS come from the platform's configuration, never from the request (issue 15)."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import select

from api import create_app
from api.extensions.db import db
from api.notify.models import OutboundMessage
from api.settings import TestConfig, parse_public_base_urls
from tests.api.account_helpers import auth, make_account

ORG = "/api/base/BaseOrganization"
ACCOUNT = "/api/base/BaseAccount"


def invite(app, headers, environ_base=(), email="new.member@example.com"):
    """demouser creates an organisation and invites an unregistered address; the invitation text."""
    client, environ_base = app.test_client(), dict(environ_base)
    owner = auth(login_on(client, headers, environ_base))
    organization = client.post(
        f"{ORG}/insert", json={"name": "Cold Chain HQ"}, headers={**headers, **owner}, environ_base=environ_base
    ).get_json()["data"]["id"]
    answer = client.post(
        f"{ACCOUNT}/invite",
        json={"organizationId": organization, "email": email, "inviterName": "Demo"},
        headers={**headers, **owner},
        environ_base=environ_base,
    ).get_json()
    assert answer["code"] == 0, answer
    with app.app_context():
        return db.session.scalar(select(OutboundMessage.body).where(OutboundMessage.recipient == email))


def login_on(client, headers, environ_base):
    body = client.post(
        f"{ACCOUNT}/login",
        json={"userName": "demouser", "password": "Cold#2026"},
        headers=headers,
        environ_base=environ_base,
    ).get_json()
    assert body["code"] == 0, body
    return body["data"]["token"]


def link_in(text: str) -> str:
    return re.search(r"([a-z]+://[^/\s]+)/user/register\?invitation=\S+", text).group(1)


def test_a_host_port_does_not_reach_the_link(app):
    make_account(app)
    text = invite(app, {"Host": "localhost:7777"})
    assert link_in(text) == "https://coldtrace.example.com"


def test_a_forwarded_scheme_from_a_trusted_proxy_does_not_reach_the_link(app):
    make_account(app)
    proxied = create_app(TestConfig, {"TRUSTED_PROXIES": ["127.0.0.1"]})
    headers = {"Host": "127.0.0.1:5000", "X-Forwarded-Host": "localhost:7777", "X-Forwarded-Proto": "javascript"}
    text = invite(proxied, headers, {"REMOTE_ADDR": "127.0.0.1"})
    assert "javascript" not in text
    assert link_in(text) == "https://coldtrace.example.com"


def test_the_platform_https_flag_and_the_configured_base_decide(app, monkeypatch):
    make_account(app)
    monkeypatch.setitem(app.config, "PUBLIC_BASE_URLS", {"default": "http://localhost:3000"})
    assert link_in(invite(app, {"Host": "localhost:7777"})) == "http://localhost:3000"


@pytest.mark.parametrize(
    "raw", ["default=javascript://x", "default=//evil.example", "default=https://x.example/path", "default=ftp://x"]
)
def test_a_public_base_must_be_an_http_origin(raw):
    with pytest.raises(ValueError, match="PUBLIC_BASE_URLS"):
        parse_public_base_urls(raw)


def test_public_bases_parse():
    assert parse_public_base_urls("default=http://localhost:3000/, junjia=https://junjia.example.com") == {
        "default": "http://localhost:3000",
        "junjia": "https://junjia.example.com",
    }
