"""Map track templates (issue 21, business-domain section 5: name 10) and what a track shows besides
its line: the stops where the truck stood still and the stretches where the goods were too warm."""

from __future__ import annotations

from datetime import timedelta
from types import SimpleNamespace

import pytest
from sqlalchemy import func, select, update

from api.extensions.db import db
from api.waybill import geo
from api.waybill.models import TrackTemplate, Waybill
from tests.api.account_helpers import auth, login, make_account
from tests.api.waybill_helpers import ORIGIN, W, create, device, now, send, shipper, trackers

__all__ = ["shipper", "trackers"]

T = f"{W}/TrackTemplate"
GOOD = {"name": "Night run", "lineColor": "#1677FF", "lineWidth": 4, "stopMinutes": 10, "colorByLimits": True}
# (field, bad value, English message, Chinese message)
RULES = [
    ("name", "x" * 11, "Length must be between 1 and 10 characters.", "长度须在 1 到 10 个字符之间。"),
    ("name", "", "Length must be between 1 and 10 characters.", "长度须在 1 到 10 个字符之间。"),
    ("lineColor", "blue", "Please enter a valid colour in the form #RRGGBB.", "请输入有效的颜色，格式为 #RRGGBB。"),
    ("lineWidth", 9, "Must be between 1 and 8.", "须在 1 到 8 之间。"),
    ("stopMinutes", 3, "Stops are marked from 5 minutes on (0: not marked).", "停留从 5 分钟起标记（0：不标记）。"),
]


def templates(app) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(TrackTemplate))


@pytest.mark.parametrize(("field", "bad", "english", "chinese"), RULES)
def test_every_template_rule_names_the_field_in_both_languages(app, client, shipper, field, bad, english, chinese):
    for language, message in (("en-US", english), ("zh-CN", chinese)):
        answer = client.post(
            f"{T}/insert", json={**GOOD, field: bad}, headers={**shipper, "Accept-Language": language}
        ).get_json()
        assert answer["code"] == 422, answer
        assert answer["data"]["errors"][field] == [message], answer
    assert templates(app) == 0  # nothing stored


def test_templates_keep_one_default_and_unique_names(app, client, shipper):
    first = client.post(f"{T}/insert", json={**GOOD, "isDefault": True}, headers=shipper).get_json()["data"]
    assert first["lineColor"] == "#1677ff" and first["isDefault"]
    second = client.post(f"{T}/insert", json={**GOOD, "name": "Day", "isDefault": True}, headers=shipper).get_json()
    assert second["code"] == 0, second
    listed = client.get(f"{T}/list", headers=shipper).get_json()["data"]
    assert [(t["name"], t["isDefault"]) for t in listed] == [("Day", True), ("Night run", False)]
    same = client.put(f"{T}/update", json={**GOOD, "id": second["data"]["id"]}, headers=shipper).get_json()
    assert same["code"] == 422 and "name" in same["data"]["errors"]
    assert [t["name"] for t in client.get(f"{T}/list", headers=shipper).get_json()["data"]] == ["Day", "Night run"]
    assert client.delete(f"{T}/delete/{first['id']}", headers=shipper).get_json()["code"] == 0
    assert templates(app) == 1


def test_another_account_neither_sees_nor_changes_my_templates(app, client, shipper):
    mine = client.post(f"{T}/insert", json=GOOD, headers=shipper).get_json()["data"]
    make_account(app, user_name="stranger_1")
    stranger = auth(login(client, "stranger_1"))
    assert client.get(f"{T}/list", headers=stranger).get_json()["data"] == []
    changed = client.put(f"{T}/update", json={**GOOD, "id": mine["id"], "name": "Mine now"}, headers=stranger)
    assert changed.status_code == 404
    assert client.delete(f"{T}/delete/{mine['id']}", headers=stranger).status_code == 404
    assert [t["name"] for t in client.get(f"{T}/list", headers=shipper).get_json()["data"]] == ["Night run"]


def test_the_track_shows_where_the_truck_stopped_and_where_it_was_too_warm(app, client, shipper, trackers):
    device_id = device(client, shipper, trackers)
    send(client, trackers, "gt_a", now() - timedelta(minutes=40), position=ORIGIN)
    waybill = create(client, shipper, device_id, ignoreMinutes=0)
    started = client.put(f"{W}/Waybill/start/{waybill['id']}", json={"confirm": True}, headers=shipper).get_json()
    assert started["code"] == 0, started
    start = (now() - timedelta(minutes=35)).replace(microsecond=0)
    with app.app_context():
        db.session.execute(update(Waybill).where(Waybill.id == waybill["id"]).values(started_at=start))
        db.session.commit()
    # Driving east a kilometre a minute, then twelve minutes standing (GPS wobbling 20 m) at 10 degC,
    # above the upper limit of 8, then driving on, cool again.
    plan = [(i * 1000, 5.0) for i in range(5)]
    plan += [(5000 + (20 if i % 2 else 0), 10.0) for i in range(13)]
    plan += [(6000 + i * 1000, 5.0) for i in range(5)]
    for minute, (metres, temp) in enumerate(plan):
        send(client, trackers, "gt_a", start + timedelta(minutes=minute + 1), temp, geo.offset(*ORIGIN, 90, metres))
    status = client.get(f"{W}/Waybill/status?id={waybill['id']}", headers=shipper).get_json()["data"]
    assert len(status["stops"]) == 1, status["stops"]
    stop = status["stops"][0]
    assert stop["minutes"] == 12
    lat, lng = geo.offset(*ORIGIN, 90, 5000)
    assert geo.distance(SimpleNamespace(**stop), SimpleNamespace(lat=lat, lng=lng)) < 20
    breaches = [point["breach"] for point in status["track"]]
    assert breaches == [None] * 5 + ["upper"] * 13 + [None] * 5
