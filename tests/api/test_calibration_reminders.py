"""Calibration due reminders (issue 48): 30, 7 and 1 days before a probe certificate's due date, once
each on an injected clock (email through the outbox and a system message with the order link); a
superseded certificate reminds of nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import func, select

from api.alarm.models import Message
from api.calibration.reminders import due_threshold, send_reminders
from api.extensions.db import db
from api.notify.models import OutboundMessage
from tests.api import device_helpers
from tests.api.account_helpers import auth, login, make_account
from tests.api.device_helpers import add
from tests.api.report_helpers import START
from tests.api.test_report_evidence import add_certificate

guids = device_helpers.guids


@pytest.fixture
def owner(app, client):
    make_account(app, user_name="cal_owner", email="owner@example.com")
    return auth(login(client, "cal_owner"))


DUE = START + timedelta(days=365)


def test_the_threshold_is_the_smallest_not_less_than_the_time_left():
    assert due_threshold(DUE, DUE - timedelta(days=31)) is None
    assert due_threshold(DUE, DUE - timedelta(days=30)) == 30
    assert due_threshold(DUE, DUE - timedelta(days=8)) == 30
    assert due_threshold(DUE, DUE - timedelta(days=7)) == 7
    assert due_threshold(DUE, DUE - timedelta(days=1)) == 1
    assert due_threshold(DUE, DUE) is None  # due: overdue, not a reminder


def counts(app) -> tuple[list[str], int]:
    with app.app_context():
        keys = list(
            db.session.scalars(
                select(OutboundMessage.dedupe_key)
                .where(OutboundMessage.dedupe_key.like("calibration-due:%"))
                .order_by(OutboundMessage.id)
            )
        )
        messages = db.session.scalar(select(func.count(Message.id)).where(Message.code == "calibration.due"))
        return keys, messages


def test_each_reminder_is_sent_once_at_30_7_and_1_days(app, client, owner, guids):
    device_id = add(client, owner, guids["th_a"][0], tz="UTC")
    add_certificate(app, device_id, "CAL-R-1", START, DUE)
    sent = []
    for days_before in (31, 30, 30, 29, 8, 7, 7, 6.5, 2, 1, 1, 0.5, -1):
        with app.app_context():
            sent.append(send_reminders(DUE - timedelta(days=days_before)))
    assert sent == [0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]
    keys, messages = counts(app)
    assert [key.rsplit(":", 1)[1] for key in keys] == ["D30", "D7", "D1"]
    assert messages == 3
    with app.app_context():
        message = db.session.scalar(select(Message).where(Message.code == "calibration.due").order_by(Message.id))
        assert message.params["number"] == "CAL-R-1" and message.params["days"] == 30
        assert message.params["link"].endswith(f"/calibration/form?deviceGuid={guids['th_a'][0]}")
        body = db.session.scalar(select(OutboundMessage.body).where(OutboundMessage.dedupe_key.like("%:D30")))
        assert "CAL-R-1" in body and "/calibration/form?deviceGuid=" in body
    # The message centre renders it with the link.
    listed = client.post("/api/alarm/AlarmMessage/page", json={"start": 1, "pageSize": 10}, headers=owner).get_json()
    assert any("/calibration/form?deviceGuid=" in (m.get("content") or "") for m in listed["data"]["list"])


def test_a_late_first_run_sends_only_the_nearest_reminder(app, client, owner, guids):
    device_id = add(client, owner, guids["th_a"][0], tz="UTC")
    add_certificate(app, device_id, "CAL-R-2", START, DUE)
    with app.app_context():
        assert send_reminders(DUE - timedelta(days=5)) == 1  # the 7-day one, not the 30-day one as well
    keys, _ = counts(app)
    assert [key.rsplit(":", 1)[1] for key in keys] == ["D7"]


def test_a_superseded_certificate_reminds_of_nothing(app, client, owner, guids):
    device_id = add(client, owner, guids["th_a"][0], tz="UTC")
    add_certificate(app, device_id, "CAL-R-OLD", START, DUE)
    add_certificate(app, device_id, "CAL-R-NEW", DUE - timedelta(days=40), DUE + timedelta(days=365))
    with app.app_context():
        assert send_reminders(DUE - timedelta(days=7)) == 0
    assert counts(app) == ([], 0)
