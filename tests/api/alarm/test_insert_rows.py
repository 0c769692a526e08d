"""`insert_rows`: the sweeps' alarms and messages written by one statement each, as the ORM would."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import func, inspect, select

from api.alarm.models import Alarm, AlarmKind, AlarmStatus, Message, MessageType, ProcessState
from api.device.models import Device
from api.extensions.db import db, insert_rows, utcnow


def _alarm(device: Device, ts) -> Alarm:
    """An open alarm with its process state and level left to the model's defaults."""
    return Alarm(
        platform_id=device.platform_id,
        owner_account_id=device.owner_account_id,
        device_id=device.id,
        kind=AlarmKind.UPPER,
        sensor=1,
        status=AlarmStatus.OPEN,
        breach_started_at=ts,
        opened_at=ts + timedelta(minutes=5),
        last_seen_at=ts + timedelta(minutes=9),
        limit_value=8.0,
        first_value=9.5,
        peak_value=11.25,
        last_value=10.0,
    )


def _columns(row) -> dict:
    return {attr.key: getattr(row, attr.key) for attr in inspect(type(row)).column_attrs if attr.key != "id"}


def test_the_rows_are_those_a_flush_writes_and_stay_in_the_session(app, fridge):
    with app.app_context():
        device = db.session.get(Device, fridge[0])
        ts = utcnow() - timedelta(hours=1)
        flushed, written = _alarm(device, ts), _alarm(device, ts)
        db.session.add(flushed)
        db.session.flush()
        insert_rows([written])
        # The defaults are on the row as after a flush, and it is in the session: a change is stored.
        assert (written.id, written.process_state, written.level_reached) == (flushed.id + 1, ProcessState.PENDING, 0)
        assert written in db.session and not db.session.new
        written.level_reached = 2
        db.session.commit()
        flushed.level_reached = 2
        db.session.commit()
        db.session.expire_all()
        assert _columns(db.session.get(Alarm, written.id)) == _columns(db.session.get(Alarm, flushed.id))


def test_each_row_gets_its_own_id(app, fridge):
    with app.app_context():
        device = db.session.get(Device, fridge[0])
        rows = [
            Message(
                platform_id=device.platform_id,
                owner_account_id=device.owner_account_id,
                type=MessageType.SYSTEM,
                device_id=device.id,
                code=f"test.{n}",
            )
            for n in range(60)
        ]
        insert_rows(rows)
        db.session.commit()
        stored = dict(db.session.execute(select(Message.id, Message.code)).all())
        assert {row.id: row.code for row in rows} == stored and len(stored) == 60


def test_rows_that_set_different_columns_are_refused_and_nothing_is_written(app, fridge):
    with app.app_context():
        device = db.session.get(Device, fridge[0])
        ts = utcnow()
        plain, processed = _alarm(device, ts), _alarm(device, ts)
        processed.result = "checked"
        with pytest.raises(ValueError, match="different columns"):
            insert_rows([plain, processed])
        assert db.session.scalar(select(func.count()).select_from(Alarm)) == 0
