"""Series, firmware versions and the rules of an upgrade (business-domain sections 3 and 5): every
limit as a table, each refusal localized and naming its field, nothing stored on bad input."""

from __future__ import annotations

import hashlib
import json

import pytest

from api.extensions.field_rules import RULES_DIR, field_rules
from api.extensions.smorest import ApiError
from api.extensions.uploads import MB
from api.product.rollouts import check_stages, group_sizes
from tests.api.alarm.helpers import record
from tests.api.device_helpers import add
from tests.api.device_helpers import upload as send_readings
from tests.api.product_helpers import PRODUCT, new_type
from tests.api.upgrade_helpers import (
    CS4,
    FIRMWARE,
    IMAGE,
    ROLLOUT,
    SERIES,
    detail,
    device_headers,
    issue,
    new_firmware,
    pending_upgrade,
    people,
    rollout,
    stored_counts,
    type_id,
    upload,
)

__all__ = ["people"]
CAP = field_rules()["upgrade"]["firmwareMaxMB"] * MB
# The cases vitest runs on the web's copy of these rules too (web/src/components/product/upgrade.test.ts).
CASES = json.loads((RULES_DIR / "cases.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", CASES["upgradeGroups"], ids=lambda c: f"{c['count']}-{c['stages']}")
def test_a_staged_rollout_cuts_its_groups_as_the_web_previews_them(case):
    assert group_sizes(case["count"], case["stages"]) == case["sizes"]


@pytest.mark.parametrize("case", CASES["upgradeStages"], ids=lambda c: str(c["stages"]))
def test_groups_are_rising_percentages_ending_at_100(app, case):
    with app.test_request_context():
        try:
            check_stages(case["stages"])
            valid = True
        except ApiError as exc:
            assert "stages" in exc.data["errors"]
            valid = False
    assert valid == case["valid"]


def chinese(answer: dict, field: str) -> bool:
    text = answer["msg"] + " ".join(str(m) for m in answer.get("data", {}).get("errors", {}).get(field, []))
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


# ---- series ------------------------------------------------------------------------------------------------

BAD_SERIES = [("seriesName", ""), ("seriesName", "   "), ("seriesName", "S" * 51), ("seriesName", None)]


@pytest.mark.parametrize(("field", "value"), BAD_SERIES)
def test_bad_series_names_the_field_in_the_callers_language_and_stores_nothing(app, people, make_client, field, value):
    (operator, op), _, _ = people
    before = stored_counts(app)
    answer = operator.post(f"{SERIES}/insert", headers=op, json={field: value})
    assert answer.status_code == 422 and field in answer.get_json()["data"]["errors"], answer.get_json()
    zh = make_client(lang="zh-CN").post(f"{SERIES}/insert", headers=op, json={field: value}).get_json()
    assert chinese(zh, field), zh
    assert stored_counts(app) == before


def test_series_unique_renamed_with_its_types_and_kept_while_used(app, people):
    (operator, op), _, _ = people
    longest = operator.post(f"{SERIES}/insert", headers=op, json={"seriesName": "S" * 50})
    assert longest.status_code == 200, longest.get_json()
    created = operator.post(f"{SERIES}/insert", headers=op, json={"seriesName": "VX"}).get_json()["data"]
    again = operator.post(f"{SERIES}/insert", headers=op, json={"seriesName": "VX"})
    assert again.status_code == 422 and "seriesName" in again.get_json()["data"]["errors"]
    # A type names a series of the list, and only one of the list.
    unknown = operator.post(f"{PRODUCT}/DeviceType/insert", headers=op, json=new_type(typeSeries="NOPE"))
    assert unknown.status_code == 422 and "typeSeries" in unknown.get_json()["data"]["errors"]
    device_type = operator.post(f"{PRODUCT}/DeviceType/insert", headers=op, json=new_type(typeSeries="VX"))
    assert device_type.status_code == 200, device_type.get_json()
    renamed = operator.put(f"{SERIES}/update", headers=op, json={"id": created["id"], "seriesName": "VY"})
    assert renamed.status_code == 200, renamed.get_json()
    page = operator.post(f"{PRODUCT}/DeviceType/page", headers=op, json={"keyword": "XT-9"}).get_json()["data"]
    assert page["list"][0]["typeSeries"] == "VY"
    listed = operator.post(f"{SERIES}/page", headers=op, json={"keyword": "vy"}).get_json()["data"]["list"]
    assert [(s["seriesName"], s["typeCount"]) for s in listed] == [("VY", 1)]
    assert operator.delete(f"{SERIES}/delete/{created['id']}", headers=op).status_code == 409
    options = operator.get(f"{SERIES}/list", headers=op).get_json()["data"]
    assert "VY" in [s["seriesName"] for s in options]


# ---- firmware ----------------------------------------------------------------------------------------------

BAD_FIRMWARE = [
    ("latestVersionValue", {"latestVersionValue": ""}, IMAGE, 422),
    ("latestVersionValue", {"latestVersionValue": "1" * 51}, IMAGE, 422),
    ("latestVersionLabel", {"latestVersionLabel": "L" * 51}, IMAGE, 422),
    ("latestVersionLabel", {"latestVersionLabel": None}, IMAGE, 422),
    ("versionDescrip", {"versionDescrip": "d" * 501}, IMAGE, 422),
    ("deviceTypeId", {"deviceTypeId": 999999}, IMAGE, 422),
    ("upgradeMultipartFile", {}, b"x" * (CAP + 1), 413),  # one byte over the cap
    ("upgradeMultipartFile", {}, b"", 415),
]


@pytest.mark.parametrize(("field", "fields", "content", "status"), BAD_FIRMWARE)
def test_bad_firmware_names_the_field_and_stores_nothing(app, people, make_client, field, fields, content, status):
    (operator, op), _, _ = people
    th2 = type_id(app)
    before = stored_counts(app)
    answer = upload(operator, op, th2, content, **fields)
    assert answer.status_code == status, answer.get_json()
    assert field in answer.get_json()["data"]["errors"], answer.get_json()
    zh = upload(make_client(lang="zh-CN"), op, th2, content, **fields).get_json()
    assert chinese(zh, field), zh
    assert stored_counts(app) == before


def test_firmware_up_to_the_cap_is_stored_with_its_checksum_once_per_version(app, people):
    (operator, op), _, _ = people
    th2 = type_id(app)
    content = b"\x01" * CAP  # exactly the cap
    answer = upload(operator, op, th2, content, versionDescrip="d" * 500, latestVersionValue="9" * 50)
    assert answer.status_code == 200, answer.get_json()
    firmware = answer.get_json()["data"]
    assert firmware["sha256"] == hashlib.sha256(content).hexdigest() and firmware["fileSize"] == CAP
    assert firmware["deviceTypeId"] == th2 and firmware["fileName"] == "fw.bin"
    before = stored_counts(app)
    again = upload(operator, op, th2, IMAGE, latestVersionValue="9" * 50)
    assert again.status_code == 422 and "latestVersionValue" in again.get_json()["data"]["errors"]
    assert stored_counts(app) == before
    page = operator.post(f"{FIRMWARE}/page", headers=op, json={"deviceTypeId": th2}).get_json()["data"]
    assert [f["id"] for f in page["list"]] == [firmware["id"]]


# ---- issuing an upgrade ------------------------------------------------------------------------------------------


def bad_rollouts(th2_device: int, cs4_device: int) -> list[tuple[str, dict]]:
    return [
        ("deviceIds", {"deviceIds": [cs4_device]}),  # another model's device
        ("deviceIds", {"deviceIds": [th2_device, cs4_device]}),
        ("deviceIds", {"deviceIds": []}),
        ("deviceIds", {"deviceIds": [987654]}),
        ("stages", {"deviceIds": [th2_device], "stages": [50, 25, 100]}),
        ("stages", {"deviceIds": [th2_device], "stages": [5, 25]}),
        ("stages", {"deviceIds": [th2_device], "stages": [0, 100]}),
        ("stages", {"deviceIds": [th2_device], "stages": [1, 2, 3, 4, 5, 100]}),
        ("failureThreshold", {"deviceIds": [th2_device], "failureThreshold": 101}),
        ("ratePerMinute", {"deviceIds": [th2_device], "ratePerMinute": 0}),
        ("firmwareId", {"deviceIds": [th2_device], "firmwareId": 987654}),
    ]


def test_only_firmware_of_the_devices_own_model_is_sent_and_bad_rollouts_store_nothing(app, people, make_client):
    (operator, op), _, _ = people
    firmware = new_firmware(operator, op, type_id(app))
    [(th2_device, _, _)] = issue(app, 1)
    [(cs4_device, _, _)] = issue(app, 1, CS4)
    for field, body in bad_rollouts(th2_device, cs4_device):
        before = stored_counts(app)
        payload = {"firmwareId": firmware["id"], **body}
        answer = operator.post(f"{ROLLOUT}/insert", headers=op, json=payload)
        assert answer.status_code == 422 and field in answer.get_json()["data"]["errors"], (field, answer.get_json())
        zh = make_client(lang="zh-CN").post(f"{ROLLOUT}/insert", headers=op, json=payload).get_json()
        assert chinese(zh, field), zh
        assert stored_counts(app) == before, field
    wrong = operator.post(
        f"{ROLLOUT}/insert", headers=op, json={"firmwareId": firmware["id"], "deviceIds": [cs4_device]}
    )
    assert "own model" in wrong.get_json()["data"]["errors"]["deviceIds"][0]
    # A model without online upgrade takes no firmware at all.
    cs4_firmware = new_firmware(operator, op, type_id(app, CS4))
    answer = operator.post(
        f"{ROLLOUT}/insert", headers=op, json={"firmwareId": cs4_firmware["id"], "deviceIds": [cs4_device]}
    )
    assert answer.status_code == 422 and "firmwareId" in answer.get_json()["data"]["errors"]


def test_a_device_downloads_only_the_firmware_it_is_sent_and_a_used_version_stays(app, people, client):
    (operator, op), _, _ = people
    firmware = new_firmware(operator, op, type_id(app))
    (one, guid, key), (_, other_guid, other_key) = issue(app, 2)
    issued = rollout(operator, op, firmware["id"], [one])
    assert issued["counts"]["queued"] == 1 and issued["timeoutMinutes"] == 10
    command = pending_upgrade(client, guid, key)
    assert command["params"]["firmware"]["version"] == "2.0.0"
    assert command["params"]["firmware"]["sha256"] == firmware["sha256"]
    url = command["params"]["firmware"]["url"]
    downloaded = client.get(url, headers=device_headers(guid, key))
    assert downloaded.status_code == 200 and downloaded.data == IMAGE
    assert client.get(url, headers=device_headers(other_guid, other_key)).get_json()["code"] == 404
    assert client.get(url, headers=device_headers(guid, "wrong")).get_json()["code"] == 401
    # The same device cannot be in two upgrades at once.
    busy = operator.post(f"{ROLLOUT}/insert", headers=op, json={"firmwareId": firmware["id"], "deviceIds": [one]})
    assert busy.status_code == 422 and "deviceIds" in busy.get_json()["data"]["errors"]
    assert operator.delete(f"{FIRMWARE}/delete/{firmware['id']}", headers=op).status_code == 409
    cancelled = operator.put(f"{ROLLOUT}/cancel/{issued['id']}", headers=op).get_json()["data"]
    assert cancelled["status"] == "cancelled" and cancelled["counts"]["failed"] == 1
    assert pending_upgrade(client, guid, key) is None  # the command is withdrawn
    assert operator.delete(f"{FIRMWARE}/delete/{firmware['id']}", headers=op).status_code == 200


def test_only_the_operator_reaches_series_versions_and_upgrades(app, people):
    (operator, op), (reseller, rs), (user, us) = people
    firmware = new_firmware(operator, op, type_id(app))
    for client, headers in ((reseller, rs), (user, us)):
        before = stored_counts(app)
        assert client.post(f"{SERIES}/page", headers=headers, json={}).status_code == 403
        assert client.post(f"{SERIES}/insert", headers=headers, json={"seriesName": "Z"}).status_code == 403
        assert client.post(f"{FIRMWARE}/page", headers=headers, json={}).status_code == 403
        assert upload(client, headers, type_id(app), latestVersionValue="3.0").status_code == 403
        body = {"firmwareId": firmware["id"], "allDevices": True}
        assert client.post(f"{ROLLOUT}/insert", headers=headers, json=body).status_code == 403
        assert client.delete(f"{FIRMWARE}/delete/{firmware['id']}", headers=headers).status_code == 403
        assert stored_counts(app) == before


def test_every_device_of_the_model_means_devices_in_the_field_not_unused_guids(app, people, client):
    """Issue 47: a rollout to every device of the model included GUIDs nobody added that never reported."""

    (operator, op), _, (user, us) = people
    firmware = new_firmware(operator, op, type_id(app))
    (claimed, claimed_guid, _), (reported, reported_guid, reported_key), (carton, _, _) = issue(app, 3)
    assert add(user, us, claimed_guid) == claimed
    assert send_readings(client, reported_guid, reported_key, [record(1, 4.0)]).status_code == 200
    answer = operator.post(f"{ROLLOUT}/insert", headers=op, json={"firmwareId": firmware["id"], "allDevices": True})
    assert answer.status_code == 200, answer.get_json()
    targets = {t["deviceId"] for t in detail(operator, op, answer.get_json()["data"]["id"])["targets"]}
    assert claimed in targets and reported in targets and carton not in targets
