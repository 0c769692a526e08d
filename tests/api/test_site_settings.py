"""The operator's site settings every visitor sees (issue 26): the addresses the plc and calibration
serve routes open, and the cloud-control large screen's yearly price, in the site's branding answer."""

from __future__ import annotations

from sqlalchemy import select

from api.extensions.db import db
from api.platform.models import Platform
from tests.api.customization_helpers import staff

SETTINGS = "/api/operation/SystemSetting"
BRANDING = "/api/base/BaseCustomPage/queryByTopDomain"


def junjia_id(app) -> int:
    with app.app_context():
        return db.session.scalar(select(Platform.id).where(Platform.slug == "junjia"))


def branding(client) -> dict:
    body = client.get(f"{BRANDING}?topDomain=junjia.example.com").get_json()
    assert body["code"] == 0, body
    return body["data"]


def test_links_and_price_are_unset_until_the_operator_sets_them(app, make_client):
    (operator, op), (reseller, rs), _ = staff(app, make_client, lang="en-US")
    platform = junjia_id(app)
    visitor = make_client(host="junjia.localhost")
    shown = branding(visitor)
    assert (shown["plcUrl"], shown["calibrationUrl"], shown["cloudControlYearlyPrice"]) == (None, None, None)

    saved = operator.put(
        f"{SETTINGS}/save",
        headers=op,
        json={
            "platformId": platform,
            "plcUrl": "https://scada.junjia.example.com/login",
            "calibrationUrl": "https://calibration.example.com/",
            "cloudControlYearlyPrice": 299900,
        },
    ).get_json()
    assert saved["code"] == 0, saved
    assert saved["data"]["plcUrl"] == "https://scada.junjia.example.com/login"
    shown = branding(visitor)
    assert shown["plcUrl"] == "https://scada.junjia.example.com/login"
    assert shown["calibrationUrl"] == "https://calibration.example.com/"
    assert shown["cloudControlYearlyPrice"] == 299900
    assert branding(make_client())["plcUrl"] == "https://scada.junjia.example.com/login"  # asked by top domain

    # null clears one; the others stay
    operator.put(f"{SETTINGS}/save", headers=op, json={"platformId": platform, "plcUrl": None})
    shown = branding(visitor)
    assert shown["plcUrl"] is None and shown["cloudControlYearlyPrice"] == 299900

    # a reseller's admin cannot set them
    refused = reseller.put(f"{SETTINGS}/save", headers=rs, json={"platformId": platform, "plcUrl": "https://x.example"})
    assert refused.status_code == 403


def test_only_web_addresses_and_positive_prices_are_taken(app, make_client):
    (operator, op), _, _ = staff(app, make_client, lang="en-US")
    platform = junjia_id(app)
    for field, value in (
        ("plcUrl", "javascript:alert(1)"),
        ("calibrationUrl", "ftp://calibration.example.com"),
        ("cloudControlYearlyPrice", 0),
        ("cloudControlYearlyPrice", 12.5),
    ):
        body = operator.put(f"{SETTINGS}/save", headers=op, json={"platformId": platform, field: value}).get_json()
        assert body["code"] == 422 and field in body["data"]["errors"], (field, body)
    shown = branding(make_client(host="junjia.localhost"))
    assert (shown["plcUrl"], shown["calibrationUrl"], shown["cloudControlYearlyPrice"]) == (None, None, None)
