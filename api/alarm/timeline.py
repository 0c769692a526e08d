"""What the console and the public acknowledgement page ask of an alarm's acknowledgement (issue 48):
its timeline (opened, each send per channel and recipient, delivered, escalated to level N,
acknowledged by whom and how, processed, closed and why), the console's Acknowledge action and the
email link's page. Read from the alarm, its outbox rows and its dispositions: nothing is written twice."""

from __future__ import annotations

import re

from flask_babel import gettext
from sqlalchemy import func, select

from api.alarm.ack import LinkError, acknowledge, read_token
from api.alarm.models import AckVia, Alarm, AlarmDisposition
from api.alarm.places import describe
from api.alarm.texts import kind_text
from api.device.models import Device
from api.extensions.db import db
from api.extensions.smorest import ApiError
from api.identity.auth import require_account
from api.identity.models import Account
from api.notify.models import DeliveryStatus, OutboundMessage

LEVEL = re.compile(r":L(\d+):")


def console_ack(alarm: Alarm) -> dict:
    """The console's Acknowledge (the gate checked the caller reaches the alarm's device)."""
    recorded = acknowledge(alarm, AckVia.CONSOLE, account=require_account())
    db.session.commit()
    return {"recorded": recorded, **_ack_state(alarm)}


def _ack_state(alarm: Alarm) -> dict:
    return {
        "alarmId": alarm.id,
        "acknowledged": alarm.acknowledged_at is not None,
        "ackTime": alarm.acknowledged_at,
        "ackVia": alarm.ack_via,
        "ackBy": alarm.ack_by,
    }


def _entry(time, event: str, **fields) -> dict:
    return {"time": time, "event": event, **{key: value for key, value in fields.items() if value is not None}}


def timeline(alarm: Alarm) -> list[dict]:
    """Every step of the alarm, oldest first."""
    steps = []
    if alarm.opened_at is not None:
        steps.append(_entry(alarm.opened_at, "opened", detail=_value(alarm.first_value)))
    rows = db.session.scalars(
        select(OutboundMessage).where(OutboundMessage.alarm_id == alarm.id).order_by(OutboundMessage.id)
    ).all()
    reached: dict[int, object] = {}
    for row in rows:
        match = LEVEL.search(row.dedupe_key or "")
        level = int(match.group(1)) if match else None
        if level is not None and level > 1 and level not in reached:
            reached[level] = row.created_at
            steps.append(_entry(row.created_at, "escalated", level=level))
        who = {"channel": row.channel.value, "recipient": row.recipient, "level": level}
        if row.status == DeliveryStatus.FAILED:
            steps.append(_entry(row.sent_at or row.created_at, "failed", detail=row.last_error, **who))
        elif row.sent_at is not None:
            steps.append(_entry(row.sent_at, "sent", **who))
        else:
            steps.append(_entry(row.created_at, "queued", **who))
        if row.delivered_at is not None:
            steps.append(_entry(row.delivered_at, "delivered", **who))
    if alarm.acknowledged_at is not None:
        steps.append(_entry(alarm.acknowledged_at, "acknowledged", via=alarm.ack_via, by=alarm.ack_by))
    name = func.coalesce(Account.real_name, Account.user_name)
    for disposition, by in db.session.execute(
        select(AlarmDisposition, name)
        .outerjoin(Account, Account.id == AlarmDisposition.account_id)
        .where(AlarmDisposition.alarm_id == alarm.id)
        .order_by(AlarmDisposition.id)
    ):
        steps.append(
            _entry(disposition.created_at, "processed", state=disposition.state.value, by=by, detail=disposition.result)
        )
    if alarm.closed_at is not None:
        steps.append(_entry(alarm.closed_at, "closed", detail=alarm.close_reason or "recovered"))
    return sorted(steps, key=lambda step: step["time"])


def _value(value: float | None) -> str | None:
    return None if value is None else f"{value:g}"


# ---- the email link's public page -------------------------------------------------------------------------


def _link_alarm(token: str) -> tuple[Alarm, str]:
    try:
        alarm_id, email = read_token(token)
    except LinkError as problem:
        if problem.kind == "expired":
            raise ApiError(gettext("This acknowledgement link has expired."), code=410, http_status=410) from None
        raise ApiError(gettext("This acknowledgement link is not valid."), code=403, http_status=403) from None
    alarm = db.session.get(Alarm, alarm_id)
    if alarm is None:
        raise ApiError(gettext("This acknowledgement link is not valid."), code=403, http_status=403)
    return alarm, email


def _public(alarm: Alarm) -> dict:
    device = db.session.get(Device, alarm.device_id)
    shown = describe([alarm]).get(alarm.id, {})
    return {
        **_ack_state(alarm),
        "deviceName": device.name or device.guid if device is not None else None,
        "kindText": kind_text(alarm.kind),
        "place": shown.get("place"),
        "unit": shown.get("unit"),
        "lastValue": alarm.last_value,
        "limitValue": alarm.limit_value,
        "openTime": alarm.opened_at,
        "status": alarm.status.value,
    }


def link_view(token: str) -> dict:
    alarm, _email = _link_alarm(token)
    return _public(alarm)


def link_ack(token: str) -> dict:
    """Acknowledge by the email link: by the address the link was sent to. A used link answers the
    alarm as acknowledged (by whoever did it first)."""
    alarm, email = _link_alarm(token)
    recorded = acknowledge(alarm, AckVia.EMAIL, by=email)
    db.session.commit()
    return {**_public(alarm), "recorded": recorded}
