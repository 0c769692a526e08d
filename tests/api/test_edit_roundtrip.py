"""Issue 47: every edit form sent back unchanged succeeds. A record as its read call answers it, reduced to
the fields of its update call's request schema (what web/src/lib/requestBody.ts does with the same
document), is accepted by that call: no read-only field leaks into the body ("Unknown field"), and every
value the read call shows is one the update accepts (phones, colours, numbers, times). Each row of
ROUND_TRIPS is (the record's read call, the update call); other areas add theirs here (the browser twin
is tests/e2e/specs/edit-forms.test.mjs)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from tests.api.waybill_helpers import ORIGIN, W, create, destination_polygon, device, now, send, shipper, trackers

__all__ = ["shipper", "trackers"]


def request_fields(client, path: str, method: str) -> list[str]:
    document = client.get("/api/openapi.json").get_json()
    schema = document["paths"][path][method]["requestBody"]["content"]["application/json"]["schema"]
    name = schema["$ref"].split("/")[-1]
    return list(document["components"]["schemas"][name]["properties"])


def _waybill_records(client, headers, trackers):
    device_id = device(client, headers, trackers)
    send(client, trackers, "gt_a", now() - timedelta(minutes=1))
    origin = client.post(
        f"{W}/Fence/insert",
        json={"name": "Depot", "shape": "circle", "center": list(ORIGIN), "radius": 500},
        headers=headers,
    ).get_json()["data"]
    destination = client.post(
        f"{W}/Fence/insert",
        json={"name": "Pharmacy", "shape": "polygon", "points": destination_polygon(), "alarmEnter": True},
        headers=headers,
    ).get_json()["data"]
    plain = create(client, headers, device_id)
    timed = create(
        client,
        headers,
        device_id,
        originFenceId=origin["id"],
        destinationFenceId=destination["id"],
        startMode="time",
        startAt=(now() + timedelta(hours=1)).isoformat(),
        stopMode="fence",
        alarmEmail=None,
    )
    running = create(client, headers, device_id, ignoreMinutes=0)
    client.put(f"{W}/Waybill/start/{running['id']}", json={"confirm": True}, headers=headers)
    client.post(
        f"{W}/TrackTemplate/insert",
        json={"name": "Night", "lineColor": "#00aa00", "lineWidth": 4, "stopMinutes": 20, "isDefault": True},
        headers=headers,
    )
    client.post(  # a stability profile with bands on both sides of its range, open-ended and not
        "/api/budget/StabilityProfile/insert",
        json={
            "name": "Vaccine 2-8",
            "rangeLow": 2,
            "rangeHigh": 8,
            "bands": [{"low": 8, "high": 25, "hours": 72}, {"low": None, "high": 0, "hours": 0}],
            "mktLimit": None,
            "alertPercent": 80,
        },
        headers=headers,
    )
    return [plain["id"], timed["id"], running["id"]]


# (what is read: a function (client, headers, ids) -> records, the update call's path, method)
ROUND_TRIPS = [
    (
        "waybill",
        lambda client, headers, ids: [
            client.get(f"{W}/Waybill/detail/{i}", headers=headers).get_json()["data"] for i in ids
        ],
        f"{W}/Waybill/update",
        "put",
    ),
    (
        "fence",
        lambda client, headers, ids: client.post(f"{W}/Fence/page", json={}, headers=headers).get_json()["data"][
            "list"
        ],
        f"{W}/Fence/update",
        "put",
    ),
    (
        "track template",
        lambda client, headers, ids: client.get(f"{W}/TrackTemplate/list", headers=headers).get_json()["data"],
        f"{W}/TrackTemplate/update",
        "put",
    ),
    (
        "stability profile",
        lambda client, headers, ids: client.post(
            "/api/budget/StabilityProfile/page", json={}, headers=headers
        ).get_json()["data"]["list"],
        "/api/budget/StabilityProfile/update",
        "put",
    ),
]


@pytest.mark.parametrize(("name", "read", "path", "method"), ROUND_TRIPS, ids=[row[0] for row in ROUND_TRIPS])
def test_a_record_sent_back_unchanged_is_accepted(client, shipper, trackers, name, read, path, method):
    ids = _waybill_records(client, shipper, trackers)
    records = read(client, shipper, ids)
    assert records, name
    fields = request_fields(client, path, method)
    for record in records:
        body = {field: record[field] for field in fields if field in record}
        answer = getattr(client, method)(path, json=body, headers=shipper).get_json()
        assert answer["code"] == 0, (name, body, answer)
        again = read(client, shipper, ids)
        before = {k: v for k, v in record.items() if k not in ("gmtModified", "online")}
        after = next(r for r in again if r["id"] == record["id"])
        assert {k: after[k] for k in before} == before, name  # nothing changed by saving it unchanged
