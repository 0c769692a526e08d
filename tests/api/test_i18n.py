"""Locale from Accept-Language (default zh-CN, en-US in the overseas edition); time-zone header."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from flask_babel import get_locale

from api import create_app
from api.audit.recorder import SKIPPED_TABLES
from api.extensions.db import db
from api.settings import TestConfig

BRANDING = "/api/base/BaseCustomPage/queryByTopDomain?topDomain=localhost"


def branding(client, headers):
    return client.get(BRANDING, headers={"Host": "localhost", **headers}).get_json()


def test_default_language_is_chinese(app):
    body = branding(app.test_client(), {})
    assert body["msg"] == "成功"
    assert body["data"]["title"] == "冷迹云监测平台"


def test_accept_language_picks_the_catalogue(app):
    client = app.test_client()
    assert branding(client, {"Accept-Language": "en-US,en;q=0.8"})["data"]["title"] == "ColdTrace Monitoring"
    assert branding(client, {"Accept-Language": "en"})["msg"] == "success"
    assert branding(client, {"Accept-Language": "fr-FR"})["msg"] == "成功"


def test_overseas_edition_defaults_to_english(app):
    overseas = create_app(TestConfig, {"OVERSEAS": True})
    client = overseas.test_client()
    assert branding(client, {})["msg"] == "success"
    assert branding(client, {"Accept-Language": "zh-CN"})["msg"] == "成功"


@pytest.mark.parametrize(
    ("header", "china", "overseas"),
    [
        (None, "zh_Hans_CN", "en_US"),
        ("", "zh_Hans_CN", "en_US"),
        ("zh-CN,zh;q=0.9", "zh_Hans_CN", "zh_Hans_CN"),
        ("en-US,en;q=0.8", "en_US", "en_US"),
        ("EN-us", "en_US", "en_US"),
        ("en", "en_US", "en_US"),
        ("en-GB,en;q=0.9", "en_US", "en_US"),
        ("zh-TW", "zh_Hans_CN", "zh_Hans_CN"),
        ("fr-FR", "zh_Hans_CN", "en_US"),
        ("fr-FR,en;q=0.5", "en_US", "en_US"),
        ("de, zh;q=0.3, en;q=0.7", "en_US", "en_US"),
        ("not a language header;;;", "zh_Hans_CN", "en_US"),
    ],
)
def test_the_locale_follows_accept_language_in_both_editions(app, header, china, overseas):
    """The choice is remembered per header and edition: each edition asked in turn, twice, keeps its own."""
    editions = [(app, china), (create_app(TestConfig, {"OVERSEAS": True}), overseas)]
    headers = {} if header is None else {"Accept-Language": header}
    for edition, expected in editions + editions:
        with edition.test_request_context("/", headers=headers):
            assert str(get_locale()) == expected


def test_timezone_header_renders_times_in_the_callers_zone(app):
    client = app.test_client()
    new_york = branding(client, {"X-Timezone": "America/New_York"})["data"]["gmtCreate"]
    shanghai = branding(client, {"X-Timezone": "Asia/Shanghai"})["data"]["gmtCreate"]
    assert new_york.endswith(("-05:00", "-04:00"))
    assert shanghai.endswith("+08:00")


def test_unknown_timezone_falls_back_to_the_default(app):
    body = branding(app.test_client(), {"X-Timezone": "Mars/Olympus_Mons"})
    assert body["code"] == 0
    assert body["data"]["gmtCreate"].endswith("+08:00")


def test_the_operation_log_names_every_table_in_both_languages(app):
    """The trail records table names (device#12); the web shows them as things ("设备 #12") from
    organization.json log.tables: a new table without its names would show English on a Chinese page."""
    locales = Path(__file__).resolve().parents[2] / "web" / "public" / "locales"
    recorded = {name for name in db.metadata.tables if name not in SKIPPED_TABLES and not name.startswith("reading")}
    for lang in ("en-US", "zh-CN"):
        names = json.loads((locales / lang / "organization.json").read_text(encoding="utf-8"))["log"]["tables"]
        missing = sorted(recorded - names.keys())
        assert not missing, f"{lang}: no name for {missing}"


def test_the_operation_log_names_every_area_in_both_languages(app):
    """A call without a permission key is named by its area (the blueprint) and method on the log page."""
    locales = Path(__file__).resolve().parents[2] / "web" / "public" / "locales"
    areas = {name for name in app.blueprints if name not in ("api-docs", "docs_assets")}
    for lang in ("en-US", "zh-CN"):
        log = json.loads((locales / lang / "organization.json").read_text(encoding="utf-8"))["log"]
        assert not sorted(areas - log["areas"].keys()), (
            f"{lang}: no area name for {sorted(areas - log['areas'].keys())}"
        )
        assert {"POST", "PUT", "DELETE"} <= log["methods"].keys()
