"""Every outbound address is checked when saved and when used (api/extensions/outbound.py): no
loopback, link-local, private, unspecified, multicast or cloud metadata address, by literal or by a
host name resolving there, unless OUTBOUND_ALLOWED_HOSTS lists it. The suite's fakes listen on
127.0.0.1, which TestConfig lists; every other internal address stays refused (issue 44: a payment
gateway on a loopback address was saved and connected to)."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from api.billing import alipay, paypal, wechat
from api.billing.models import PaymentMerchant
from api.datainterface.models import DeliveryStatus
from api.extensions import outbound
from api.extensions.db import db
from api.notify import adapters
from api.notify.models import Channel
from api.platform.models import Platform
from api.platform.schemas import TenantDefinitionSchema
from tests.api.billing_helpers import (
    BILLING,
    PAYMENT,
    alipay_fake,
    merchant,
    operator,
    order_year,
    paypal_fake,
    shop,
    wechat_fake,
)
from tests.api.device_helpers import guids

__all__ = ["alipay_fake", "guids", "operator", "paypal_fake", "shop", "wechat_fake"]

INTERNAL = [
    "https://127.0.0.2/pay",  # loopback (127.0.0.1 is the suite's listed fakes)
    "https://[::1]/pay",
    "https://169.254.169.254/latest/meta-data/",  # cloud metadata
    "https://[fd00:ec2::254]/latest/",  # AWS metadata over IPv6
    "https://169.254.10.1/",  # link-local
    "https://10.1.2.3/",
    "https://172.16.0.9/",
    "https://192.168.1.1/",
    "https://100.64.0.1/",  # carrier-grade NAT
    "https://0.0.0.0/",  # unspecified
    "https://[::]/",
    "https://224.0.0.1/",  # multicast
    "https://[::ffff:127.0.0.1]/",  # loopback written as IPv4-mapped IPv6
    "https://localhost/",  # a name resolving to loopback
]


@pytest.fixture
def private_dns(monkeypatch):
    """pay.intranet.example resolves to a private address, api.public.example to a public one."""
    real = outbound.resolve
    names = {"pay.intranet.example": ["10.20.30.40"], "api.public.example": ["93.184.216.34"]}
    monkeypatch.setattr(outbound, "resolve", lambda host, port: names.get(host) or real(host, port))


def test_the_check_refuses_every_internal_address(app, private_dns):
    with app.app_context():
        for url in [*INTERNAL, "https://pay.intranet.example/gateway.do"]:
            with pytest.raises(outbound.OutboundRefusedError) as refused:
                outbound.check_url(url)
            assert refused.value.reason == "internal", url
        for url, reason in [
            ("ftp://api.public.example/", "scheme"),
            ("https:///nohost", "scheme"),
            ("http://api.public.example/", "https"),
            ("https://no-such-host.invalid/", "unresolved"),
        ]:
            with pytest.raises(outbound.OutboundRefusedError) as refused:
                outbound.check_url(url)
            assert refused.value.reason == reason, url
        assert outbound.check_url("https://api.public.example/x") == "https://api.public.example/x"
        # The suite's fakes: the listed host, plain http allowed.
        assert outbound.check_url("http://127.0.0.1:8123/x")


def test_listed_networks_pass_but_never_the_metadata_address(app, monkeypatch, private_dns):
    with app.app_context():
        monkeypatch.setitem(app.config, "OUTBOUND_ALLOWED_HOSTS", ("10.0.0.0/8", "169.254.0.0/16"))
        outbound.check_url("https://pay.intranet.example/gateway.do")
        outbound.check_url("https://10.1.2.3/")
        outbound.check_url("https://169.254.10.1/")
        with pytest.raises(outbound.OutboundRefusedError):
            outbound.check_url("https://169.254.169.254/latest/meta-data/")
        with pytest.raises(outbound.OutboundRefusedError):
            outbound.check_url("https://192.168.1.1/")
        # Listed by name or literal: still never the metadata endpoint.
        monkeypatch.setitem(app.config, "OUTBOUND_ALLOWED_HOSTS", ("169.254.169.254", "pay.intranet.example"))
        outbound.check_url("http://pay.intranet.example/gateway.do")
        with pytest.raises(outbound.OutboundRefusedError):
            outbound.check_url("http://169.254.169.254/latest/meta-data/")
        monkeypatch.setitem(app.config, "OUTBOUND_ALLOWED_HOSTS", ())
        with pytest.raises(outbound.OutboundRefusedError):
            outbound.check_url("http://127.0.0.1:8123/x")  # the fakes too, once no longer listed


# ---- when saved ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "lang, message",
    [
        ("en-US", "This address points inside the network (loopback, private, link-local or cloud metadata) "
         "and is not allowed."),
        ("zh-CN", "该地址指向内部网络（回环、私有、链路本地或云元数据地址），不允许使用。"),
    ],
)  # fmt: skip
def test_a_payment_gateway_on_an_internal_address_is_refused_when_saved(
    app, client, operator, lang, message, private_dns
):
    merchant(client, operator, "alipay", {"appid": "2021000", "gateway": "https://api.public.example/gateway.do"})
    with app.app_context():
        stored = db.session.scalar(select(PaymentMerchant.config))
    for key, url in [("gateway", "http://127.0.0.2:9/gateway.do"), ("gateway", "https://169.254.169.254/"),
                     ("oauthGateway", "https://[fd00:ec2::254]/")]:  # fmt: skip
        response = client.put(
            f"{BILLING}/PaymentMerchant/save",
            json={"provider": "alipay", "config": {key: url}},
            headers={**operator, "Accept-Language": lang},
        )
        body = response.get_json()
        assert response.status_code == 422 and body["data"]["errors"][f"config.{key}"] == [message], body
    with app.app_context():
        assert db.session.scalar(select(PaymentMerchant.config)) == stored  # nothing stored is changed


def test_a_gateway_resolving_to_a_private_address_is_refused_when_saved(client, operator, private_dns):
    for provider in ("wechat", "alipay", "paypal"):
        body = client.put(
            f"{BILLING}/PaymentMerchant/save",
            json={"provider": provider, "config": {"gateway": "https://pay.intranet.example"}},
            headers=operator,
        ).get_json()
        assert body["code"] == 422 and "config.gateway" in body["data"]["errors"], body


def test_connector_endpoints_site_providers_and_tenant_oauth_are_checked_when_saved(app, client, operator):
    from tests.api.account_helpers import auth, login, make_account

    make_account(app)
    owner = auth(login(client))
    connector = {
        "name": "Province",
        "endpoint": "https://169.254.169.254/upload",
        "appId": "app-1",
        "secret": "secret-of-the-province",
        "intervalMinutes": 5,
    }
    body = client.post("/api/dataInterface/Connector/insert", json=connector, headers=owner).get_json()
    assert body["code"] == 422 and "endpoint" in body["data"]["errors"], body
    with app.app_context():
        platform_id = db.session.execute(db.text("SELECT id FROM platform WHERE slug = 'default'")).scalar()
    for field, value, named in [
        ("sms", {"url": "https://10.0.0.8/sms"}, "sms"),
        ("voice", {"url": "https://localhost/voice"}, "voice"),
        ("email", {"host": "127.0.0.2"}, "email"),
    ]:
        body = client.put(
            "/api/operation/SystemSetting/save", json={"platformId": platform_id, field: value}, headers=operator
        ).get_json()
        assert body["code"] == 422 and any(k.startswith(named) for k in body["data"]["errors"]), body
    with app.app_context():
        errors = TenantDefinitionSchema(style_models=["default"]).validate(
            {"oauth": {"wechat": {"tokenUrl": "https://127.0.0.2/token"}}}, partial=True
        )
    assert "wechat.tokenUrl" in str(errors["oauth"]), errors


# ---- when used ----------------------------------------------------------------------------------------


def test_a_gateway_no_longer_listed_is_not_connected_to(app, client, operator, shop, wechat_fake, monkeypatch):
    """Saved while 127.0.0.1 was listed; the operator removes it: the payment fails, no request leaves."""
    merchant(client, operator, "wechat", wechat_fake.merchant_config())
    order = order_year(client, shop)
    monkeypatch.setitem(app.config, "OUTBOUND_ALLOWED_HOSTS", ())
    url = f"{PAYMENT}/payment/wechatPay?orderCode={order['orderCode']}&tradeType=native"
    body = client.get(url, headers=shop["buyer"]).get_json()
    assert body["code"] == 3003, body
    assert wechat_fake.trades == {}
    monkeypatch.setitem(app.config, "OUTBOUND_ALLOWED_HOSTS", ("127.0.0.1",))
    body = client.get(url, headers=shop["buyer"]).get_json()
    assert body["code"] == 0 and order["orderCode"] in wechat_fake.trades  # listed again: it works


def test_every_payment_client_checks_its_gateway_before_use(app, private_dns, alipay_fake, paypal_fake, wechat_fake):
    stored = [
        (alipay.client, alipay.AlipayError, alipay_fake.merchant_config()),
        (paypal.client, paypal.PayPalError, paypal_fake.merchant_config()),
        (wechat.client, wechat.WeChatError, wechat_fake.merchant_config()),
    ]
    with app.test_request_context("/", headers={"Host": "localhost"}):
        for build, error, config in stored:
            for gateway in ("https://169.254.169.254", "https://pay.intranet.example", "http://127.0.0.2:9"):
                with pytest.raises(error):
                    build({**config, "gateway": gateway})
            assert build(config) is not None  # the listed fake itself is fine
        with pytest.raises(wechat.WeChatError):
            wechat.open_id({**wechat_fake.merchant_config(), "oauthGateway": "https://[::1]"}, "code")


def test_webhooks_connectors_mail_and_sms_check_their_address_when_used(app, private_dns):
    message = adapters.Outgoing(Channel.WEBHOOK, "https://pay.intranet.example/hook", None, "{}", "Site")
    with app.app_context():
        with pytest.raises(adapters.UnsafeTargetError):
            adapters.send_webhook(message)
        mail = adapters.Outgoing(Channel.EMAIL, "a@example.com", "Hi", "Body", "Site")
        settings = {**app.config, "SMTP_HOST": "169.254.169.254", "SMTP_PORT": 25}
        with pytest.raises(adapters.UnsafeTargetError):
            adapters.send_email(mail, settings)
        sms = adapters.Outgoing(Channel.SMS, "13800000000", None, "Code 1234", "Site")
        with pytest.raises(adapters.UnsafeTargetError):
            adapters.send_via_http_provider(sms, {**app.config, "SMS_API_URL": "https://10.9.8.7/sms"})

        from api.datainterface import delivery
        from api.datainterface.models import Connector

        connector = Connector(endpoint="https://[fd00:ec2::254]/upload", app_id="a", secret="s" * 16)
        outcome = delivery.post(connector, "batch-1", b"{}")
        assert outcome.status == DeliveryStatus.REFUSED, outcome


def test_social_sign_in_and_the_old_platform_check_their_provider_when_used(app, client, monkeypatch):
    """The OAuth provider's token and userinfo URLs and the old platform's address, no longer listed:
    refused with the usual sign-in messages, and no request reaches them."""
    from tests.api.account_helpers import BASE, make_account
    from tests.api.test_account_social import finish, start
    from tests.fakes import OAuthProvider, OldPlatform

    make_account(app)
    with OAuthProvider() as provider:
        with app.app_context():
            platform = db.session.scalar(select(Platform).where(Platform.slug == "default"))
            platform.oauth = {"qq": provider.tenant_settings()}
            db.session.commit()
        state, redirect_uri, _ = start(client, "qq")
        code = provider.issue_code("user-1", redirect_uri)
        monkeypatch.setitem(app.config, "OUTBOUND_ALLOWED_HOSTS", ())
        refused = finish(client, "qq", code, state)
        assert refused["code"] == 1012 and provider.token_requests == [], refused
        monkeypatch.setitem(app.config, "OUTBOUND_ALLOWED_HOSTS", ("127.0.0.1",))
        state, _, _ = start(client, "qq")
        assert finish(client, "qq", code, state)["code"] == 0  # the code was never spent
    with OldPlatform({"legacy_user": "Legacy#123"}) as old:
        monkeypatch.setitem(app.config, "OLD_PLATFORM_URL", old.url)
        monkeypatch.setitem(app.config, "OUTBOUND_ALLOWED_HOSTS", ())
        body = client.post(f"{BASE}/login/toOldPaltform", json={"userName": "legacy_user", "password": "Legacy#123"})
        assert body.get_json()["code"] == 1013


def test_a_name_that_resolves_elsewhere_when_connecting_is_refused_at_connect(app, monkeypatch):
    """DNS rebinding: rebind.example resolves to a public address when checked and to loopback when
    the request connects; the connection checks the peer it reached and sends nothing."""
    import socket

    from tests.api.alarm.test_notify import Hook

    monkeypatch.setattr(outbound, "resolve", lambda host, port: ["93.184.216.34"])
    real = socket.getaddrinfo

    def rebound(host, port, *args, **kwargs):
        return real("127.0.0.1" if host == "rebind.example" else host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", rebound)
    with Hook() as hook, app.app_context():
        url = f"https://rebind.example:{hook.server.server_port}/hook"
        outbound.check_url(url)  # what the check before the request sees: public
        message = adapters.Outgoing(Channel.WEBHOOK, url, None, "{}", "Site", secret="s" * 32)
        with pytest.raises(adapters.DeliveryError) as refused:
            adapters.send_webhook(message)
        assert "outbound address refused" in str(refused.value)
        with pytest.raises(Exception, match="outbound address refused"):
            outbound.session().get(url, timeout=5)
        assert hook.received == []
        # The listed host itself still connects (the suite's fakes).
        assert outbound.session().post(f"{hook.url}/hook", data=b"{}", timeout=5).status_code == 200
        assert len(hook.received) == 1
