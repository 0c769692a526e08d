from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, update

from api.device.catalogue import sync_catalogue
from api.device.models import Device
from api.device.services import issue_guids
from api.extensions.db import db, utcnow
from api.telemetry.models import Reading, ReadingHourly
from api.tenancy import find_platform
from tests.api.account_helpers import auth, login, make_account

DEVICE = "/api/device"


@pytest.fixture
def guids(app):
    """Issue GUIDs: {name: (guid, key)} — two TH-2 loggers and a cold-room controller on the default
    platform, one TH-2 on the junjia platform."""
    with app.app_context():
        types = sync_catalogue()
        db.session.commit()
        default, junjia = find_platform("localhost"), find_platform("junjia.localhost")
        issued = {
            "th_a": issue_guids(default, types[0x8002], 1, "T1")[0],
            "th_b": issue_guids(default, types[0x8002], 1, "T2")[0],
            "cold_room": issue_guids(default, types[0x8003], 1, "T3")[0],
            "junjia_th": issue_guids(junjia, types[0x8002], 1, "T4")[0],
        }
        backdate_issuance()
    return issued


def backdate_issuance(days: int = 30) -> None:
    """Loggers in tests were issued a month ago, so readings of the last hours are accepted (a
    reading older than the device's issuance is refused)."""
    db.session.execute(update(Device).values(created_at=utcnow() - timedelta(days=days)))
    db.session.commit()


@pytest.fixture
def owner(app, client):
    make_account(app)
    return auth(login(client))


@pytest.fixture
def stranger(app, client):
    """Another account on the same site."""
    make_account(app, user_name="stranger_1")
    return auth(login(client, "stranger_1"))


def add(client, headers, guid, name="Fridge", tz="Asia/Shanghai", **extra):
    body = client.post(
        f"{DEVICE}/Device/add", json={"deviceGuid": guid, "deviceName": name, "timeZone": tz, **extra}, headers=headers
    ).get_json()
    assert body["code"] == 0, body
    return body["data"]["id"]


def upload(client, guid, key, records, *, header_guid=None, body_guid=None):
    return client.post(
        f"{DEVICE}/DeviceData/upload",
        json={"guid": body_guid or guid, "records": records},
        headers={"X-Device-Id": header_guid or guid, "X-Device-Key": key},
    )


def minutes_ago(minutes: float) -> int:
    return int((datetime.now(UTC) - timedelta(minutes=minutes)).timestamp() * 1000)


def hour_of_readings() -> tuple:
    """What the hourly rollup holds of an hour, computed from the stored readings (group by the hour):
    min, max, sum, count, first and last time; `ROLLED_HOUR` is the rollup's own."""
    return (
        func.min(Reading.value),
        func.max(Reading.value),
        func.sum(Reading.value),
        func.count(),
        func.min(Reading.ts),
        func.max(Reading.ts),
    )


ROLLED_HOUR = (
    ReadingHourly.min_value,
    ReadingHourly.max_value,
    ReadingHourly.sum_value,
    ReadingHourly.count,
    ReadingHourly.first_ts,
    ReadingHourly.last_ts,
)
