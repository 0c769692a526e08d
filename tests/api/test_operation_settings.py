"""/operation/system/manage: per-platform settings, write-only secrets and the test message."""

from __future__ import annotations

from sqlalchemy import select

from api.extensions.db import db
from api.notify.delivery import deliver
from api.notify.models import Channel
from api.notify.services import add_message
from api.operation.settings_models import PlatformSetting
from api.platform.models import Platform
from tests.api.customization_helpers import staff
from tests.fakes import SmsProvider, SmtpServer

SETTINGS = "/api/operation/SystemSetting"
SECRETS = ("sms-secret-value", "smtp-password-value", "qq-secret-value")


def junjia_id(app) -> int:
    with app.app_context():
        return db.session.scalar(select(Platform.id).where(Platform.slug == "junjia"))


def test_settings_are_saved_per_platform_and_secrets_never_come_back(app, make_client):
    (operator, op), _, _ = staff(app, make_client, lang="en-US")
    platform = junjia_id(app)
    with SmsProvider(key="k1", secret=SECRETS[0]) as sms, SmtpServer() as smtp:
        saved = operator.put(
            f"{SETTINGS}/save",
            headers=op,
            json={
                "platformId": platform,
                "defaultTimeZone": "Europe/Berlin",
                "defaultLocale": "en-US",
                "enableRegister": False,
                "sms": {"url": f"{sms.url}/send", "key": "k1", "secret": SECRETS[0]},
                "email": {
                    "host": "127.0.0.1",
                    "port": smtp.port,
                    "starttls": False,
                    "from": "noreply@junjia.example.com",
                    "password": SECRETS[1],
                },
                "social": {"qq": {"clientId": "qq-app-id", "clientSecret": SECRETS[2]}},
            },
        )
        assert saved.status_code == 200, saved.get_json()
        shown = operator.get(f"{SETTINGS}/get?platformId={platform}", headers=op)
        for answer in (saved, shown):
            text = answer.get_data(as_text=True)
            assert not any(secret in text for secret in SECRETS), text
        data = shown.get_json()["data"]
        assert data["defaultTimeZone"] == "Europe/Berlin" and data["defaultLocale"] == "en-US"
        assert data["sms"] == {"url": f"{sms.url}/send", "key": "k1", "hasSecret": True}
        assert data["email"]["hasPassword"] is True and data["social"]["qq"] == {
            "clientId": "qq-app-id",
            "hasClientSecret": True,
        }

        # The login page offers exactly the configured social sign-ins.
        branding = make_client(host="junjia.localhost").get(
            "/api/base/BaseCustomPage/queryByTopDomain?topDomain=junjia.localhost"
        )
        assert (
            branding.get_json()["data"]["socialLogins"] == ["qq"]
            and branding.get_json()["data"]["enableRegister"] is False
        )

        # An empty secret keeps the stored one; the test messages go through the platform's providers.
        operator.put(f"{SETTINGS}/save", headers=op, json={"platformId": platform, "sms": {"secret": ""}})
        sent = operator.post(
            f"{SETTINGS}/sendTest",
            headers=op,
            json={"platformId": platform, "channel": "sms", "recipient": "+8613800138000"},
        )
        assert sent.status_code == 200, sent.get_json()
        assert "Junjia" in sms.texts_to("+8613800138000")[0]
        mailed = operator.post(
            f"{SETTINGS}/sendTest",
            headers=op,
            json={"platformId": platform, "channel": "email", "recipient": "ops@example.com"},
        )
        assert mailed.status_code == 200, mailed.get_json()
        assert smtp.inbox.bodies_to("ops@example.com")

        # null clears a secret: the provider then refuses the signature, and the page says why.
        operator.put(f"{SETTINGS}/save", headers=op, json={"platformId": platform, "sms": {"secret": None}})
        refused = operator.post(
            f"{SETTINGS}/sendTest",
            headers=op,
            json={"platformId": platform, "channel": "sms", "recipient": "+8613800138000"},
        )
        assert refused.status_code == 424 and "401" in refused.get_json()["msg"]
    unset = operator.post(
        f"{SETTINGS}/sendTest",
        headers=op,
        json={"platformId": platform, "channel": "voice", "recipient": "+8613800138000"},
    )
    assert unset.status_code == 424


def test_only_the_operator_reaches_the_settings(app, make_client):
    (operator, op), (reseller, rs), (user, us) = staff(app, make_client)
    platform = junjia_id(app)
    for client, headers in ((reseller, rs), (user, us)):
        calls = [
            client.get(f"{SETTINGS}/get?platformId={platform}", headers=headers),
            client.put(f"{SETTINGS}/save", headers=headers, json={"platformId": platform, "enableRegister": False}),
            client.post(
                f"{SETTINGS}/sendTest",
                headers=headers,
                json={"platformId": platform, "channel": "sms", "recipient": "+8613800138000"},
            ),
        ]
        assert [c.status_code for c in calls] == [403, 403, 403]
    bad = operator.put(
        f"{SETTINGS}/save",
        headers=op,
        json={"platformId": platform, "defaultTimeZone": "Mars/Base", "enableRegister": False},
    )
    assert bad.status_code == 422 and "defaultTimeZone" in bad.get_json()["data"]["errors"]
    with app.app_context():
        assert db.session.get(PlatformSetting, platform) is None
        assert db.session.get(Platform, platform).enable_register is True


def test_a_platforms_own_provider_carries_its_real_messages(app, make_client, monkeypatch):
    """Not only the test button: an outbox row of a platform with its own SMS provider goes through
    that provider; a platform without one uses the app's."""
    (operator, op), _, _ = staff(app, make_client, lang="en-US")
    junjia = junjia_id(app)
    with SmsProvider(key="reseller", secret="reseller-secret") as own, SmsProvider() as apps:
        for key, value in {
            "SMS_API_URL": f"{apps.url}/send",
            "SMS_API_KEY": "test-key",
            "SMS_API_SECRET": "test-secret",
        }.items():
            monkeypatch.setitem(app.config, key, value)
        saved = operator.put(
            f"{SETTINGS}/save",
            headers=op,
            json={
                "platformId": junjia,
                "sms": {"url": f"{own.url}/send", "key": "reseller", "secret": "reseller-secret"},
            },
        )
        assert saved.status_code == 200, saved.get_json()
        with app.app_context():
            default = db.session.scalar(select(Platform.id).where(Platform.slug == "default"))
            ids = [
                add_message(junjia, Channel.SMS, "+8613800138001", "Fridge above 8 °C", dispatch=False),
                add_message(default, Channel.SMS, "+8613800138002", "Fridge above 8 °C", dispatch=False),
            ]
            db.session.commit()
            assert [deliver(message_id) for message_id in ids] == ["sent", "sent"]
        assert own.texts_to("+8613800138001") and not own.texts_to("+8613800138002")
        assert apps.texts_to("+8613800138002") and not apps.texts_to("+8613800138001")
