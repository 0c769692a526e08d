"""GET /api/base/BaseDict/queryTimeZoneByType: the time zones every select offers."""

from __future__ import annotations

from zoneinfo import ZoneInfo

ZONES = "/api/base/BaseDict/queryTimeZoneByType"


def test_time_zones_are_iana_names_with_localized_labels(make_client):
    zh = make_client(lang="zh-CN").get(ZONES).get_json()["data"]
    en = make_client(lang="en-US").get(ZONES).get_json()["data"]
    assert len(zh) == len(en) > 300
    by_name = {row["value"]: row for row in en}
    shanghai_zh = next(row for row in zh if row["value"] == "Asia/Shanghai")
    assert shanghai_zh["label"].startswith("(UTC+08:00)") and "中国" in shanghai_zh["label"]
    assert "China" in by_name["Asia/Shanghai"]["label"] and by_name["Asia/Shanghai"]["offset"] == 480
    assert [row["offset"] for row in en] == sorted(row["offset"] for row in en)
    for row in en:
        ZoneInfo(row["value"])  # every value is a zone the api accepts in X-Timezone


def test_common_zones_and_a_bad_type(client):
    common = client.get(f"{ZONES}?type=common").get_json()["data"]
    assert {"Asia/Shanghai", "Europe/London", "America/New_York", "UTC"} <= {row["value"] for row in common}
    assert len(common) < 30
    answer = client.get(f"{ZONES}?type=planets")
    assert answer.status_code == 422 and "type" in answer.get_json()["data"]["errors"]
