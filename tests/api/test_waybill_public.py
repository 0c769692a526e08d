"""The public side of waybills (issue 21): the quick lookup by a complete tracking number shows only
that waybill and refuses guessed or partial ids; share links expire on time (an injected clock),
ask for their PIN, can be revoked, and log every opening."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from api.extensions.i18n import local_text
from api.waybill import shares
from tests.api.waybill_helpers import ORIGIN, W, create, device, now, send, shipper, trackers

__all__ = ["shipper", "trackers"]

PUBLIC_KEYS = {
    "state",
    "startedAt",
    "completedAt",
    "elapsedSeconds",
    "distanceMeters",
    "position",
    "lastValue",
    "lastDataAt",
    "upperLimit",
    "lowerLimit",
    "track",
    "stops",  # where the truck stood still: part of the route the visitor sees
    "events",
    "alarms",
    "temperatures",
    "waybillNum",
    "trackingNumber",
}
SECRETS = ("13800138000", "13900139000", "Zhang San", "Li Wei", "qa@example.com", "Suzhou Pharmacy", "PO-2026-001")


def started_waybill(client, shipper, trackers) -> dict:
    device_id = device(client, shipper, trackers)
    send(client, trackers, "gt_a", now() - timedelta(minutes=3), position=ORIGIN)
    waybill = create(client, shipper, device_id, ignoreMinutes=0)
    client.put(f"{W}/Waybill/start/{waybill['id']}", json={}, headers=shipper)
    send(client, trackers, "gt_a", now(), temp=9.5, position=(ORIGIN[0] + 0.01, ORIGIN[1]))
    return waybill


def test_quick_lookup_shows_only_that_waybill_by_its_complete_number(client, make_client, shipper, trackers):
    waybill = started_waybill(client, shipper, trackers)
    visitor = make_client()
    for number in ("SF1234567890", "YT9876543210", waybill["waybillNum"]):
        answer = visitor.get(f"{W}/WaybillQuick/query?trackingNumber={number}").get_json()
        assert answer["code"] == 0, answer
        data = answer["data"]
        assert set(data) == PUBLIC_KEYS
        assert data["trackingNumber"] == number and data["state"] == "in_progress"
        assert data["temperatures"][-1][1] == 9.5 and data["alarms"][0]["kind"] == "upper"
        text = json.dumps(answer)
        assert not any(secret in text for secret in (*SECRETS, trackers["gt_a"][0]))
    for guess in ("SF123456789", "SF12345678901", "1234567890", "SF1234567890,YT9876543210", "%", "SF1234%", "____"):
        refused = visitor.get(f"{W}/WaybillQuick/query", query_string={"trackingNumber": guess})
        assert refused.status_code in (404, 422), guess
        assert refused.get_json()["code"] != 0
    other_site = make_client("junjia.localhost")
    assert other_site.get(f"{W}/WaybillQuick/query?trackingNumber=SF1234567890").status_code == 404
    # Issue 47: a number is found whatever its case and the spaces around it (as typed or pasted), and is
    # shown as the waybill stores it; still complete numbers only.
    typed = {
        "sf1234567890": "SF1234567890",
        "  Yt9876543210 ": "YT9876543210",
        "\tSF1234567890\n": "SF1234567890",
        f" {waybill['waybillNum'].lower()} ": waybill["waybillNum"],
    }
    for number, stored in typed.items():
        answer = visitor.get(f"{W}/WaybillQuick/query", query_string={"trackingNumber": number}).get_json()
        assert answer["code"] == 0, (number, answer)
        assert answer["data"]["trackingNumber"] == stored
    for guess in ("sf123456789", "  sf1234%  ", "      ", " SF1 "):
        refused = visitor.get(f"{W}/WaybillQuick/query", query_string={"trackingNumber": guess})
        assert refused.status_code in (404, 422) and refused.get_json()["code"] != 0, guess


def test_share_links_expire_on_time_ask_for_their_pin_and_can_be_revoked(
    client, make_client, shipper, trackers, monkeypatch
):
    waybill = started_waybill(client, shipper, trackers)
    created = client.post(
        f"{W}/WaybillShare/insert", json={"waybillId": waybill["id"], "expire": "8h", "pin": "2468"}, headers=shipper
    ).get_json()
    assert created["code"] == 0, created
    token = created["data"]["token"]
    assert created["data"]["path"] == f"/share/waybill/{token}"
    visitor = make_client(lang="en-US")

    def open_link(pin=None):
        return visitor.post(f"{W}/WaybillShare/view", json={"token": token, "pin": pin})

    asked = open_link()
    assert asked.status_code == 403 and asked.get_json()["data"] == {"needPin": True}
    assert open_link("1357").get_json()["msg"] == "The PIN is not correct."
    shown = open_link("2468").get_json()
    # Issue 47: the page said "Link valid until -": the answer's schema dropped the expiry.
    assert shown["code"] == 0 and set(shown["data"]) == PUBLIC_KEYS | {"expiresAt", "expiresAtText", "timeZone"}
    assert datetime.fromisoformat(shown["data"]["expiresAt"]) == datetime.fromisoformat(created["data"]["expiresAt"])
    expected = local_text(
        datetime.fromisoformat(created["data"]["expiresAt"]), ZoneInfo("Asia/Shanghai"), seconds=False
    )
    assert shown["data"]["expiresAtText"] == expected and shown["data"]["timeZone"] == "Asia/Shanghai"
    assert not any(secret in json.dumps(shown) for secret in SECRETS)

    real = shares.utcnow
    monkeypatch.setattr(shares, "utcnow", lambda: real() + timedelta(hours=7, minutes=59))
    assert open_link("2468").status_code == 200
    monkeypatch.setattr(shares, "utcnow", lambda: real() + timedelta(hours=8, seconds=1))
    expired = open_link("2468")
    assert expired.status_code == 410 and expired.get_json()["msg"] == "This link has expired."
    monkeypatch.undo()

    listed = client.get(f"{W}/WaybillShare/list?waybillId={waybill['id']}", headers=shipper).get_json()["data"]
    assert listed[0]["status"] == "active" and listed[0]["accessCount"] == 5 and listed[0]["hasPin"] is True
    share_id = listed[0]["id"]
    assert client.put(f"{W}/WaybillShare/revoke/{share_id}", headers=shipper).get_json()["data"]["status"] == "revoked"
    revoked = open_link("2468")
    assert revoked.status_code == 410 and revoked.get_json()["msg"] == "This link has been revoked by its owner."
    log = client.get(f"{W}/WaybillShare/accessLog?shareId={share_id}", headers=shipper).get_json()["data"]
    assert [entry["outcome"] for entry in log] == ["revoked", "expired", "shown", "shown", "pin", "pin"]
    assert all(entry["at"] and entry["ip"] for entry in log)
    assert visitor.post(f"{W}/WaybillShare/view", json={"token": token[:-1] + "A" * 1}).status_code in (404, 410)


def test_custom_expiry_and_the_expiry_choices(client, shipper, trackers):
    waybill = started_waybill(client, shipper, trackers)
    for choice, hours in (("8h", 8), ("1d", 24), ("3d", 72), ("7d", 168)):
        data = client.post(
            f"{W}/WaybillShare/insert", json={"waybillId": waybill["id"], "expire": choice}, headers=shipper
        ).get_json()["data"]
        assert data["hasPin"] is False and data["expiresAt"]
        assert shares.EXPIRY[choice] == timedelta(hours=hours)
    missing = client.post(
        f"{W}/WaybillShare/insert", json={"waybillId": waybill["id"], "expire": "custom"}, headers=shipper
    ).get_json()
    assert missing["code"] == 422 and "expireAt" in missing["data"]["errors"]
    past = (now() - timedelta(hours=1)).isoformat()
    refused = client.post(
        f"{W}/WaybillShare/insert",
        json={"waybillId": waybill["id"], "expire": "custom", "expireAt": past},
        headers=shipper,
    ).get_json()
    assert refused["code"] == 422
    later = (now() + timedelta(hours=30)).isoformat()
    ok = client.post(
        f"{W}/WaybillShare/insert",
        json={"waybillId": waybill["id"], "expire": "custom", "expireAt": later},
        headers=shipper,
    ).get_json()
    assert ok["code"] == 0
