"""Push settings are saved per level and per device as one object: a save that omits a field or a
level keeps what is stored (issue 47: the storage's push tab, saved unchanged, rewrote every device to one
level-1 recipient and later alarms never escalated). Both save calls (a device's and a storage's) are
checked over every optional field of the schema, so a field added later is covered too."""

from __future__ import annotations

import random

import pytest

from api.alarm.schemas import PushSettingSchema
from tests.api.device_helpers import add, guids, minutes_ago, owner, upload

__all__ = ["guids", "owner"]

ALARM = "/api/alarm"
S = "/api/storage"
# Fields a save does not set directly: the request's target, write-only secrets, the level count.
NOT_STORED = {"deviceId", "webhookSecret", "levelCount"}


def ok(response):
    body = response.get_json()
    assert response.status_code == 200 and body["code"] == 0, body
    return body["data"]


def person(name: str) -> dict:
    return {"name": name, "phone": None, "email": f"{name.lower()}@example.com", "lang": "zh-CN"}


FIRST = {
    "enabled": True,
    "multiLevel": True,
    "levels": [
        {"level": 1, "minutes": 0, "recipients": [person("Ann")]},
        {"level": 2, "minutes": 10, "recipients": [person("Bob"), person("Bea")]},
        {"level": 3, "minutes": 30, "recipients": [person("Cy")]},
    ],
    "channels": ["email", "sms"],
    "repeatCount": 3,
    "repeatUntilAck": True,
    "intervalMinutes": 15,
    "delayMinutes": 2,
    "scheduleStart": "08:00",
    "scheduleEnd": "20:00",
    "urgentKinds": ["offline"],
    "webhookUrl": "https://hooks.example.com/first",
    "webhookSecret": "s" * 20,
}
SECOND = {
    "enabled": False,
    "multiLevel": True,
    "levels": [{"level": 1, "minutes": 5, "recipients": [person("Dan")]}],
    "channels": ["voice"],
    "repeatCount": 1,
    "repeatUntilAck": False,
    "intervalMinutes": 20,
    "delayMinutes": 4,
    "scheduleStart": "07:00",
    "scheduleEnd": "19:00",
    "urgentKinds": ["upper"],
    "webhookUrl": "https://hooks.example.com/second",
}


def optional_fields() -> list[str]:
    """Every field a push-setting save may send and the api stores (from the schema itself)."""
    fields = PushSettingSchema().fields
    names = [
        name
        for name, field in fields.items()
        if not field.dump_only and not field.required and name not in NOT_STORED and not name.startswith("_")
    ]
    assert set(names) == set(SECOND), "a new push-setting field needs a value in FIRST and SECOND"
    return names


def expected(omitted: set[str]) -> dict:
    want = {name: (FIRST[name] if name in omitted else SECOND[name]) for name in SECOND}
    if "levels" not in omitted:  # level 1 replaced; levels 2 and 3 not named by the save are kept
        want["levels"] = SECOND["levels"] + FIRST["levels"][1:]
    return want


def stored(client, headers, device_id) -> dict:
    data = ok(client.get(f"{ALARM}/PushSetting/get", query_string={"deviceId": device_id}, headers=headers))
    return {name: data[name] for name in SECOND}


def omissions() -> list[set[str]]:
    names = optional_fields()
    rng = random.Random(47)
    return [{name} for name in names] + [set(names)] + [set(rng.sample(names, k)) for k in (2, 3, 5, 7)]


@pytest.fixture
def devices(client, owner, guids):
    cold_guid, cold_key = guids["cold_room"]
    controller = add(client, owner, cold_guid, name="Room 1")
    logger = add(client, owner, guids["th_a"][0], name="Logger 1")
    readings = {"1": -17.5, "2": -18.0, "3": -20.5, "4": -16.8, "5": 1, "6": 1, "7": 0, "8": 0, "10": -18, "11": 0}
    assert upload(client, cold_guid, cold_key, [{"ts": minutes_ago(1), "readings": readings}]).status_code == 200
    return {"controller": controller, "logger": logger, "guid": cold_guid}


@pytest.mark.parametrize("omitted", omissions(), ids=lambda o: "-".join(sorted(o)) or "none")
def test_a_device_save_that_omits_fields_keeps_them(client, owner, devices, omitted):
    device_id = devices["logger"]
    ok(client.post(f"{ALARM}/PushSetting/save", json={"deviceId": device_id, **FIRST}, headers=owner))
    partial = {k: v for k, v in SECOND.items() if k not in omitted}
    ok(client.post(f"{ALARM}/PushSetting/save", json={"deviceId": device_id, **partial}, headers=owner))
    assert stored(client, owner, device_id) == expected(omitted)


def storage_of(client, owner, devices) -> int:
    probes = [
        {"deviceId": devices["controller"], "sensor": 2, "zone": "middle"},
        {"deviceId": devices["logger"], "sensor": 1, "zone": "door", "probeName": "Door logger"},
    ]
    body = {"storageName": "Cold Room A", "controllerGuid": devices["guid"], "probes": probes}
    return ok(client.post(f"{S}/ColdStorage/insert", json=body, headers=owner))["id"]


@pytest.mark.parametrize("omitted", omissions(), ids=lambda o: "-".join(sorted(o)) or "none")
def test_a_storage_save_that_omits_fields_keeps_each_devices_own(client, owner, devices, omitted):
    storage_id = storage_of(client, owner, devices)
    # Each device has its own setting first: the logger's differs from the controller's in its delay.
    ok(client.post(f"{ALARM}/PushSetting/save", json={"deviceId": devices["controller"], **FIRST}, headers=owner))
    logger_first = {**FIRST, "delayMinutes": 9}
    ok(client.post(f"{ALARM}/PushSetting/save", json={"deviceId": devices["logger"], **logger_first}, headers=owner))
    partial = {k: v for k, v in SECOND.items() if k not in omitted}
    ok(client.post(f"{S}/ColdStorage/pushSetting/save", json={"storageId": storage_id, **partial}, headers=owner))
    assert stored(client, owner, devices["controller"]) == expected(omitted)
    want_logger = expected(omitted)
    if "delayMinutes" in omitted:
        want_logger["delayMinutes"] = 9
    assert stored(client, owner, devices["logger"]) == want_logger


def test_the_storage_tab_saved_unchanged_stores_the_same_settings(client, owner, devices):
    storage_id = storage_of(client, owner, devices)
    for device_id in (devices["controller"], devices["logger"]):
        ok(client.post(f"{ALARM}/PushSetting/save", json={"deviceId": device_id, **FIRST}, headers=owner))
    before = {d: stored(client, owner, d) for d in (devices["controller"], devices["logger"])}
    shown = ok(client.get(f"{S}/ColdStorage/pushSetting/get", query_string={"storageId": storage_id}, headers=owner))
    sent = {k: v for k, v in shown.items() if k in SECOND or k == "storageId"}
    ok(client.post(f"{S}/ColdStorage/pushSetting/save", json=sent, headers=owner))
    assert {d: stored(client, owner, d) for d in before} == before
    assert before[devices["controller"]]["levels"] == FIRST["levels"]  # three levels, not one


def test_levels_merge_by_number_and_level_count_removes(client, owner, devices):
    device_id = devices["logger"]
    ok(client.post(f"{ALARM}/PushSetting/save", json={"deviceId": device_id, **FIRST}, headers=owner))
    # level 2's minutes only: its recipients stay; level 3 untouched
    ok(
        client.post(
            f"{ALARM}/PushSetting/save",
            json={"deviceId": device_id, "levels": [{"level": 2, "minutes": 12}]},
            headers=owner,
        )
    )
    levels = stored(client, owner, device_id)["levels"]
    assert [lv["minutes"] for lv in levels] == [0, 12, 30]
    assert levels[1]["recipients"] == FIRST["levels"][1]["recipients"]
    # switching to single-level keeps levels 2 and 3 stored (unused) ...
    ok(client.post(f"{ALARM}/PushSetting/save", json={"deviceId": device_id, "multiLevel": False}, headers=owner))
    assert len(stored(client, owner, device_id)["levels"]) == 3
    # ... and levelCount removes them
    ok(client.post(f"{ALARM}/PushSetting/save", json={"deviceId": device_id, "levelCount": 1}, headers=owner))
    assert [lv["level"] for lv in stored(client, owner, device_id)["levels"]] == [1]


def test_a_first_save_without_levels_names_the_field(client, owner, devices):
    body = client.post(
        f"{ALARM}/PushSetting/save", json={"deviceId": devices["logger"], "channels": ["email"]}, headers=owner
    ).get_json()
    assert body["code"] == 422 and "levels" in body["data"]["errors"], body
    new_level = {"level": 1, "recipients": [person("Ann")]}
    body = client.post(
        f"{ALARM}/PushSetting/save", json={"deviceId": devices["logger"], "levels": [new_level]}, headers=owner
    ).get_json()
    assert body["code"] == 422 and "levels.0.minutes" in body["data"]["errors"], body
