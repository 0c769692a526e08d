"""Social sign-in against a local fake OAuth provider; old-platform sign-in; the follow prompt."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

import pytest
import requests

from api.account.demo import DEMO_OAUTH_CLIENT_ID, DEMO_OAUTH_CLIENT_SECRET, seed_social_sign_in
from api.extensions.db import db
from api.tenancy import find_platform
from tests.api.account_helpers import BASE, PASSWORD, auth, login, make_account
from tests.fakes import OAuthProvider, OldPlatform

PROVIDERS = ["wechat", "qq", "facebook"]


@pytest.fixture
def oauth(app):
    with OAuthProvider() as provider:
        with app.app_context():
            for host in ("localhost", "junjia.localhost"):
                platform = find_platform(host)
                platform.oauth = {name: provider.tenant_settings() for name in PROVIDERS}
            db.session.commit()
        yield provider


def start(client, provider_name):
    body = client.get(f"{BASE}/login/{provider_name}/web/authorize").get_json()
    assert body["code"] == 0, body
    query = parse_qs(urlsplit(body["data"]["url"]).query)
    return query["state"][0], query["redirect_uri"][0], query


def finish(client, provider_name, code, state):
    payload = {"code": code, "state": state}
    if provider_name == "facebook":
        return client.get(f"{BASE}/login/facebook/web", query_string=payload).get_json()
    return client.post(f"{BASE}/login/{provider_name}/web", json=payload).get_json()


def test_the_demo_site_signs_in_through_the_providers_own_page(app, client):
    """seed-demo's WeChat app on the local provider (make run, browser tests): its consent page, then
    Allow, brings a code back to the site's login-result page, bound to that page and this request."""
    with OAuthProvider(DEMO_OAUTH_CLIENT_ID, DEMO_OAUTH_CLIENT_SECRET) as provider:
        app.config["DEMO_OAUTH_URL"] = provider.url
        try:
            with app.app_context():
                assert seed_social_sign_in(find_platform("localhost"))
        finally:
            app.config["DEMO_OAUTH_URL"] = ""
        query = {"topDomain": "localhost"}
        branding = client.get("/api/base/BaseCustomPage/queryByTopDomain", query_string=query).get_json()["data"]
        assert branding["socialLogins"] == ["wechat"]
        url = client.get(f"{BASE}/login/wechat/web/authorize").get_json()["data"]["url"]
        page = requests.get(url.split("#")[0], timeout=5)
        assert page.status_code == 200 and "demo-wechat-app" in page.text
        allow = re.search(r'id="allow" href="([^"]+)"', page.text).group(1).replace("&amp;", "&")
        back = requests.get(provider.url + allow, allow_redirects=False, timeout=5)
        returned = parse_qs(urlsplit(back.headers["Location"]).query)
        assert back.headers["Location"].startswith("http://localhost/user/login-result?provider=wechat&")
        first = finish(client, "wechat", returned["code"][0], returned["state"][0])
        assert first["code"] == 0 and first["data"]["bindingTicket"], first
        again = finish(client, "wechat", returned["code"][0], returned["state"][0])
        assert again["code"] != 0  # a code and a state are good for one try


def test_without_the_demo_provider_the_seed_leaves_sign_in_alone(app):
    with app.app_context():
        platform = find_platform("localhost")
        before = dict(platform.oauth or {})
        assert not seed_social_sign_in(platform)
        assert (platform.oauth or {}) == before


@pytest.mark.parametrize("provider_name", PROVIDERS)
def test_first_time_user_binds_then_signs_in_directly(app, client, oauth, provider_name):
    make_account(app)
    state, redirect_uri, query = start(client, provider_name)
    assert redirect_uri == f"http://localhost/user/login-result?provider={provider_name}"
    assert ("appid" if provider_name == "wechat" else "client_id") in query

    first = finish(client, provider_name, oauth.issue_code("user-1", redirect_uri), state)
    assert first["code"] == 0 and first["data"]["token"] is None
    bound = client.post(
        f"{BASE}/binding",
        json={"bindingTicket": first["data"]["bindingTicket"], "userName": "demouser", "password": PASSWORD},
    ).get_json()
    assert bound["code"] == 0 and bound["data"]["token"]

    state, redirect_uri, _ = start(client, provider_name)
    again = finish(client, provider_name, oauth.issue_code("user-1", redirect_uri), state)
    info = client.get(f"{BASE}/accountInfo", headers=auth(again["data"]["token"])).get_json()
    assert info["data"]["baseAccount"]["userName"] == "demouser"


def test_wechat_gets_its_own_parameter_names(client, oauth):
    state, redirect_uri, _ = start(client, "wechat")
    finish(client, "wechat", oauth.issue_code("user-1", redirect_uri), state)
    assert {"appid", "secret"} <= set(oauth.token_requests[-1])


@pytest.mark.parametrize("provider_name", PROVIDERS)
def test_state_is_single_use_and_checked(client, oauth, provider_name):
    state, redirect_uri, _ = start(client, provider_name)
    assert finish(client, provider_name, oauth.issue_code("u", redirect_uri), "forged-state")["code"] == 1011
    finish(client, provider_name, oauth.issue_code("u", redirect_uri), state)
    assert finish(client, provider_name, oauth.issue_code("u", redirect_uri), state)["code"] == 1011


def test_state_of_one_provider_is_refused_by_another(client, oauth):
    state, redirect_uri, _ = start(client, "qq")
    assert finish(client, "wechat", oauth.issue_code("u", redirect_uri), state)["code"] == 1011


def test_state_of_one_site_is_refused_on_another(make_client, oauth):
    state, redirect_uri, _ = start(make_client(host="localhost"), "qq")
    other = make_client(host="junjia.localhost")
    assert finish(other, "qq", oauth.issue_code("u", redirect_uri), state)["code"] == 1011


def test_code_for_another_redirect_uri_is_refused(client, oauth):
    state, _redirect_uri, _ = start(client, "qq")
    code = oauth.issue_code("u", "https://evil.example/steal")
    assert finish(client, "qq", code, state)["code"] == 1012


def test_binding_a_new_account(client, oauth, run_jobs):
    state, redirect_uri, _ = start(client, "qq")
    ticket = finish(client, "qq", oauth.issue_code("user-9", redirect_uri), state)["data"]["bindingTicket"]
    register = {
        "accountType": "personal",
        "userName": "qq_user_9",
        "email": "nine@example.com",
        "password": "Fresh#2027",
        "confirmPassword": "Fresh#2027",
        "code": "000000",
    }
    body = client.post(f"{BASE}/binding", json={"bindingTicket": ticket, "register": register}).get_json()
    assert body["code"] == 1003  # the email code is checked like any registration


def test_binding_ticket_is_single_use(app, client, oauth):
    make_account(app)
    state, redirect_uri, _ = start(client, "qq")
    ticket = finish(client, "qq", oauth.issue_code("user-1", redirect_uri), state)["data"]["bindingTicket"]
    payload = {"bindingTicket": ticket, "userName": "demouser", "password": PASSWORD}
    assert client.post(f"{BASE}/binding", json=payload).get_json()["code"] == 0
    assert client.post(f"{BASE}/binding", json=payload).get_json()["code"] == 1011


def test_provider_not_configured_on_a_site(make_client):
    body = make_client(lang="en-US").get(f"{BASE}/login/qq/web/authorize").get_json()
    assert body["msg"] == "This sign-in method is not available on this site."


class TestOldPlatform:
    @pytest.fixture
    def old(self, app, monkeypatch):
        with OldPlatform({"legacy_user": "Legacy#123"}) as old:
            monkeypatch.setitem(app.config, "OLD_PLATFORM_URL", old.url)
            yield old

    def test_credentials_accepted_there_move_the_account_here(self, client, old):
        body = client.post(
            f"{BASE}/login/toOldPaltform",
            json={"userName": "legacy_user", "password": "Legacy#123", "email": "l@example.com"},
        )
        assert body.get_json()["code"] == 0
        assert login(client, "legacy_user", "Legacy#123")
        assert login(client, "l@example.com", "Legacy#123")

    def test_credentials_refused_there_are_refused_here(self, client, old):
        body = client.post(f"{BASE}/login/toOldPaltform", json={"userName": "legacy_user", "password": "nope"})
        assert body.get_json()["code"] == 1001


def test_wechat_follow_prompt(app, client, oauth):
    make_account(app)
    body = client.get(f"{BASE}/focusOnWechat", headers=auth(login(client))).get_json()
    assert body["data"] == {"followed": False, "qrCodeUrl": "https://example.com/qr.png"}
