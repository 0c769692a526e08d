"""Cold storages, freezers and virtual storages: the section 5 limits, probes placed in zones, lists
with state counts, the detail tabs, visibility like devices (cross-account, shares with templates)."""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta
from urllib.parse import urlencode

import pytest
from sqlalchemy import event, func, select

from api.extensions.db import db
from api.storage.models import ColdStorage, StorageProbe
from tests.api.account_helpers import auth, login, make_account
from tests.api.device_helpers import add, guids, minutes_ago, owner, stranger, upload

__all__ = ["guids", "owner", "stranger"]

S = "/api/storage"
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64


def ok(response):
    body = response.get_json()
    assert response.status_code == 200 and body["code"] == 0, body
    return body["data"]


@pytest.fixture
def room(app, client, guids, owner):
    """The owner's cold-room controller (four probes, state channels) and a TH-2 logger, with data."""
    cold_guid, cold_key = guids["cold_room"]
    th_guid, th_key = guids["th_a"]
    controller_id = add(client, owner, cold_guid, name="Room 1")
    logger_id = add(client, owner, th_guid, name="Logger 1")
    readings = {"1": -17.5, "2": -18.0, "3": -20.5, "4": -16.8, "5": 1, "6": 1, "7": 0, "8": 0, "10": -18, "11": 0}
    assert upload(client, cold_guid, cold_key, [{"ts": minutes_ago(1), "readings": readings}]).status_code == 200
    assert upload(client, th_guid, th_key, [{"ts": minutes_ago(1), "readings": {"1": 4.2, "2": 55}}]).status_code == 200
    return {"controller": controller_id, "logger": logger_id, "guid": cold_guid, "key": cold_key}


def storage_body(**extra):
    return {
        "storageName": "Cold Room A",
        "volume": "120 m3",
        "area": "40 m2",
        "compressor": "Bitzer 4FES-5Y",
        "airCooler": "Güntner GACC",
        "electricBox": "Dixell XR60",
        "address": "Pudong, Shanghai",
        "lat": 31.2,
        "lng": 121.5,
        **extra,
    }


def create(client, headers, guid, **extra):
    return ok(client.post(f"{S}/ColdStorage/insert", json=storage_body(controllerGuid=guid, **extra), headers=headers))


def stored_rows(app):
    with app.app_context():
        storages = db.session.execute(select(ColdStorage.id, ColdStorage.name, ColdStorage.volume)).all()
        probes = db.session.scalar(select(func.count()).select_from(StorageProbe))
        return sorted(storages), probes


def test_a_storage_places_the_controllers_probes_in_zones_and_shows_them_live(client, owner, room):
    storage = create(client, owner, room["guid"])
    assert storage["controller"]["deviceId"] == room["controller"]
    zones = {p["sensor"]: p["zone"] for p in storage["probes"]}
    assert zones == {1: "door", 2: "middle", 3: "evaporator", 4: "return_air"}
    assert storage["status"] == "online" and storage["writable"] and storage["mine"]
    overview = ok(client.get(f"{S}/ColdStorage/overview?storageId={storage['id']}", headers=owner))
    assert {p["sensor"]: p["value"] for p in overview["probes"]}[3] == -20.5
    assert overview["setpoint"] == -18 and overview["compressor"] is True and overview["defrost"] is False
    assert overview["controllerOnline"] is True

    # Probes from another device, in chosen zones (a logger by the door)
    body = storage_body(
        storageId=storage["id"],
        controllerGuid=room["guid"],
        probes=[
            {"deviceId": room["controller"], "sensor": 2, "zone": "middle"},
            {"deviceId": room["logger"], "sensor": 1, "zone": "door", "probeName": "Door logger"},
        ],
    )
    changed = ok(client.put(f"{S}/ColdStorage/update", json=body, headers=owner))
    assert [(p["deviceId"], p["sensor"], p["zone"]) for p in changed["probes"]] == [
        (room["controller"], 2, "middle"),
        (room["logger"], 1, "door"),
    ]
    assert changed["probes"][1]["probeName"] == "Door logger" and changed["probes"][1]["value"] == 4.2


# (field, too long value, the limit) of business-domain section 5
LIMITS = [
    ("storageName", "n" * 51, 50),
    ("volume", "v" * 51, 50),
    ("area", "a" * 51, 50),
    ("compressor", "c" * 101, 100),
    ("airCooler", "f" * 101, 100),
    ("electricBox", "e" * 101, 100),
]


@pytest.mark.parametrize("lang,word", [("zh-CN", "输入有误"), ("en-US", "Invalid input")])
def test_every_limit_is_refused_naming_the_field_and_nothing_changes(app, client, owner, room, lang, word):
    storage = create(client, owner, room["guid"])
    before = stored_rows(app)
    headers = {**owner, "Accept-Language": lang}
    for field, value, limit in LIMITS:
        for call, method, extra in (
            ("insert", client.post, {}),
            ("update", client.put, {"storageId": storage["id"]}),
        ):
            response = method(f"{S}/ColdStorage/{call}", json=storage_body(**{field: value}, **extra), headers=headers)
            body = response.get_json()
            assert response.status_code == 422, (field, body)
            assert field in body["msg"] and word in body["msg"] and str(limit) in body["msg"], body["msg"]
            assert field in body["data"]["errors"]
        # exactly at the limit is fine
        ok(
            client.put(
                f"{S}/ColdStorage/update",
                json=storage_body(storageId=storage["id"], **{field: value[:limit]}),
                headers=headers,
            )
        )
        ok(client.put(f"{S}/ColdStorage/update", json=storage_body(storageId=storage["id"]), headers=headers))
    # freezers: name, brand, model 50
    for field in ("storageName", "brand", "model"):
        response = client.post(f"{S}/Freezer/insert", json={"storageName": "F", field: "x" * 51}, headers=headers)
        assert response.status_code == 422 and field in response.get_json()["msg"]
    assert stored_rows(app) == before


def test_images_are_checked_by_content_and_must_be_uploaded_first(app, client, owner, room):
    storage = create(client, owner, room["guid"])
    before = stored_rows(app)
    fake = client.post(
        f"{S}/ColdStorage/uploadImage",
        data={"file": (io.BytesIO(b"<svg onload=alert(1)>"), "room.png")},
        headers=owner,
        content_type="multipart/form-data",
    )
    assert fake.status_code == 415
    big = client.post(
        f"{S}/ColdStorage/uploadImage",
        data={"file": (io.BytesIO(PNG + b"\x00" * (2 * 1024 * 1024)), "big.png")},
        headers=owner,
        content_type="multipart/form-data",
    )
    assert big.status_code == 413
    image = ok(
        client.post(
            f"{S}/ColdStorage/uploadImage",
            data={"file": (io.BytesIO(PNG), "room.jpg")},
            headers=owner,
            content_type="multipart/form-data",
        )
    )
    assert image["name"].endswith(".png")
    refused = client.put(
        f"{S}/ColdStorage/update",
        json=storage_body(storageId=storage["id"], images=[image["name"], "0" * 32 + ".png"]),
        headers={**owner, "Accept-Language": "en-US"},
    )
    assert refused.status_code == 422 and "images.1" in refused.get_json()["msg"]
    assert stored_rows(app) == before
    saved = ok(
        client.put(
            f"{S}/ColdStorage/update", json=storage_body(storageId=storage["id"], images=[image["name"]]), headers=owner
        )
    )
    assert saved["imageUrls"] == [f"{S}/ColdStorage/image/{image['name']}"]
    served = client.get(saved["imageUrls"][0])
    assert served.status_code == 200 and served.headers["X-Content-Type-Options"] == "nosniff"


def test_probes_and_controllers_are_checked(app, client, owner, stranger, room, guids):
    theirs = add(client, stranger, guids["th_b"][0], name="Theirs")
    before = stored_rows(app)
    en = {**owner, "Accept-Language": "en-US"}
    cases = [
        ({"controllerGuid": guids["th_b"][0]}, "controllerGuid"),  # another account's device
        ({"controllerGuid": guids["th_a"][0]}, "controllerGuid"),  # a logger is not a controller
        ({"probes": [{"deviceId": theirs, "sensor": 1}]}, "probes.0.deviceId"),
        ({"probes": [{"deviceId": room["logger"], "sensor": 7}]}, "probes.0.sensor"),
        (
            {"probes": [{"deviceId": room["logger"], "sensor": 1}, {"deviceId": room["logger"], "sensor": 1}]},
            "probes.1.sensor",
        ),
    ]
    for extra, field in cases:
        response = client.post(f"{S}/ColdStorage/insert", json=storage_body(**extra), headers=en)
        # another account's device is answered as missing (404), a wrong kind or probe as invalid (422)
        expected = 404 if field.endswith(("deviceId",)) or extra.get("controllerGuid") == guids["th_b"][0] else 422
        assert response.status_code == expected and field in response.get_json()["msg"], (extra, response.get_json())
    empty_virtual = client.post(f"{S}/VirtualStorage/insert", json={"storageName": "V", "probes": []}, headers=en)
    assert empty_virtual.status_code == 422 and "probes" in empty_virtual.get_json()["msg"]
    assert stored_rows(app) == before


def test_lists_count_states_and_search(client, owner, room, guids):
    create(client, owner, room["guid"], storageName="North room")
    ok(client.post(f"{S}/ColdStorage/insert", json=storage_body(storageName="Empty south room"), headers=owner))
    listed = ok(client.post(f"{S}/ColdStorage/page", json={}, headers=owner))
    assert listed["total"] == 2
    assert ok(client.get(f"{S}/ColdStorage/statusCount", headers=owner)) == {
        "all": 2,
        "online": 1,
        "offline": 0,
        "alarm": 0,
        "empty": 1,
    }
    found = ok(client.post(f"{S}/ColdStorage/page", json={"storageName": "north"}, headers=owner))
    assert [s["storageName"] for s in found["list"]] == ["North room"]
    by_state = ok(client.post(f"{S}/ColdStorage/page", json={"status": "empty"}, headers=owner))
    assert [s["storageName"] for s in by_state["list"]] == ["Empty south room"]
    # freezers are their own list
    assert ok(client.post(f"{S}/Freezer/page", json={}, headers=owner))["total"] == 0


def test_detail_tabs(client, owner, room):
    storage = create(client, owner, room["guid"])
    sid = storage["id"]
    ok(
        client.post(
            "/api/alarm/SensorLimit/save",
            json={"deviceId": room["controller"], "limits": [{"sensor": 2, "upperLimit": -10, "lowerLimit": -25}]},
            headers=owner,
        )
    )
    now = datetime.now(UTC)
    window = urlencode({"storageId": sid, "start": (now - timedelta(hours=1)).isoformat(), "end": now.isoformat()})
    chart = ok(client.get(f"{S}/ColdStorage/chart?{window}", headers=owner))
    middle = next(s for s in chart["series"] if s["sensor"] == 2)
    assert middle["upper"] == -10 and middle["lower"] == -25 and middle["points"][0]["v"] == -18.0
    assert len(chart["series"]) == 4
    fahrenheit = ok(client.get(f"{S}/ColdStorage/chart?{window}&unit=F", headers=owner))
    assert next(s for s in fahrenheit["series"] if s["sensor"] == 2)["upper"] == 14.0
    params = ok(client.get(f"{S}/ColdStorage/params?storageId={sid}", headers=owner))
    keys = {p["paramKey"]: p for p in params["params"]}
    assert keys["0201"]["readWrite"] == "RW" and keys["000a"]["value"] == -18
    top_up = ok(client.get(f"{S}/ColdStorage/topUp?storageId={sid}", headers=owner))
    assert top_up["devices"][0]["deviceId"] == room["controller"] and top_up["devices"][0]["serviceExpireTime"]
    push = {
        "storageId": sid,
        "channels": ["email"],
        "levels": [{"level": 1, "minutes": 0, "recipients": [{"name": "Ops", "email": "ops@example.com"}]}],
    }
    saved = ok(client.post(f"{S}/ColdStorage/pushSetting/save", json=push, headers=owner))
    assert saved["storageId"] == sid and saved["channels"] == ["email"]
    device_setting = ok(client.get(f"/api/alarm/PushSetting/get?deviceId={room['controller']}", headers=owner))
    assert device_setting["levels"][0]["recipients"][0]["email"] == "ops@example.com"
    assert ok(client.get(f"{S}/ColdStorage/pushSetting/get?storageId={sid}", headers=owner))["channels"] == ["email"]
    # an excursion of the middle probe is in the storage's alarm record
    upload(client, room["guid"], room["key"], [{"ts": minutes_ago(0.5), "readings": {"2": -5.0}}])
    alarms = ok(client.post(f"{S}/ColdStorage/alarmPage", json={"storageId": sid}, headers=owner))
    assert [(a["sensor"], a["kind"], a["status"]) for a in alarms["list"]] == [(2, "upper", "open")]
    assert ok(client.get(f"{S}/ColdStorage/detail/{sid}", headers=owner))["status"] == "alarm"
    assert len(ok(client.get(f"{S}/ColdStorage/energy?storageId={sid}", headers=owner))) == 12


def test_freezer_and_virtual_storage(client, owner, room, guids):
    add(client, owner, guids["th_b"][0], name="Logger 2")
    freezer_refused = client.post(
        f"{S}/Freezer/insert", json={"storageName": "F", "controllerGuid": room["guid"]}, headers=owner
    )
    assert freezer_refused.status_code == 422  # a cold-room controller is not a freezer monitor
    virtual = ok(
        client.post(
            f"{S}/VirtualStorage/insert",
            json={
                "storageName": "Warehouse 3",
                "probes": [
                    {"deviceId": room["logger"], "sensor": 1, "zone": "door"},
                    {"deviceId": room["controller"], "sensor": 2, "zone": "middle"},
                ],
            },
            headers=owner,
        )
    )
    assert virtual["kind"] == "virtual" and len(virtual["probes"]) == 2
    now = datetime.now(UTC)
    window = urlencode(
        {"storageId": virtual["id"], "start": (now - timedelta(hours=1)).isoformat(), "end": now.isoformat()}
    )
    chart = ok(client.get(f"{S}/VirtualStorage/chart?{window}", headers=owner))
    assert sorted(s["key"] for s in chart["series"]) == sorted([f"{room['logger']}-1", f"{room['controller']}-2"])
    # the same probe may belong to a cold storage too
    create(client, owner, room["guid"])
    # a virtual storage is not a cold storage
    assert client.get(f"{S}/ColdStorage/detail/{virtual['id']}", headers=owner).status_code == 404


def test_another_account_sees_nothing_and_changes_nothing(app, client, owner, stranger, room):
    storage = create(client, owner, room["guid"])
    sid = storage["id"]
    before = stored_rows(app)
    now = datetime.now(UTC)
    window = urlencode({"storageId": sid, "start": (now - timedelta(hours=1)).isoformat(), "end": now.isoformat()})
    for url in (
        f"{S}/ColdStorage/detail/{sid}",
        f"{S}/ColdStorage/overview?storageId={sid}",
        f"{S}/ColdStorage/chart?{window}",
        f"{S}/ColdStorage/params?storageId={sid}",
        f"{S}/ColdStorage/topUp?storageId={sid}",
        f"{S}/ColdStorage/energy?storageId={sid}",
        f"{S}/ColdStorage/pushSetting/get?storageId={sid}",
        f"{S}/CloudControl/list?storageId={sid}",
    ):
        assert client.get(url, headers=stranger).status_code == 404, url
    assert client.post(f"{S}/ColdStorage/alarmPage", json={"storageId": sid}, headers=stranger).status_code == 404
    assert client.put(f"{S}/ColdStorage/update", json=storage_body(storageId=sid), headers=stranger).status_code == 404
    assert client.delete(f"{S}/ColdStorage/delete/{sid}", headers=stranger).status_code == 404
    command = {"storageId": sid, "action": "setpoint", "value": -20}
    assert client.post(f"{S}/CloudControl/send", json=command, headers=stranger).status_code == 404
    assert ok(client.post(f"{S}/ColdStorage/page", json={}, headers=stranger))["total"] == 0
    assert stored_rows(app) == before


def refused(response) -> bool:
    return response.status_code == 403 or (response.get_json() or {}).get("code") == 4030


def test_a_shared_users_template_hides_probes_and_tabs(app, client, owner, room):
    storage = create(client, owner, room["guid"])
    sid = storage["id"]
    make_account(app, user_name="guard", email="guard@example.com")
    viewer = auth(login(client, "guard"))
    # the template shows probes 1 and 2 (keys 0001, 0002), the real-time and chart blocks; hides the rest
    items = [
        {"permissionCode": code, "viewStatus": 1, "setStatus": 0} for code in ("0001", "0002", "realtime", "chart")
    ]
    template = ok(
        client.post("/api/device/DevicePermissionTemplate/insert", json={"name": "T", "items": items}, headers=owner)
    )
    share = {
        "deviceIds": [room["controller"]],
        "email": "guard@example.com",
        "templateId": template["id"],
        "expire": "7d",
    }
    ok(client.post("/api/device/DeviceShare/insert", json={**share, "sharerName": "Owner"}, headers=owner))
    listed = ok(client.post(f"{S}/ColdStorage/page", json={}, headers=viewer))
    assert [s["id"] for s in listed["list"]] == [sid]
    seen = ok(client.get(f"{S}/ColdStorage/detail/{sid}", headers=viewer))
    assert sorted(p["sensor"] for p in seen["probes"]) == [1, 2]
    assert seen["blocks"] == ["realtime", "chart"] and not seen["writable"] and not seen["mine"]
    overview = ok(client.get(f"{S}/ColdStorage/overview?storageId={sid}", headers=viewer))
    assert sorted(p["sensor"] for p in overview["probes"]) == [1, 2]
    assert overview["setpoint"] is None and overview["compressor"] is None  # channels 10, 5 hidden
    # A hidden tab is a device-level refusal: body code 4030 (HTTP 200, the user stays signed in).
    for url in (f"{S}/ColdStorage/params?storageId={sid}", f"{S}/ColdStorage/pushSetting/get?storageId={sid}"):
        assert refused(client.get(url, headers=viewer)), url
    assert refused(client.post(f"{S}/ColdStorage/alarmPage", json={"storageId": sid}, headers=viewer))
    before = stored_rows(app)
    assert refused(client.put(f"{S}/ColdStorage/update", json=storage_body(storageId=sid), headers=viewer))
    command = {"storageId": sid, "action": "defrost"}
    assert refused(client.post(f"{S}/CloudControl/send", json=command, headers=viewer))
    assert stored_rows(app) == before


def test_the_gate_and_the_area_share_one_rule_and_one_load(app, client, owner, stranger, room):
    """Seeing a storage is decided once (services.visible_storage, which the gate loads through) and
    the object the gate admitted is the one the call uses: one query of the storage per call."""
    sid = create(client, owner, room["guid"])["id"]
    loads = []

    def count(conn, cursor, statement, *args):
        if "FROM cold_storage" in statement:
            loads.append(statement)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", count)
    try:
        ok(client.get(f"{S}/ColdStorage/detail/{sid}", headers=owner))
        assert len(loads) == 1, loads
        loads.clear()
        refused = client.get(f"{S}/ColdStorage/detail/{sid}", headers=stranger)
        assert refused.status_code == 404 and len(loads) == 1
    finally:
        event.remove(engine, "before_cursor_execute", count)


def test_probe_and_model_names_come_in_the_readers_language(client, owner, room):
    """Issue 47: a zh-CN page showed the controller's English probe and model names (the catalogue's
    English stored as the probe name): every catalogue name the storage pages show is translated."""
    storage = create(client, owner, room["guid"])
    sid = storage["id"]
    zh = {**owner, "Accept-Language": "zh-CN"}
    en = {**owner, "Accept-Language": "en-US"}
    answers = {
        lang: (
            ok(client.get(f"{S}/ColdStorage/overview?storageId={sid}", headers=headers)),
            ok(client.get(f"{S}/ColdStorage/detail/{sid}", headers=headers)),
            ok(
                client.get(
                    f"{S}/ColdStorage/chart?"
                    + urlencode(
                        {
                            "storageId": sid,
                            "start": (datetime.now(UTC) - timedelta(hours=1)).isoformat(),
                            "end": datetime.now(UTC).isoformat(),
                        }
                    ),
                    headers=headers,
                )
            ),
        )
        for lang, headers in (("zh", zh), ("en", en))
    }
    en_names = {p["probeName"] for p in answers["en"][0]["probes"]}
    zh_names = {p["probeName"] for p in answers["zh"][0]["probes"]}
    assert en_names and all(name.isascii() for name in en_names), en_names
    assert not any(name.isascii() for name in zh_names), zh_names
    zh_series = {s["probeName"] for s in answers["zh"][2]["series"]}
    assert zh_series and not any(name.isascii() for name in zh_series), zh_series
    zh_type = answers["zh"][1]["controller"].get("typeName")
    en_type = answers["en"][1]["controller"].get("typeName")
    assert zh_type != en_type, (zh_type, en_type)
