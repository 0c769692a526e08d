from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import select

from api.alarm.models import Alarm, AlarmStatus, Message
from api.extensions.db import db
from api.notify.models import OutboundMessage

ALARM = "/api/alarm"


def set_limits(client, headers, device_id, *limits):
    body = client.post(
        f"{ALARM}/SensorLimit/save", json={"deviceId": device_id, "limits": list(limits)}, headers=headers
    )
    body = body.get_json()
    assert body["code"] == 0, body
    return body["data"]


def push_setting(device_id, **overrides):
    setting = {
        "deviceId": device_id,
        "multiLevel": False,
        "levels": [{"level": 1, "minutes": 0, "recipients": [{"name": "Ann", "email": "ann@example.com"}]}],
        "channels": ["email"],
    }
    setting.update(overrides)
    return setting


def save_push(client, headers, device_id, **overrides):
    body = client.post(f"{ALARM}/PushSetting/save", json=push_setting(device_id, **overrides), headers=headers)
    return body.get_json()


def record(minutes_ago: float, temp: float | None = 5.0, **extra) -> dict:
    ts = datetime.now(UTC) - timedelta(minutes=minutes_ago)
    return {"ts": int(ts.timestamp() * 1000), "readings": {"1": temp, "2": 50.0}, **extra}


def alarms(app, device_id):
    with app.app_context():
        rows = db.session.scalars(select(Alarm).where(Alarm.device_id == device_id).order_by(Alarm.id)).all()
        for row in rows:
            db.session.expunge(row)
        return rows


def outbox(app, **where):
    with app.app_context():
        stmt = select(OutboundMessage).order_by(OutboundMessage.id)
        for key, value in where.items():
            stmt = stmt.where(getattr(OutboundMessage, key) == value)
        rows = db.session.scalars(stmt).all()
        for row in rows:
            db.session.expunge(row)
        return rows


def messages(app):
    with app.app_context():
        rows = db.session.scalars(select(Message).order_by(Message.id)).all()
        for row in rows:
            db.session.expunge(row)
        return rows


def open_alarm(app, device_id) -> Alarm:
    [alarm] = [a for a in alarms(app, device_id) if a.status == AlarmStatus.OPEN]
    return alarm
