"""Device list totals: kept a few seconds per viewer and filter (api/device/totals.py), never
across accounts or sites, and a device write shows in the next total at once."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest

from api.device import totals
from api.device.models import DeviceState
from api.extensions.db import db, utcnow
from tests.api.account_helpers import auth, login, make_account
from tests.api.device_helpers import DEVICE, add, guids, minutes_ago, owner, stranger, upload

__all__ = ["guids", "owner", "stranger"]


def total(client, headers, **filters) -> int:
    body = client.post(f"{DEVICE}/Device/page", json={"start": 1, "pageSize": 10, **filters}, headers=headers)
    return body.get_json()["data"]["total"]


def rows(client, headers, **filters) -> list[str]:
    body = client.post(f"{DEVICE}/Device/page", json={"start": 1, "pageSize": 10, **filters}, headers=headers)
    return [item["deviceName"] for item in body.get_json()["data"]["list"]]


@pytest.fixture
def two_online(client, owner, guids):
    ids = [add(client, owner, guids[name][0], name=name) for name in ("th_a", "th_b")]
    for name in ("th_a", "th_b"):
        upload(client, *guids[name], [{"ts": minutes_ago(1), "readings": {"1": 4.0, "2": 50}}])
    return ids


def go_offline(app, device_id: int) -> None:
    """A latest-state change, as the clock makes it: no device row is written."""
    with app.app_context():
        db.session.get(DeviceState, device_id).offline_at = utcnow() - timedelta(minutes=1)
        db.session.commit()


def test_registry_writes_show_in_the_next_total_at_once(client, owner, guids, two_online):
    first, second = two_online
    assert total(client, owner, status="online") == 2
    assert client.put(f"{DEVICE}/Device/stopUsing/{first}", headers=owner).get_json()["code"] == 0
    assert total(client, owner, status="online") == 1
    assert total(client, owner, status="disabled") == 1
    assert total(client, owner) == 2
    assert client.delete(f"{DEVICE}/Device/delete/{second}", headers=owner).get_json()["code"] == 0
    assert total(client, owner) == 1
    add(client, owner, guids["cold_room"][0], name="cold_room")
    assert total(client, owner) == 2


def test_latest_state_changes_show_once_the_kept_total_expires(app, client, owner, two_online, monkeypatch):
    monkeypatch.setattr(totals, "TOTAL_SECONDS", 1)
    assert total(client, owner, status="online") == 2
    go_offline(app, two_online[0])
    # The rows are read fresh; the total is the one kept a moment ago.
    assert rows(client, owner, status="online") == ["th_b"]
    assert total(client, owner, status="online") == 2
    time.sleep(1.2)
    assert total(client, owner, status="online") == 1


def test_without_redis_every_page_counts(app, client, owner, two_online, monkeypatch):
    monkeypatch.setattr(totals, "_redis", lambda: None)
    assert total(client, owner, status="online") == 2
    go_offline(app, two_online[0])
    assert total(client, owner, status="online") == 1


def test_totals_are_kept_per_account_and_site(app, client, make_client, owner, stranger, guids, two_online):
    assert total(client, owner) == 2
    assert total(client, stranger) == 0
    add(client, stranger, guids["cold_room"][0], name="theirs")
    assert total(client, stranger) == 1
    assert total(client, owner) == 2
    make_account(app, host="junjia.localhost", user_name="junjia_owner")
    junjia = make_client(host="junjia.localhost")
    junjia_owner = auth(login(junjia, "junjia_owner"))
    assert total(junjia, junjia_owner) == 0
    add(junjia, junjia_owner, guids["junjia_th"][0], name="junjia")
    assert total(junjia, junjia_owner) == 1
    assert total(client, owner) == 2


def test_filters_are_part_of_the_key(client, owner, two_online):
    assert total(client, owner, status="online") == 2
    assert total(client, owner, status="offline") == 0
    assert total(client, owner, deviceName="th_a") == 1
    assert total(client, owner, deviceName="th_") == 2
    assert total(client, owner, category="cold_storage") == 0
