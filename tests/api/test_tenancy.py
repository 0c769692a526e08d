"""A platform per host: branding, forwarded hosts, style models, data spaces."""

from __future__ import annotations

import json
import shutil
import time

import pytest
from sqlalchemy import func, select

from api import create_app
from api.extensions.db import db
from api.identity.models import Account
from api.platform.models import Platform
from api.platform.services import TenantDefinitionError, sync_tenants
from api.settings import ROOT, TestConfig
from api.tenancy import data_platform, find_platform, scoped
from tests.conftest import JUNJIA_HOST

BRANDING = "/api/base/BaseCustomPage/queryByTopDomain"


def test_two_hosts_get_two_brandings(make_client):
    default = make_client(host="localhost:3000").get(f"{BRANDING}?topDomain=localhost").get_json()["data"]
    junjia = make_client(host=f"{JUNJIA_HOST}:3000").get(f"{BRANDING}?topDomain={JUNJIA_HOST}").get_json()["data"]
    assert (default["slug"], default["themeColor"], default["styleModel"]) == ("default", "#ec6c00", "default")
    assert (junjia["slug"], junjia["themeColor"], junjia["styleModel"]) == ("junjia", "#0f8a5f", "junjia")
    assert default["title"] != junjia["title"]
    assert junjia["enableRegister"] is True and junjia["independent"] is True
    assert default["defaultCamp"] is True
    assert junjia["loginLogo"] == "/api/base/BaseCustomPage/file/junjia/login-logo.svg"
    assert junjia["recordNumber"].startswith("粤ICP备")


def test_production_domains_resolve_without_aliases(app, make_client):
    body = make_client(host="www.coldtrace.example.com").get(f"{BRANDING}?topDomain=junjia.example.com").get_json()
    assert body["data"]["slug"] == "junjia"
    assert set(body["data"]["domains"]) == {"junjia.example.com"}


def test_oauth_credentials_are_never_served(app, client):
    with app.app_context():
        platform = find_platform("localhost")
        platform.oauth = {"qq": {"clientId": "qq-app", "clientSecret": "s3cret-value"}, "wechat": {}}
        db.session.commit()
    body = client.get(f"{BRANDING}?topDomain=localhost").get_json()
    assert body["data"]["socialLogins"] == ["qq"]
    assert "s3cret-value" not in str(body) and "qq-app" not in str(body)


def test_branding_image_is_served_with_nosniff(client):
    response = client.get("/api/base/BaseCustomPage/file/junjia/login-logo.svg")
    assert response.status_code == 200
    assert response.mimetype == "image/svg+xml"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert "sandbox" in response.headers["Content-Security-Policy"]


@pytest.mark.parametrize("name", ["tenant.json", "..%2Ftenant.json", "missing.svg"])
def test_only_branding_images_are_served(client, name):
    assert client.get(f"/api/base/BaseCustomPage/file/default/{name}").status_code == 404


def forwarded(app_, remote_addr: str):
    client = app_.test_client()
    return client.get(
        f"{BRANDING}?topDomain=localhost",
        headers={"Host": "127.0.0.1:5000", "X-Forwarded-Host": "evil.example"},
        environ_base={"REMOTE_ADDR": remote_addr},
    )


def test_forged_forwarded_host_is_ignored_without_a_trusted_proxy(app):
    response = forwarded(app, "127.0.0.1")
    assert response.status_code == 200
    assert response.get_json()["data"]["slug"] == "default"


def test_forwarded_host_is_believed_from_a_trusted_proxy_only():
    proxied = create_app(TestConfig, {"TRUSTED_PROXIES": ["127.0.0.1"]})
    assert forwarded(proxied, "127.0.0.1").status_code == 421  # the proxy said evil.example
    assert forwarded(proxied, "10.1.2.3").get_json()["data"]["slug"] == "default"  # not our proxy


def test_forwarded_host_of_a_reseller_selects_it(app):
    proxied = create_app(TestConfig, {"TRUSTED_PROXIES": ["127.0.0.1"]})
    response = proxied.test_client().get(
        f"{BRANDING}?topDomain=junjia.localhost",
        headers={"Host": "127.0.0.1:5000", "X-Forwarded-Host": "junjia.localhost:3000"},
        environ_base={"REMOTE_ADDR": "127.0.0.1"},
    )
    assert response.status_code == 200


def test_host_aliases_are_configuration(app):
    production_like = create_app(TestConfig, {"HOST_ALIASES": {}})
    response = production_like.test_client().get(f"{BRANDING}?topDomain=x", headers={"Host": "localhost"})
    assert response.status_code == 421


def test_sync_is_idempotent(app):
    with app.app_context():
        sync_tenants()
        sync_tenants()
        assert db.session.scalar(select(func.count()).select_from(Platform)) == 2
        assert find_platform("JUNJIA.example.com.").slug == "junjia"


def test_a_definition_names_the_seller_of_its_receipts(app):
    definition = json.loads((ROOT / "tenants" / "default" / "tenant.json").read_text())
    with app.app_context():
        sync_tenants()
        platform = db.session.scalar(select(Platform).where(Platform.slug == "default"))
        assert (platform.company_address, platform.tax_id) == (
            definition["seller"]["address"],
            definition["seller"]["taxId"],
        )
        # A definition without a seller leaves none (junjia names no address or tax id).
        junjia = db.session.scalar(select(Platform).where(Platform.slug == "junjia"))
        assert (junjia.company_address, junjia.tax_id) == (None, None)


def copy_tenants(tmp_path):
    target = tmp_path / "tenants"
    shutil.copytree(ROOT / "tenants", target)
    return target


def test_unknown_style_model_is_refused_and_nothing_changes(app, tmp_path):
    tenants = copy_tenants(tmp_path)
    definition = json.loads((tenants / "junjia" / "tenant.json").read_text())
    definition["styleModel"] = "neon"
    definition["themeColor"] = "#123456"
    (tenants / "junjia" / "tenant.json").write_text(json.dumps(definition))
    with app.app_context():
        with pytest.raises(TenantDefinitionError, match="Unknown style model 'neon'"):
            sync_tenants(tenants)
        assert find_platform("junjia.localhost").theme_color == "#0f8a5f"


def test_a_domain_claimed_twice_is_refused(app, tmp_path):
    tenants = copy_tenants(tmp_path)
    definition = json.loads((tenants / "junjia" / "tenant.json").read_text())
    definition["domains"].append("coldtrace.example.com")
    (tenants / "junjia" / "tenant.json").write_text(json.dumps(definition))
    with app.app_context(), pytest.raises(TenantDefinitionError, match="claimed by both"):
        sync_tenants(tenants)


def test_independent_platform_has_its_own_data_space(app):
    """Cross-tenant probe: a reseller's independent site never sees the operator's accounts."""
    from api.account.services import ensure_account
    from api.identity.models import AccountType

    with app.app_context():
        default, junjia = (find_platform(h) for h in ("localhost", JUNJIA_HOST))
        ensure_account(default, "operator_side", "Cold#2026", account_type=AccountType.ENTERPRISE)
        ensure_account(junjia, "reseller_side", "Cold#2026", account_type=AccountType.ENTERPRISE)
        db.session.commit()
    for host, expected in [("localhost", {"operator_side"}), (JUNJIA_HOST, {"reseller_side"})]:
        with app.test_request_context(BRANDING, headers={"Host": host}):
            from api.tenancy import resolve_request_platform

            resolve_request_platform()
            names = set(db.session.scalars(scoped(select(Account.user_name), Account)))
            assert names == expected, host
            assert data_platform().slug == ("junjia" if host == JUNJIA_HOST else "default")


def test_a_platform_written_here_shows_on_the_next_request(app, client, tmp_path):
    """Platforms are kept per process (api/extensions/snapshots); a write through the ORM clears them."""
    assert client.get(f"{BRANDING}?topDomain=localhost").get_json()["data"]["themeColor"] == "#ec6c00"
    tenants = copy_tenants(tmp_path)
    definition = json.loads((tenants / "default" / "tenant.json").read_text())
    (tenants / "default" / "tenant.json").write_text(json.dumps({**definition, "themeColor": "#123456"}))
    with app.app_context():
        sync_tenants(tenants)
    assert client.get(f"{BRANDING}?topDomain=localhost").get_json()["data"]["themeColor"] == "#123456"


def test_a_platform_written_by_another_process_shows_within_the_snapshot_time(app, client, monkeypatch):
    from sqlalchemy import text

    from api import tenancy

    monkeypatch.setattr(tenancy._platforms, "ttl", 0.5)
    tenancy._platforms.clear()
    assert client.get(f"{BRANDING}?topDomain=localhost").get_json()["data"]["themeColor"] == "#ec6c00"
    # As `flask sync-tenants` would, in its own process: no ORM event here.
    with app.app_context(), db.engine.begin() as connection:
        connection.execute(text("UPDATE platform SET theme_color = '#654321' WHERE slug = 'default'"))
    assert client.get(f"{BRANDING}?topDomain=localhost").get_json()["data"]["themeColor"] == "#ec6c00"
    time.sleep(0.6)
    assert client.get(f"{BRANDING}?topDomain=localhost").get_json()["data"]["themeColor"] == "#654321"
