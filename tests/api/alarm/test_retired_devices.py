"""A disabled or scrapped device's alarms (issue 47: a disabled device's open alarm still escalated and
sent a level-2 SMS): taking a device out of use closes its open alarms with the reason (in the alarm
record), escalation plans nothing for it, and a send already in the outbox is withheld when it is due."""

from __future__ import annotations

from datetime import timedelta

import pytest

from api.alarm.escalation import escalate
from api.alarm.models import AlarmStatus
from api.device.models import Device
from api.extensions.db import db
from api.notify.models import DeliveryStatus
from tests.api.alarm.helpers import ALARM, alarms, open_alarm, outbox, record, save_push, set_limits
from tests.api.device_helpers import upload

LEVELS = [
    {"level": 1, "minutes": 0, "recipients": [{"name": "Ann", "phone": "13900139001"}]},
    {"level": 2, "minutes": 10, "recipients": [{"name": "Bob", "phone": "13900139002"}]},
]
WAYS_OUT = [("stopUsing", "device_disabled"), ("scrap", "device_scrapped")]


def alarm_with_level_one_sent(app, client, owner, fridge, run_jobs):
    device_id, guid, key = fridge
    assert save_push(client, owner, device_id, multiLevel=True, levels=LEVELS, channels=["sms"])["code"] == 0
    set_limits(client, owner, device_id, {"sensor": 1, "upperLimit": 8})
    upload(client, guid, key, [record(2, 5.0), record(1, 12.5)])
    run_jobs()
    alarm = open_alarm(app, device_id)
    assert [(m.recipient, m.status) for m in outbox(app)] == [("+8613900139001", DeliveryStatus.SENT)]
    return alarm


def sms_left(app, device_id) -> int:
    with app.app_context():
        return db.session.get(Device, device_id).sms_count


@pytest.mark.parametrize(("action", "reason"), WAYS_OUT)
def test_taking_a_device_out_of_use_closes_its_alarms_with_the_reason(
    app, client, owner, fridge, run_jobs, providers, action, reason
):
    alarm = alarm_with_level_one_sent(app, client, owner, fridge, run_jobs)
    answer = client.put(f"/api/device/Device/{action}/{fridge[0]}", headers=owner).get_json()
    assert answer["code"] == 0, answer
    [closed] = alarms(app, fridge[0])
    assert closed.status == AlarmStatus.CLOSED and closed.close_reason == reason
    with app.app_context():
        assert escalate(alarm.opened_at + timedelta(minutes=30)) == 0  # no level 2, no repeats
    page = client.post(f"{ALARM}/Alarm/page", json={"deviceId": fridge[0]}, headers=owner).get_json()
    assert page["data"]["list"][0]["closeReason"] == reason  # visible in the alarm record
    assert len(outbox(app)) == 1


@pytest.mark.parametrize(("action", "reason"), WAYS_OUT)
def test_a_send_planned_before_the_device_left_use_is_withheld_when_due(
    app, client, owner, fridge, run_jobs, providers, action, reason
):
    alarm = alarm_with_level_one_sent(app, client, owner, fridge, run_jobs)
    with app.app_context():
        assert escalate(alarm.opened_at + timedelta(minutes=10)) == 1  # level 2 planned, not yet sent
    balance = sms_left(app, fridge[0])
    assert client.put(f"/api/device/Device/{action}/{fridge[0]}", headers=owner).get_json()["code"] == 0
    run_jobs()
    level_two = outbox(app)[-1]
    assert level_two.recipient == "+8613900139002"
    assert level_two.status == DeliveryStatus.FAILED and "disabled" in level_two.last_error
    assert sms_left(app, fridge[0]) == balance + 1  # the unit spent on the withheld SMS comes back
    _inbox, sms = providers
    assert sms.texts_to("+8613900139002") == [] and len(sms.texts_to("+8613900139001")) == 1


def test_escalation_checks_the_device_at_send_time(app, client, owner, fridge, run_jobs, providers):
    """Even when the device was switched off by a path that closed nothing, nothing is sent for it."""
    alarm = alarm_with_level_one_sent(app, client, owner, fridge, run_jobs)
    with app.app_context():
        db.session.get(Device, fridge[0]).enabled = False
        db.session.commit()
        assert escalate(alarm.opened_at + timedelta(minutes=30)) == 0
    assert len(outbox(app)) == 1
