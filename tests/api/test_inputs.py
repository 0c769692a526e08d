"""Inputs that must not break a service (issue 15): JSON depth, out-of-range integers on every call
(PostgreSQL and SQLite), huge numbers in an upload, names with control and bidi characters."""

from __future__ import annotations

import json

import pytest
from flask_migrate import upgrade

from api import create_app
from api.device.guids import check_digit_ok, luhn_digit, well_formed
from api.extensions import jsonlimits
from api.extensions.db import db
from api.platform.services import sync_tenants
from api.settings import TestConfig
from tests.api.account_helpers import auth, login, make_account
from tests.api.device_helpers import DEVICE, add, guids, minutes_ago, owner, upload
from tests.conftest import ApiClient

__all__ = ["guids", "owner"]

HUGE = "9223372036854775808"  # 2**63: beyond every integer column
DEEP_ARRAY = "[" * 1000 + "]" * 1000
DEEP_OBJECT = '{"a":' * 1000 + "1" + "}" * 1000


def spec_operations(client):
    """(method, path with sample ids, operation) for every documented operation."""
    spec = client.get("/api/openapi.json").get_json()
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            if method in ("get", "post", "put", "delete", "patch"):
                concrete = path
                for parameter in operation.get("parameters", []) + item.get("parameters", []):
                    if parameter.get("in") == "path":
                        concrete = concrete.replace("{" + parameter["name"] + "}", "1")
                yield method, concrete, operation, spec


def json_body_schema(operation, spec) -> dict | None:
    content = (operation.get("requestBody") or {}).get("content", {})
    schema = content.get("application/json", {}).get("schema")
    if schema is None:
        return None
    while "$ref" in schema:
        schema = spec["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    return schema


def call(client, method, path, headers=None, **kwargs):
    return getattr(client.flask_client, method)(path, headers=client.headers(headers), **kwargs)


# ---- JSON depth ---------------------------------------------------------------------------------------


def test_the_limit_counts_containers_not_brackets_in_strings():
    assert jsonlimits.nesting_depth(json.loads('{"a": ["[[[[", {"b": "}}"}]}')) == 3
    assert jsonlimits.loads("[" * jsonlimits.MAX_JSON_DEPTH + "]" * jsonlimits.MAX_JSON_DEPTH)
    assert jsonlimits.loads('{"a": "' + "[" * 5000 + '"}') == {"a": "[" * 5000}
    for document in (DEEP_ARRAY, DEEP_OBJECT, b"[" * 100000):
        with pytest.raises(jsonlimits.JsonLimitError):
            jsonlimits.loads(document)
    with pytest.raises(ValueError):
        jsonlimits.loads(b"\xff\xfe{}")


def test_deeply_nested_json_is_a_localized_4xx_on_every_json_call_signed_in_or_not(app, make_client):
    make_account(app)
    zh = make_client(lang="zh-CN")
    signed_in = auth(login(zh))
    en = make_client(lang="en-US")
    swept = 0
    for method, path, operation, spec in spec_operations(zh):
        if json_body_schema(operation, spec) is None:
            continue
        for client, headers in ((zh, signed_in), (zh, None), (en, None)):
            for document in (DEEP_ARRAY, DEEP_OBJECT):
                response = call(client, method, path, headers, data=document, content_type="application/json")
                body = response.get_json()
                assert 400 <= response.status_code < 500, (method, path, response.status_code, body)
                assert body["code"] != 0 and body["msg"], (method, path, body)
        swept += 1
    assert swept > 40
    # the message itself, in both languages
    login_path = "/api/base/BaseAccount/login"
    zh_body = call(zh, "post", login_path, data=DEEP_ARRAY, content_type="application/json").get_json()
    en_body = call(en, "post", login_path, data=DEEP_ARRAY, content_type="application/json").get_json()
    assert en_body == {"code": 400, "msg": "The JSON body is nested too deeply or too large.", "data": None}
    assert zh_body["code"] == 400 and zh_body["msg"] != en_body["msg"] and not zh_body["msg"].isascii()
    bad = call(en, "post", login_path, data=b"\xff{", content_type="application/json").get_json()
    assert (bad["code"], bad["msg"]) == (400, "The request body is not valid JSON.")


# ---- integers beyond the database -----------------------------------------------------------------------


def integer_fields(operation, spec):
    """(location, name) of every integer query parameter and top-level integer body property."""
    for parameter in operation.get("parameters", []):
        if parameter.get("in") == "query" and parameter.get("schema", {}).get("type") == "integer":
            yield "query", parameter["name"]
    body = json_body_schema(operation, spec) or {}
    for name, prop in (body.get("properties") or {}).items():
        if prop.get("type") == "integer":
            yield "json", name


def test_out_of_range_integers_are_a_422_naming_the_field_on_every_call(app, client):
    make_account(app)
    signed_in = auth(login(client))
    swept = 0
    for method, path, operation, spec in spec_operations(client):
        for location, name in integer_fields(operation, spec):
            for value in (HUGE, "-" + HUGE, "1e20"):
                if location == "query":
                    if value == "1e20":
                        continue
                    response = call(client, method, f"{path}?{name}={value}", signed_in)
                else:
                    data = '{"%s": %s}' % (name, value)  # noqa: UP031 - the literal must stay unparsed
                    response = call(client, method, path, signed_in, data=data, content_type="application/json")
                body = response.get_json()
                assert response.status_code != 500, (method, path, name, value, body)
                if response.status_code == 422:
                    assert name in body["data"]["errors"], (method, path, name, body)
            swept += 1
    assert swept > 40


@pytest.mark.parametrize("when", ["0619-01-28T09:29:30Z", "1969-12-31T23:59:59Z", "3000-01-01T00:00:00Z"])
def test_times_outside_1970_to_2999_are_a_422_naming_the_field(client, owner, when):
    """An answer echoing year 619 in Asia/Shanghai would carry the zone's old offset +08:05:43, which is
    no RFC 3339 time (the fuzzer's finding on coupons): such times are refused on every schema."""
    body = {"deviceId": 1, "startTime": when, "endTime": "2026-01-02T00:00:00Z", "fileType": "csv"}
    messages = {"en-US": "Must be between 1970-01-01 and 2999-12-31.", "zh-CN": "须在 1970-01-01 到 2999-12-31 之间。"}
    for language, message in messages.items():
        answer = client.post("/api/report/ExportFile/export", json=body, headers={**owner, "Accept-Language": language})
        assert answer.status_code == 422, answer.get_json()
        assert answer.get_json()["data"]["errors"]["startTime"] == [message]


def test_the_integer_examples_of_the_issue(client, owner):
    deep = client.get(f"{DEVICE}/DeviceData/latest?deviceId={HUGE}", headers=owner)
    assert deep.status_code == 422 and "deviceId" in deep.get_json()["data"]["errors"]
    page = client.post(f"{DEVICE}/Device/page", data='{"start": 1e20}', content_type="application/json", headers=owner)
    assert page.status_code == 422 and list(page.get_json()["data"]["errors"]) == ["start"]


def test_out_of_range_integers_on_sqlite(tmp_path):
    app = create_app(
        TestConfig,
        {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'c.db'}", "REDIS_URL": "redis://127.0.0.1:1/0"},
    )
    with app.app_context():
        upgrade()
        sync_tenants()
    make_account(app)
    client = ApiClient(app, lang="en-US")
    headers = auth(login(client))
    for url in (f"{DEVICE}/DeviceData/latest?deviceId={HUGE}", f"{DEVICE}/Device/detail/{HUGE}"):
        response = client.get(url, headers=headers)
        assert response.status_code in (404, 422), (url, response.get_json())
    response = client.get(f"{DEVICE}/DeviceData/latest?deviceId={HUGE}", headers=headers)
    # The gate: no row has such an id.
    assert response.get_json()["data"]["errors"]["deviceId"] == ["Must be at most 2147483647."]
    page = client.post(
        f"{DEVICE}/Device/page", data='{"start": 1e20}', content_type="application/json", headers=headers
    )
    assert page.status_code == 422 and "start" in page.get_json()["data"]["errors"]
    with app.app_context():
        db.engine.dispose()


# ---- uploads: good records kept, bad ones refused with a reason -------------------------------------------


def test_a_huge_number_refuses_its_record_not_the_batch(client, owner, guids):
    guid, key = guids["th_a"]
    add(client, owner, guid)
    good = [{"ts": minutes_ago(m), "readings": {"1": 4.0, "2": 50}} for m in (1, 2)]
    huge_reading = '{"ts": %d, "readings": {"1": 1%s}}' % (minutes_ago(3), "0" * 400)  # noqa: UP031
    huge_battery = '{"ts": %d, "readings": {"1": 4}, "battery": 1e400}' % minutes_ago(4)  # noqa: UP031
    huge_location = '{"ts": %d, "readings": {"1": 4}, "location": {"lat": 1%s, "lng": 1}}' % (  # noqa: UP031
        minutes_ago(5),
        "0" * 400,
    )
    huge_ts = '{"ts": 1%s, "readings": {"1": 4}}' % ("0" * 400)
    records = ", ".join([json.dumps(good[0]), huge_reading, huge_battery, huge_location, huge_ts, json.dumps(good[1])])
    response = client.post(
        f"{DEVICE}/DeviceData/upload",
        data='{"guid": "%s", "records": [%s]}' % (guid, records),  # noqa: UP031
        content_type="application/json",
        headers={"X-Device-Id": guid, "X-Device-Key": key},
    )
    body = response.get_json()
    assert response.status_code == 200 and body["code"] == 0, body
    assert body["data"]["accepted"] == 4
    refused = {(r["index"], r["field"]) for r in body["data"]["rejected"]}
    assert refused == {(1, "readings.1"), (2, "battery"), (3, "location"), (4, "ts")}
    assert all(r["reason"] for r in body["data"]["rejected"])


def test_a_batch_refused_whole_says_so_with_a_non_zero_code(make_client, owner, guids):
    client = make_client(lang="en-US")
    guid, key = guids["th_a"]
    add(client, owner, guid)
    too_many = upload(client, guid, key, [{"ts": minutes_ago(1), "readings": {"1": 4}}] * 5001)
    body = too_many.get_json()
    assert too_many.status_code == 422 and body["code"] == 422
    assert body["msg"] == "The batch was refused: no record could be stored."
    assert body["data"]["accepted"] == 0 and body["data"]["rejected"][0]["field"] == "records"
    all_bad = upload(client, guid, key, [{"ts": minutes_ago(1), "readings": {"1": 1e300}}])
    assert all_bad.get_json()["code"] == 422
    assert all_bad.get_json()["data"]["rejected"][0]["field"] == "readings.1"


# ---- names and GUIDs ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("bad", ["Fri\x00dge", "Fri\x1bdge", "Fridge\u202egpj.exe", "Fr\u2066idge", "Fri\ndge"])
def test_names_refuse_nul_control_and_bidi_characters_in_every_area(make_client, owner, guids, bad):
    client = make_client(lang="en-US")
    device = client.post(
        f"{DEVICE}/Device/add",
        json={"deviceGuid": guids["th_a"][0], "deviceName": bad, "timeZone": "Asia/Shanghai"},
        headers=owner,
    )
    assert device.status_code == 422
    assert device.get_json()["data"]["errors"]["deviceName"] == [
        "Control characters and text-direction overrides are not allowed."
    ]
    project = client.post("/api/base/BaseProject/insert", json={"projectName": bad + "x"}, headers=owner)
    assert project.status_code == 422 and "projectName" in project.get_json()["data"]["errors"]


def test_a_device_name_marked_to_clear_symbols_drops_emoji_and_symbols(client, owner, guids):
    device_id = add(client, owner, guids["th_a"][0], name="冷库❄️🧊_01★")
    detail = client.get(f"{DEVICE}/Device/detail/{device_id}", headers=owner).get_json()["data"]
    assert detail["deviceName"] == "冷库_01"
    spec = client.get("/api/openapi.json").get_json()
    assert spec["components"]["schemas"]["DeviceAdd"]["properties"]["deviceName"]["x-clearSymbols"] is True


def test_new_guids_are_random_with_a_check_digit(guids):
    issued = [guid for guid, _key in guids.values()]
    assert all(well_formed(g) and check_digit_ok(g) and len(g) == 18 for g in issued)
    th_a, th_b = int(guids["th_a"][0]), int(guids["th_b"][0])
    assert abs(th_a - th_b) > 1000  # not neighbours, though issued one after the other
    assert luhn_digit("7992739871") == "3"  # the textbook Luhn example
    typo = issued[0][:-2] + str((int(issued[0][-2]) + 1) % 10) + issued[0][-1]
    assert not check_digit_ok(typo)
    assert not well_formed("١٢٣") and not well_formed("1" * 21) and well_formed("3277100000001")
