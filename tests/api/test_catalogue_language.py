"""Everything a user reads follows the language: catalogue names (types, parameters, units) and the
preset roles are given in zh-CN and en-US."""

from __future__ import annotations

from tests.api.device_helpers import DEVICE, add, guids, owner  # noqa: F401 - fixtures

ROLE = "/api/base/BaseRole"


def test_catalogue_names_follow_the_language(make_client, owner, guids):  # noqa: F811
    zh, en = make_client(lang="zh-CN"), make_client(lang="en-US")
    add(zh, owner, guids["th_a"][0], name="Ward")
    add(zh, owner, guids["cold_room"][0], name="Room")

    def names(client):
        rows = client.post(f"{DEVICE}/Device/page", json={}, headers=owner).get_json()["data"]["list"]
        by_name = {row["deviceName"]: row for row in rows}
        return {
            "type": by_name["Ward"]["typeName"],
            "sensors": [s["paramName"] for s in by_name["Ward"]["sensors"]],
            "probes": [s["paramName"] for s in by_name["Room"]["sensors"]][:2],
        }

    assert names(en) == {
        "type": "TH-2 Temperature & Humidity Logger",
        "sensors": ["Temperature", "Humidity"],
        "probes": ["Probe 1", "Probe 2"],
    }
    assert names(zh) == {"type": "TH-2 温湿度记录仪", "sensors": ["温度", "湿度"], "probes": ["探头 1", "探头 2"]}
    room = next(
        row["id"]
        for row in en.post(f"{DEVICE}/Device/page", json={}, headers=owner).get_json()["data"]["list"]
        if row["deviceName"] == "Room"
    )
    params = zh.get(f"{DEVICE}/Device/detail/{room}", headers=owner).get_json()["data"]["params"]
    assert {"电能", "记录间隔"} <= {p["paramName"] for p in params}
    assert "分钟" in {p["unit"] for p in params}


def test_preset_role_names_follow_the_language_and_own_names_stay(make_client, owner, guids):  # noqa: F811
    zh, en = make_client(lang="zh-CN"), make_client(lang="en-US")
    zh.post("/api/base/BaseOrganization/insert", json={"name": "Cold Chain HQ", "parentId": None}, headers=owner)
    listed = {
        lang: client.get(f"{ROLE}/queryRoleByOrganizationType", headers=owner).get_json()["data"]
        for lang, client in (("zh", zh), ("en", en))
    }
    assert {r["roleName"] for r in listed["en"]} >= {"Administrator", "Operator", "Observer"}
    assert {r["roleName"] for r in listed["zh"]} >= {"管理员", "操作员", "观察员"}
    assert "仅查看" in {r["description"] for r in listed["zh"]}
    body = zh.post(f"{ROLE}/insert", json={"roleName": "Observer", "permissions": ["home"]}, headers=owner).get_json()
    assert body["code"] == 0, body
    mine = [
        r for r in zh.get(f"{ROLE}/queryRoleByOrganizationType", headers=owner).get_json()["data"] if not r["preset"]
    ]
    assert [r["roleName"] for r in mine] == ["Observer"]  # a name someone typed is never translated


def test_a_device_name_of_spaces_is_refused(make_client, owner, guids):  # noqa: F811
    en = make_client(lang="en-US")
    body = en.post(
        f"{DEVICE}/Device/add",
        json={"deviceGuid": guids["th_a"][0], "deviceName": "   ", "timeZone": "Asia/Shanghai"},
        headers=owner,
    ).get_json()
    assert body["code"] == 422 and body["data"]["errors"]["deviceName"] == ["This field may not be blank."]


def test_list_length_errors_count_items(make_client, owner):  # noqa: F811
    en, zh = make_client(lang="en-US"), make_client(lang="zh-CN")
    payload = {"projectName": "Too many", "deviceIds": list(range(1, 502))}
    body = en.post("/api/base/BaseProject/insert", json=payload, headers=owner).get_json()
    assert body["code"] == 422 and body["data"]["errors"]["deviceIds"] == ["At most 500 items."]
    body = zh.post("/api/base/BaseProject/insert", json=payload, headers=owner).get_json()
    assert body["data"]["errors"]["deviceIds"] == ["最多 500 项。"]
