"""Fixtures of the budget tests: a profile body, a completed trip with readings at set times."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from api.device.models import Device
from api.extensions.db import db
from api.waybill.models import Waybill, WaybillState
from tests.api.device_helpers import upload

B = "/api/budget"


def profile_body(**changes) -> dict:
    """Labelled 2-8 °C; "up to 25 °C: 72 h", "up to 40 °C: 6 h", "below 0 °C: none allowed"."""
    body = {
        "name": "Vaccine 2-8",
        "rangeLow": 2.0,
        "rangeHigh": 8.0,
        "bands": [
            {"low": 8.0, "high": 25.0, "hours": 72},
            {"low": 25.0, "high": 40.0, "hours": 6},
            {"low": None, "high": 0.0, "hours": 0},
        ],
        "mktLimit": 25.0,
        "alertPercent": 80,
    }
    body.update(changes)
    return body


def ok(response) -> dict:
    body = response.get_json()
    assert response.status_code == 200 and body["code"] == 0, body
    return body["data"]


def errors_of(answer: dict) -> dict:
    return (answer.get("data") or {}).get("errors") or {}


def start_of_trip(hours: int = 3) -> datetime:
    return (datetime.now(UTC) - timedelta(hours=hours)).replace(second=0, microsecond=0)


def ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


def complete_trip(app, waybill_id: int, start: datetime, minutes: int, interval_s: int = 300) -> None:
    """The trip ran from `start` for `minutes` (set in the database: the api starts trips now)."""
    with app.app_context():
        waybill = db.session.get(Waybill, waybill_id)
        waybill.state, waybill.started_at = WaybillState.COMPLETED, start
        waybill.completed_at = start + timedelta(minutes=minutes)
        db.session.get(Device, waybill.device_id).interval_s = interval_s
        db.session.commit()


def send_minutes(client, guid_key, start: datetime, readings: list[tuple[int, float]], sensor: int = 1) -> None:
    """Each (minute, value) in its own upload, in the order given (back-filled ones out of order)."""
    for minute, value in readings:
        record = {"ts": ms(start + timedelta(minutes=minute)), "readings": {str(sensor): value}}
        answer = upload(client, *guid_key, [record]).get_json()
        assert answer["code"] == 0, answer
