"""Issue 44: secrets never reach the operation log, at any depth. Merchant private keys, the WeChat
APIv3 key, the PayPal client secret, the SMTP password and OAuth client secrets were "write-only" in
answers but stored verbatim in the log, readable through BaseOperationLog/page, its CSV and its PDF.

Property-based: random nested JSON with secret-named keys at random depth, stored as a merchant's
settings (strings holding JSON, as the code stores them), never shows a secret value in the page,
the CSV or the PDF; the log says which secrets changed."""

from __future__ import annotations

import json
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from api.audit.models import OperationLog
from api.audit.redaction import REDACTED, is_secret_key, redact
from api.extensions.db import db
from tests.api import report_helpers
from tests.api.billing_helpers import BILLING, operator
from tests.api.report_helpers import REPORT, files, pdf_text

__all__ = ["operator"]
files_dir = report_helpers.files_dir
LOG = "/api/base/BaseOperationLog"

SECRET_KEYS = (
    "privateKey",
    "apiV3Key",
    "appPrivateKey",
    "clientSecret",
    "password",
    "smtp_password",
    "accessToken",
    "app_private_key",
    "secret",
    "apiKey",
    "PAYPAL_CLIENT_SECRET",
    "refresh-token",
    "credentials",
)
PLAIN_KEYS = ("name", "mchid", "region", "mode", "items", "notifyBase", "level", "label")
SECRET = re.compile(r"Sx[0-9a-f]{16}")

secrets = st.text("0123456789abcdef", min_size=16, max_size=16).map(lambda digits: f"Sx{digits}")
plain = st.one_of(st.none(), st.booleans(), st.integers(-999, 999), st.text("abcdefghijklmnop", max_size=8))


def holding_a_secret(children):
    """A dict with a secret-named key (its value a secret, a list of them or an object holding one)."""
    value = st.one_of(secrets, st.lists(secrets, min_size=1, max_size=2), st.fixed_dictionaries({"value": secrets}))
    rest = st.dictionaries(st.sampled_from(PLAIN_KEYS), children, max_size=2)
    return st.builds(lambda key, secret, others: {**others, key: secret}, st.sampled_from(SECRET_KEYS), value, rest)


documents = st.recursive(
    st.one_of(plain, holding_a_secret(plain)),
    lambda children: st.one_of(
        st.lists(children, max_size=3),
        st.dictionaries(st.sampled_from(PLAIN_KEYS), children, max_size=3),
        holding_a_secret(children),
    ),
    max_leaves=12,
)


def leaked(text: str, planted: set[str]) -> set[str]:
    """The planted secrets a text shows (whitespace removed: a PDF wraps long values over lines)."""
    flat = re.sub(r"\s+", "", text)
    return {secret for secret in planted if secret in flat}


@given(documents)
@settings(max_examples=300, deadline=None)
def test_no_secret_survives_redaction_at_any_depth(document):
    planted = set(SECRET.findall(json.dumps(document)))
    assert leaked(json.dumps(redact(document)), planted) == set()
    assert leaked(json.dumps(redact(json.dumps(document))), planted) == set()  # JSON inside a string
    assert leaked(json.dumps(redact({"outer": json.dumps({"inner": json.dumps(document)})})), planted) == set()


def test_secret_keys_are_named_as_the_issue_names_them():
    for key in (*SECRET_KEYS, "smtpPassword", "oauthClientSecret", "mch_api_v3_key", "pin_hash", "webhook_secret"):
        assert is_secret_key(key), key
    for key in (*PLAIN_KEYS, "paramKey", "keyword", "key_prefix", "deviceName", "enabled"):
        assert not is_secret_key(key), key
    assert redact({"privateKey": None, "note": "-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----"}) == {
        "privateKey": None,
        "note": REDACTED,
    }


def merchant_config(document, private_key: str) -> dict:
    """How operators store settings: strings, some holding JSON (twice encoded, too)."""
    return {
        "mchid": "1900000109",
        "privateKey": private_key,
        "settings": json.dumps(document),
        "wrapped": json.dumps({"label": "nested", "inner": json.dumps(document)}),
    }


def read_back(client, headers) -> tuple[dict, str]:
    page = client.post(f"{LOG}/page", json={"start": 1, "pageSize": 200}, headers=headers)
    csv_text = client.get(f"{LOG}/export", headers=headers).data.decode("utf-8-sig")
    return page.get_json(), page.get_data(as_text=True) + csv_text


def test_secrets_never_show_in_the_page_the_csv_or_the_pdf(app, client, operator, files_dir, run_jobs):
    planted: set[str] = set()
    last_key: list[str | None] = [None]  # the merchant's private key before each example

    @given(document=documents, private_key=secrets)
    @settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
    def save_and_read(document, private_key):
        config = merchant_config(document, private_key)
        saved = client.put(
            f"{BILLING}/PaymentMerchant/save", json={"provider": "paypal", "config": config}, headers=operator
        )
        assert saved.get_json()["code"] == 0, saved.get_json()
        planted.update(SECRET.findall(json.dumps(config)))
        page, text = read_back(client, operator)
        assert leaked(text, planted) == set()
        newest = page["data"]["list"][0]
        change = next(row for row in newest["after"] if row["table"] == "payment_merchant")
        assert change["values"]["config"]["privateKey"] == REDACTED
        expected = {None: "config.privateKey: set", private_key: None}.get(last_key[0], "config.privateKey: changed")
        named = set(change.get("redacted", []))
        assert expected in named if expected else not {k for k in named if k.startswith("config.privateKey")}
        last_key[0] = private_key

    save_and_read()

    # An entry written before secrets were redacted at depth is redacted as it is read.
    with app.app_context():
        newest = db.session.scalars(select(OperationLog).order_by(OperationLog.id.desc())).first()
        legacy = "Sx" + "0" * 16
        db.session.add(
            OperationLog(
                platform_id=newest.platform_id,
                account_id=newest.account_id,
                user_name=newest.user_name,
                action="billing.MerchantSave",
                method="PUT",
                path="/legacy",
                after=[{"table": "platform", "id": "1", "values": {"oauth": {"wechat": {"clientSecret": legacy}}}}],
            )
        )
        db.session.commit()
    planted.add(legacy)
    _, text = read_back(client, operator)
    assert leaked(text, planted) == set()

    queued = client.post(f"{LOG}/exportPdf", json={}, headers={**operator, "Accept-Language": "en-US"}).get_json()
    assert queued["code"] == 0, queued
    run_jobs()
    assert {row["id"]: row for row in files(client, operator)}[queued["data"]["id"]]["status"] == "generated"
    pdf = client.get(f"{REPORT}/ExportFile/download/{queued['data']['id']}", headers=operator)
    text = pdf_text(pdf.data)
    assert "config.privateKey: changed" in text.replace("\n", "").replace("\r", "")
    assert leaked(text, planted) == set()


def test_which_settings_secret_changed_is_named_never_its_value(app, client, operator):
    """The operator's SMTP password and an OAuth client secret: changed, never shown."""
    body = {
        "platformId": 1,
        "email": {"host": "127.0.0.1", "password": "SxSMTP0000000001"},  # a host the suite lists
        "social": {"wechat": {"clientId": "wx1", "clientSecret": "SxOAUTH000000001"}},
    }
    with app.app_context():
        from api.tenancy import find_platform

        body["platformId"] = find_platform("localhost").id
    first = client.put("/api/operation/SystemSetting/save", json=body, headers=operator).get_json()
    assert first["code"] == 0, first
    body["email"]["password"] = "SxSMTP0000000002"
    body["social"]["wechat"]["clientSecret"] = "SxOAUTH000000002"
    assert client.put("/api/operation/SystemSetting/save", json=body, headers=operator).get_json()["code"] == 0
    page, text = read_back(client, operator)
    assert leaked(text, {"SxSMTP0000000001", "SxSMTP0000000002", "SxOAUTH000000001", "SxOAUTH000000002"}) == set()
    named = {line for row in page["data"]["list"][0]["after"] for line in row.get("redacted", [])}
    assert {"providers.email.password: changed", "oauth.wechat.clientSecret: changed"} <= named
