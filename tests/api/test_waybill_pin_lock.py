"""A share link's PIN locks per LINK (issue 44: the limit was per address only, so after 30 wrong PINs
the right one worked at once from another address): 10 wrong PINs in a row, from any addresses, lock
the link for 15 minutes, during which even the right PIN is refused from every address; the owner
sees the wrong tries, the last one and the lock. Time moves on through an injected clock."""

from __future__ import annotations

from datetime import timedelta

import pytest

from api.extensions.db import utcnow
from api.waybill import shares
from tests.api.test_waybill_public import started_waybill
from tests.api.waybill_helpers import W, shipper, trackers

__all__ = ["shipper", "trackers"]

PIN, WRONG = "2468", "1357"


class Clock:
    def __init__(self):
        self.now = utcnow()

    def __call__(self):
        return self.now

    def advance(self, **delta) -> None:
        self.now += timedelta(**delta)


@pytest.fixture
def clock(monkeypatch) -> Clock:
    clock = Clock()
    monkeypatch.setattr(shares, "clock", clock)
    return clock


@pytest.fixture
def link(client, shipper, trackers) -> dict:
    waybill = started_waybill(client, shipper, trackers)
    created = client.post(
        f"{W}/WaybillShare/insert", json={"waybillId": waybill["id"], "expire": "1d", "pin": PIN}, headers=shipper
    ).get_json()
    assert created["code"] == 0, created
    return {"waybill": waybill["id"], "token": created["data"]["token"], "id": created["data"]["id"]}


class Visitors:
    """Each call from a new address (so no per-address limit ever applies)."""

    def __init__(self, make_client, lang="en-US"):
        self.client, self.count = make_client(lang=lang), 0

    def open(self, token: str, pin: str | None):
        self.count += 1
        address = f"203.0.113.{self.count}"
        return self.client.post(
            f"{W}/WaybillShare/view", json={"token": token, "pin": pin}, environ_base={"REMOTE_ADDR": address}
        )


def listed(client, shipper, link) -> dict:
    rows = client.get(f"{W}/WaybillShare/list?waybillId={link['waybill']}", headers=shipper).get_json()["data"]
    return next(row for row in rows if row["id"] == link["id"])


def test_ten_wrong_pins_from_ten_addresses_lock_the_link_for_fifteen_minutes(client, make_client, shipper, link, clock):
    visitors = Visitors(make_client)
    for _ in range(shares.PIN_MAX_TRIES - 1):
        wrong = visitors.open(link["token"], WRONG)
        assert wrong.status_code == 403 and wrong.get_json()["msg"] == "The PIN is not correct."
    locking = visitors.open(link["token"], WRONG)
    body = locking.get_json()
    assert locking.status_code == 429 and body["code"] == shares.PIN_LOCKED_CODE, body
    assert body["msg"] == "Too many wrong PINs: this link is locked, try again in 15 minutes."

    # The right PIN, from an address that never tried, is refused while the lock lasts.
    clock.advance(minutes=14, seconds=59)
    refused = visitors.open(link["token"], PIN)
    assert refused.status_code == 429 and refused.get_json()["msg"].endswith("try again in 1 minutes.")
    row = listed(client, shipper, link)
    assert row["pinFailures"] == 10 and row["pinLastFailedAt"] and row["pinLockedUntil"], row

    clock.advance(seconds=2)
    shown = visitors.open(link["token"], PIN)
    assert shown.status_code == 200 and shown.get_json()["code"] == 0
    row = listed(client, shipper, link)
    assert row["pinFailures"] == 10 and row["pinLockedUntil"] is None, row  # the owner still sees the tries

    log = client.get(f"{W}/WaybillShare/accessLog?shareId={link['id']}", headers=shipper).get_json()["data"]
    assert [entry["outcome"] for entry in log] == ["shown", "locked", "locked"] + ["pin"] * 9


def test_a_passed_lock_or_the_right_pin_starts_a_new_run_of_tries(client, make_client, shipper, link, clock):
    visitors = Visitors(make_client)
    for _ in range(shares.PIN_MAX_TRIES):
        visitors.open(link["token"], WRONG)
    clock.advance(minutes=15, seconds=1)
    # After the lock: one wrong PIN is one try of a new run, not a new lock.
    assert visitors.open(link["token"], WRONG).status_code == 403
    assert visitors.open(link["token"], PIN).status_code == 200
    # The right PIN clears the run: nine wrong, the right one, nine wrong again: never locked.
    for _ in range(2):
        for _ in range(shares.PIN_MAX_TRIES - 1):
            assert visitors.open(link["token"], WRONG).status_code == 403
        assert visitors.open(link["token"], PIN).status_code == 200
    row = listed(client, shipper, link)
    assert row["pinFailures"] == 10 + 1 + 18 and row["pinLockedUntil"] is None


def test_the_lock_is_per_link_and_no_pin_is_no_try(client, make_client, shipper, link, clock):
    other = client.post(
        f"{W}/WaybillShare/insert", json={"waybillId": link["waybill"], "expire": "1d", "pin": PIN}, headers=shipper
    ).get_json()["data"]
    visitors = Visitors(make_client, lang="zh-CN")
    for _ in range(20):
        assert visitors.open(link["token"], None).status_code == 403  # asked for the PIN: not a try
    assert listed(client, shipper, link)["pinFailures"] == 0
    for _ in range(shares.PIN_MAX_TRIES):
        answer = visitors.open(link["token"], WRONG)
    assert answer.get_json()["msg"] == "PIN 错误次数过多，链接已锁定，请 15 分钟后再试。"
    assert visitors.open(other["token"], PIN).status_code == 200  # another link of the same waybill
    assert visitors.open(link["token"], PIN).status_code == 429


def test_concurrent_wrong_pins_are_all_counted(app, client, shipper, link):
    """20 wrong PINs at once from 20 addresses (threads over the api, PostgreSQL): the link's row is
    locked while each try is counted, so exactly 9 are told 'wrong', the 10th locks the link and the
    rest are refused by the lock; no try is lost and none answers 500."""
    from concurrent.futures import ThreadPoolExecutor
    from threading import Barrier

    barrier = Barrier(20)

    def guess(number: int) -> int:
        visitor = app.test_client()
        barrier.wait()
        answer = visitor.post(
            f"{W}/WaybillShare/view",
            json={"token": link["token"], "pin": WRONG},
            headers={"Host": "localhost"},
            environ_base={"REMOTE_ADDR": f"198.51.100.{number + 1}"},
        )
        return answer.status_code

    with ThreadPoolExecutor(max_workers=20) as pool:
        statuses = sorted(pool.map(guess, range(20)))
    assert statuses == [403] * 9 + [429] * 11, statuses
    row = listed(client, shipper, link)
    assert row["pinFailures"] == 10 and row["pinLockedUntil"], row
