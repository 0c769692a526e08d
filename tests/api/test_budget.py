"""Stability budgets of a waybill's goods through the api: profiles (validation, reach), the budget
computed from the stored readings (back-filled out of order), the threshold alarm raised once through
the alarm area, and the disposition the exhausted budget asks for."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import func, select

from api.alarm.models import Alarm, AlarmKind, Message
from api.budget.services import check_budgets
from api.device.models import Device
from api.extensions.db import db
from tests.api.account_helpers import auth, login, make_account
from tests.api.budget_helpers import (
    B,
    complete_trip,
    errors_of,
    ok,
    profile_body,
    send_minutes,
    start_of_trip,
)
from tests.api.waybill_helpers import W, create, device, shipper, trackers

__all__ = ["shipper", "trackers"]

# The worked example of test_budget_compute: 10 minutes each at 5, 25, 30, 8, 0, -0.5 °C, sent out of order.
EXAMPLE = [(50, -0.5), (0, 5.0), (30, 8.0), (10, 25.0), (40, 0.0), (20, 30.0)]


def add_profile(client, headers, **changes) -> dict:
    return ok(client.post(f"{B}/StabilityProfile/insert", json=profile_body(**changes), headers=headers))


def trip(app, client, headers, trackers, readings=EXAMPLE, minutes=60) -> tuple[dict, object]:
    device_id = device(client, headers, trackers)
    waybill = create(client, headers, device_id, ignoreMinutes=0)
    client.put(f"{W}/Waybill/start/{waybill['id']}", json={"confirm": True}, headers=headers)
    client.put(f"{W}/Waybill/stop/{waybill['id']}", headers=headers)
    start = start_of_trip(hours=minutes // 60 + 2)
    complete_trip(app, waybill["id"], start, minutes)
    send_minutes(client, trackers["gt_a"], start, readings)
    return waybill, start


def test_profile_fields_are_checked_and_named(client, shipper):
    def refused(**changes):
        answer = client.post(f"{B}/StabilityProfile/insert", json=profile_body(**changes), headers=shipper).get_json()
        assert answer["code"] == 422, answer
        return errors_of(answer)

    overlapping = [{"low": 8, "high": 25, "hours": 72}, {"low": 20, "high": 40, "hours": 6}]
    assert "bands.1" in refused(bands=overlapping)
    assert "bands" in refused(bands=[{"low": 8, "high": 25, "hours": -1}])
    assert "bands.0" in refused(bands=[{"low": 5, "high": 25, "hours": 1}])  # inside the labelled range
    assert "bands.0" in refused(bands=[{"low": 30, "high": 25, "hours": 1}])
    assert "bands.0" in refused(bands=[{"low": None, "high": None, "hours": 1}])
    assert "rangeLow" in refused(rangeLow=8, rangeHigh=2)
    assert "alertPercent" in refused(alertPercent=0)
    assert "bands" in refused(bands=[])
    chinese = client.post(
        f"{B}/StabilityProfile/insert",
        json=profile_body(bands=overlapping),
        headers={**shipper, "Accept-Language": "zh-CN"},
    ).get_json()
    assert errors_of(chinese)["bands.1"] == ["温度带不能重叠。"]
    first = add_profile(client, shipper)
    assert first["bands"][2] == {"low": None, "high": 0.0, "hours": 0.0}
    assert "name" in refused()  # the same name twice
    changed = ok(
        client.put(f"{B}/StabilityProfile/update", json=profile_body(id=first["id"], name="B"), headers=shipper)
    )
    assert changed["name"] == "B"
    page = ok(client.post(f"{B}/StabilityProfile/page", json={}, headers=shipper))
    assert page["total"] == 1


def test_the_budget_of_a_trip_from_readings_sent_out_of_order(app, client, shipper, trackers):
    waybill, _start = trip(app, client, shipper, trackers)
    with app.app_context():  # the window is shown in the device's zone, which the answer names
        db.session.get(Device, waybill["deviceId"]).time_zone = "Europe/Berlin"
        db.session.commit()
    profile = add_profile(client, shipper)
    none = ok(client.get(f"{B}/WaybillBudget/get?waybillId={waybill['id']}", headers=shipper))
    assert none["profile"] is None and none["bands"] == [] and none["timeZone"] == "Europe/Berlin"
    assigned = ok(
        client.put(
            f"{B}/WaybillBudget/assign", json={"waybillId": waybill["id"], "profileId": profile["id"]}, headers=shipper
        )
    )
    assert [b["usedSeconds"] for b in assigned["bands"]] == [600, 600, 600]
    assert assigned["inRangeSeconds"] == 1200 and assigned["unbandedSeconds"] == 600 and assigned["unknownSeconds"] == 0
    assert assigned["bands"][0]["remainingSeconds"] == 72 * 3600 - 600 and assigned["readings"] == 6
    assert assigned["exhausted"] and assigned["dispositionRequired"] and assigned["profile"]["id"] == profile["id"]
    assert assigned["mkt"] is not None and not assigned["mktExceeded"] and assigned["timeZone"] == "Europe/Berlin"
    # disposition: quarantined needs a reason, then nothing is required any more
    no_reason = client.put(
        f"{W}/Waybill/dispose", json={"id": waybill["id"], "disposition": "quarantined"}, headers=shipper
    ).get_json()
    assert no_reason["code"] == 422 and "reason" in errors_of(no_reason)
    ok(
        client.put(
            f"{W}/Waybill/dispose",
            json={"id": waybill["id"], "disposition": "quarantined", "reason": "Below 0 °C for 10 min"},
            headers=shipper,
        )
    )
    after = ok(client.get(f"{B}/WaybillBudget/get?waybillId={waybill['id']}", headers=shipper))
    assert after["disposition"] == "quarantined" and not after["dispositionRequired"]
    cleared = ok(client.put(f"{B}/WaybillBudget/assign", json={"waybillId": waybill["id"]}, headers=shipper))
    assert cleared["profile"] is None


def test_the_threshold_alarm_is_raised_once(app, client, shipper, trackers):
    # 5 of the 6 hours of the 25-40 °C band used (83 % >= 80 %), no other band touched
    readings = [(minute, 30.0) for minute in range(0, 300, 10)] + [(300, 5.0)]
    waybill, start = trip(app, client, shipper, trackers, readings=readings, minutes=310)
    quiet = add_profile(client, shipper, name="Quiet", alertPercent=90, mktLimit=None)
    ok(
        client.put(
            f"{B}/WaybillBudget/assign", json={"waybillId": waybill["id"], "profileId": quiet["id"]}, headers=shipper
        )
    )
    later = start + timedelta(minutes=320)
    with app.app_context():
        assert check_budgets(later) == 0  # 83 % < 90 %
    loud = add_profile(client, shipper, name="Loud", mktLimit=None)
    ok(
        client.put(
            f"{B}/WaybillBudget/assign", json={"waybillId": waybill["id"], "profileId": loud["id"]}, headers=shipper
        )
    )
    with app.app_context():
        assert check_budgets(later) == 1
        assert check_budgets(later + timedelta(minutes=5)) == 0  # the next pass: raised already
        [alarm] = db.session.scalars(select(Alarm).where(Alarm.kind == AlarmKind.BUDGET)).all()
        assert alarm.status == "open" and alarm.last_value == round(300 / 360 * 100, 1)
        assert db.session.scalar(select(func.count()).select_from(Message).where(Message.alarm_id == alarm.id)) == 1
    budget = ok(client.get(f"{B}/WaybillBudget/get?waybillId={waybill['id']}", headers=shipper))
    assert budget["alerted"] and budget["alarmId"] == alarm.id and budget["alert"] and not budget["exhausted"]
    messages = ok(client.post("/api/alarm/AlarmMessage/page", json={}, headers=shipper))
    assert any("Stability budget" in m["title"] or "稳定性" in m["title"] for m in messages["list"]), messages


def test_reach_profiles_are_the_accounts_and_waybills_their_devices(app, client, shipper, trackers):
    waybill, _start = trip(app, client, shipper, trackers)
    mine = add_profile(client, shipper)
    make_account(app, user_name="stranger_9")
    stranger = auth(login(client, "stranger_9"))
    theirs = add_profile(client, stranger)
    assert client.get(f"{B}/StabilityProfile/detail/{mine['id']}", headers=stranger).get_json()["code"] == 404
    assert ok(client.post(f"{B}/StabilityProfile/page", json={}, headers=stranger))["total"] == 1
    assert client.get(f"{B}/WaybillBudget/get?waybillId={waybill['id']}", headers=stranger).status_code == 404
    foreign = client.put(
        f"{B}/WaybillBudget/assign", json={"waybillId": waybill["id"], "profileId": theirs["id"]}, headers=shipper
    ).get_json()
    assert foreign["code"] == 422 and "profileId" in errors_of(foreign)
    taken = client.put(
        f"{B}/WaybillBudget/assign", json={"waybillId": waybill["id"], "profileId": theirs["id"]}, headers=stranger
    )
    assert taken.status_code == 404
