"""Issue 47: a waybill's alarm contact is a recipient of the trip's alarms (temperature and fence) for the
trip's duration only: an SMS to its phone and an email, through the outbox and escalation, with or without
a push setting on the device; nothing before the trip, nothing after it ends."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select, update

from api.alarm.escalation import escalate
from api.alarm.models import Alarm, AlarmKind
from api.device.models import Device
from api.extensions.db import db
from api.notify.models import OutboundMessage
from api.waybill import services
from tests.api.waybill_helpers import W, create, device, now, send, shipper, trackers

__all__ = ["shipper", "trackers"]

PHONE, EMAIL = "+8613700137000", "qa@example.com"  # phones are stored in E.164


def _sends(app, alarm_id: int) -> list[tuple[str, str]]:
    with app.app_context():
        rows = db.session.scalars(select(OutboundMessage).where(OutboundMessage.alarm_id == alarm_id))
        return sorted((row.channel.value, row.recipient) for row in rows)


def _alarms(app, device_id: int, kind=AlarmKind.UPPER) -> list[Alarm]:
    with app.app_context():
        return list(
            db.session.scalars(select(Alarm).where(Alarm.device_id == device_id, Alarm.kind == kind).order_by(Alarm.id))
        )


def _balance(app, device_id: int) -> None:
    with app.app_context():
        db.session.execute(update(Device).where(Device.id == device_id).values(sms_count=20))
        db.session.commit()


def _started(client, headers, device_id: int, **changes) -> dict:
    waybill = create(client, headers, device_id, ignoreMinutes=0, **changes)
    answer = client.put(f"{W}/Waybill/start/{waybill['id']}", json={"confirm": True}, headers=headers).get_json()
    assert answer["data"]["state"] == "in_progress", answer
    return waybill


def test_the_contact_hears_of_the_trips_temperature_alarms_without_a_push_setting(app, client, shipper, trackers):
    device_id = device(client, shipper, trackers)
    _balance(app, device_id)
    send(client, trackers, "gt_a", now() - timedelta(minutes=5))
    waybill = _started(client, shipper, device_id)
    send(client, trackers, "gt_a", now(), temp=12.0)  # above the waybill's 8
    (alarm,) = _alarms(app, device_id)
    assert alarm.status == "open"
    assert _sends(app, alarm.id) == [("email", EMAIL), ("sms", PHONE)]
    with app.app_context():
        body = db.session.scalar(select(OutboundMessage.body).where(OutboundMessage.channel == "sms"))
        assert "12" in body  # the alarm's own text, not an empty one
        assert escalate(now() + timedelta(minutes=30)) == 0  # told once: no setting, no repeats
    send(client, trackers, "gt_a", now(), temp=1.0)  # below 2: a second alarm
    (low,) = _alarms(app, device_id, AlarmKind.LOWER)
    assert _sends(app, low.id) == [("email", EMAIL), ("sms", PHONE)]

    client.put(f"{W}/Waybill/stop/{waybill['id']}", headers=shipper)
    client.post(
        "/api/alarm/SensorLimit/save",
        json={"deviceId": device_id, "limits": [{"sensor": 1, "upperLimit": 8.0, "lowerLimit": 2.0}]},
        headers=shipper,
    )
    send(client, trackers, "gt_a", now(), temp=5.0)
    send(client, trackers, "gt_a", now(), temp=15.0)  # after the trip
    after = _alarms(app, device_id)[-1]
    assert after.id != alarm.id and after.status == "open"
    assert _sends(app, after.id) == []


def test_the_contact_follows_the_push_settings_repeats_and_stops_when_the_trip_ends(app, client, shipper, trackers):
    device_id = device(client, shipper, trackers)
    _balance(app, device_id)
    saved = client.post(
        "/api/alarm/PushSetting/save",
        json={
            "deviceId": device_id,
            "multiLevel": False,
            "channels": ["email"],
            "repeatCount": 3,
            "intervalMinutes": 10,
            "levels": [{"level": 1, "minutes": 0, "recipients": [{"name": "Desk", "email": "desk@example.com"}]}],
        },
        headers=shipper,
    ).get_json()
    assert saved["code"] == 0, saved
    send(client, trackers, "gt_a", now() - timedelta(minutes=5))
    waybill = _started(client, shipper, device_id, alarmEmail=None)  # the contact has a phone only
    send(client, trackers, "gt_a", now(), temp=12.0)
    (alarm,) = _alarms(app, device_id)
    assert _sends(app, alarm.id) == [("email", "desk@example.com"), ("sms", PHONE)]
    with app.app_context():
        assert escalate(alarm.opened_at + timedelta(minutes=10)) == 2  # the repeat: the desk and the contact
    client.put(f"{W}/Waybill/stop/{waybill['id']}", headers=shipper)
    with app.app_context():
        assert escalate(alarm.opened_at + timedelta(minutes=20)) == 1  # the desk only: the trip is over
    assert _sends(app, alarm.id).count(("sms", PHONE)) == 2


def test_an_alarm_older_than_the_trip_is_not_the_contacts(app, client, shipper, trackers):
    device_id = device(client, shipper, trackers)
    _balance(app, device_id)
    client.post(
        "/api/alarm/SensorLimit/save",
        json={"deviceId": device_id, "limits": [{"sensor": 1, "upperLimit": 4.0, "lowerLimit": 2.0}]},
        headers=shipper,
    )
    send(client, trackers, "gt_a", now() - timedelta(minutes=5), temp=6.0)  # above the device's own 4
    (before,) = _alarms(app, device_id)
    _started(client, shipper, device_id)
    with app.app_context():
        assert escalate(now() + timedelta(minutes=1)) == 0
    assert _sends(app, before.id) == []


def test_every_way_of_completing_closes_the_trips_fence_alarms_with_a_reason(
    app, client, shipper, trackers, monkeypatch
):
    """Stopped by hand here (entering the destination: test_waybill_fences); an 'enter' alarm of a watched
    fence that is not the destination stays open until then, and escalates no more afterwards."""
    from tests.api.waybill_helpers import ORIGIN, route

    watched = client.post(
        f"{W}/Fence/insert",
        json={"name": "Checkpoint", "shape": "circle", "center": list(ORIGIN), "radius": 500, "alarmEnter": True},
        headers=shipper,
    ).get_json()["data"]
    device_id = device(client, shipper, trackers)
    _balance(app, device_id)
    began = now() - timedelta(minutes=30)
    monkeypatch.setattr(services, "utcnow", lambda: began)
    waybill = _started(client, shipper, device_id, fenceModelId=watched["id"])
    monkeypatch.undo()
    positions = route(began + timedelta(minutes=1))[:12]  # out of the circle ...
    positions = [*positions, (positions[-1][0] + timedelta(minutes=1), ORIGIN)]  # ... and back in
    for ts, position in positions[8:]:
        send(client, trackers, "gt_a", ts, position=position)
    (alarm,) = _alarms(app, device_id, AlarmKind.FENCE)
    assert alarm.status == "open"
    assert ("sms", PHONE) in _sends(app, alarm.id)
    client.put(f"{W}/Waybill/stop/{waybill['id']}", headers=shipper)
    (alarm,) = _alarms(app, device_id, AlarmKind.FENCE)
    assert alarm.status == "closed" and alarm.close_reason == "waybill_completed"
    with app.app_context():
        assert escalate(now() + timedelta(hours=1)) == 0
    page = client.post(
        "/api/alarm/Alarm/page", json={"deviceId": device_id}, headers={**shipper, "Accept-Language": "en-US"}
    ).get_json()["data"]["list"]
    fence_row = next(row for row in page if row["kind"] == "fence")
    assert fence_row["closeReason"] == "waybill_completed"
