"""Fixtures of the waybill tests: GPS trackers and loggers on the default site, a signed-in owner,
a valid waybill body, and a route between two fences."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from api.device.catalogue import sync_catalogue
from api.device.services import issue_guids
from api.extensions.db import db
from api.tenancy import find_platform
from api.waybill import geo
from tests.api.account_helpers import auth, login, make_account
from tests.api.device_helpers import add, backdate_issuance, upload

W = "/api/waybill"
ORIGIN = (31.2304, 121.4737)  # Shanghai
DESTINATION = (31.2989, 120.5853)  # Suzhou


@pytest.fixture
def trackers(app):
    """{name: (guid, key)}: two GT-1 GPS trackers, a TL-1 logger (started at the device), a
    cold-room controller (no waybill support) and a junjia GT-1."""
    with app.app_context():
        types = sync_catalogue()
        db.session.commit()
        default, junjia = find_platform("localhost"), find_platform("junjia.localhost")
        issued = {
            "gt_a": issue_guids(default, types[0x8004], 1, "W1")[0],
            "gt_b": issue_guids(default, types[0x8004], 1, "W2")[0],
            "tl": issue_guids(default, types[0x8001], 1, "W3")[0],
            "cold_room": issue_guids(default, types[0x8003], 1, "W4")[0],
            "junjia_gt": issue_guids(junjia, types[0x8004], 1, "W5")[0],
        }
        backdate_issuance()  # the routes below start in the past; readings before issuance are refused
        return issued


@pytest.fixture
def shipper(app, client):
    make_account(app, user_name="shipper_1")
    return auth(login(client, "shipper_1"))


def body(device_id: int, **changes) -> dict:
    base = {
        "orderNum": "PO-2026-001",
        "goodsName": "Vaccines",
        "expressNumber": "SF1234567890,YT9876543210",
        "coolerCode": "BOX-7",
        "deviceId": device_id,
        "recordInterval": 5,
        "upperLimit": 8.0,
        "lowerLimit": 2.0,
        "senderName": "Li Wei",
        "senderPhone": "13800138000",
        "receiverCompany": "Suzhou Pharmacy",
        "receiverName": "Zhang San",
        "receiverPhone": "13900139000",
        "alarmName": "QA desk",
        "alarmPhone": "13700137000",
        "alarmEmail": "qa@example.com",
    }
    base.update(changes)
    return base


def create(client, headers, device_id: int, **changes) -> dict:
    answer = client.post(f"{W}/Waybill/insert", json=body(device_id, **changes), headers=headers).get_json()
    assert answer["code"] == 0, answer
    return answer["data"]


def device(client, headers, trackers, name="gt_a") -> int:
    return add(client, headers, trackers[name][0], name=name.upper())


def ms(ts: datetime) -> int:
    return int(ts.timestamp() * 1000)


def send(client, trackers, name: str, ts: datetime, temp: float = 5.0, position=None):
    record = {"ts": ms(ts), "readings": {"1": temp}}
    if position:
        record["location"] = {"lat": position[0], "lng": position[1]}
    answer = upload(client, *trackers[name], [record]).get_json()
    assert answer["code"] == 0, answer
    return answer


def route(start: datetime, step: timedelta = timedelta(seconds=30)) -> list[tuple[datetime, tuple[float, float]]]:
    """Inside the origin fence (500 m circle), wobbling on its border (a naive in / out test would
    flap there), out on the road east, then into the destination fence (a polygon) and wobbling on
    its border too. Positions are metres east of the origin centre along bearing 90 degrees."""
    start = start.replace(microsecond=start.microsecond // 1000 * 1000)  # uploads carry milliseconds
    metres = [0, 200, 400, 490, 510, 490, 515, 485, 520, 700, 1200, 2000, 3000]
    # the destination polygon spans 4,000 - 6,000 m east; wobble on its western edge
    metres += [3800, 3990, 4010, 3990, 4015, 3985, 4200, 4500, 5000]
    return [(start + i * step, geo.offset(*ORIGIN, 90, m)) for i, m in enumerate(metres)]


def destination_polygon() -> list[list[float]]:
    corners = [(4000, 1000), (6000, 1000), (6000, -1000), (4000, -1000)]  # (east, north) metres
    points = []
    for east, north in corners:
        lat, lng = geo.offset(*ORIGIN, 90, east)
        lat, lng = geo.offset(lat, lng, 0 if north > 0 else 180, abs(north))
        points.append([lat, lng])
    return points


def now() -> datetime:
    return datetime.now(UTC)
