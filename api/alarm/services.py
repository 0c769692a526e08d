"""What the pages ask of the alarm area: the message centre (list, filters, unread count, batch
processing), a device's alarm status and history, push settings and limits, and the operator's
rules and templates. Scoping goes through api.tenancy (owned / the owner's devices) only."""

from __future__ import annotations

from flask_babel import gettext
from sqlalchemy import func, select

from api.access.reach import hidden_sensors
from api.alarm import push
from api.alarm.limit_history import limit_periods
from api.alarm.models import (
    Alarm,
    AlarmDisposition,
    AlarmRule,
    AlarmStatus,
    Message,
    MessageTemplate,
    MessageType,
    ProcessState,
    PushSetting,
)
from api.alarm.places import describe
from api.alarm.schemas import PROCESSED
from api.alarm.texts import kind_text
from api.device.models import Device, DeviceParam, DeviceState, DeviceType, ParamUnit
from api.device.services import owned_device
from api.extensions.db import db, paginate, utcnow
from api.extensions.i18n import caller_zone
from api.extensions.smorest import ApiError
from api.extensions.trail import gxp_mode, record_event
from api.identity.auth import owned, require_account
from api.identity.models import Account
from api.notify.models import OutboundMessage

SYSTEM_TEXT = {
    "balance.sms": "The SMS balance of %(device)s is used up: alarm %(alarm)s was not sent by SMS. Add email or "
    "webhook in the device's notification settings, or ask your service provider for more SMS.",
    "balance.voice": "The voice-call balance of %(device)s is used up: alarm %(alarm)s was not sent by voice call. Add "
    "email or webhook in the device's notification settings, or ask your service provider for more calls.",
    # api/sharing/transfers.py: a device offered to this account.
    "transfer.offered": "%(sender)s offers to transfer the device %(device)s to you. Accept or refuse it under User "
    "Center > Sharer management > Transfers.",
    # api/calibration/reminders.py: a probe certificate falls due in 30, 7 or 1 days.
    "calibration.due": "The calibration certificate %(number)s of %(device)s is due in %(days)s days. Order its "
    "calibration: %(link)s",
}
_MARKERS = (
    lambda: gettext(
        "The calibration certificate %(number)s of %(device)s is due in %(days)s days. Order its calibration: %(link)s"
    ),
    lambda: gettext(
        "The SMS balance of %(device)s is used up: alarm %(alarm)s was not sent by SMS. Add email or "
        "webhook in the device's notification settings, or ask your service provider for more SMS."
    ),
    lambda: gettext(
        "The voice-call balance of %(device)s is used up: alarm %(alarm)s was not sent by voice call. Add "
        "email or webhook in the device's notification settings, or ask your service provider for more calls."
    ),
)


def not_found() -> ApiError:
    return ApiError(gettext("The requested resource does not exist."), code=404, http_status=404)


# ---- the message centre ------------------------------------------------------------------------------


def _messages():
    return (
        owned(select(Message, Device.name, Device.guid), Message)
        .outerjoin(Device, Device.id == Message.device_id)
        .outerjoin(Alarm, Alarm.id == Message.alarm_id)
    )


def _render(message: Message, device_name: str | None, guid: str | None) -> dict:
    device = device_name or guid or ""
    if message.type == MessageType.ALARM and message.alarm is not None:
        alarm = message.alarm
        title = kind_text(alarm.kind)
        if alarm.sensor is not None:
            shown = _details_of(alarm)
            unit = shown.get("unit") or ""
            content = gettext(
                "%(place)s (%(device)s): %(alarm)s, value %(value)s, limit %(limit)s.",
                place=shown.get("place") or f"#{alarm.sensor}",
                device=device,
                alarm=title,
                value=_fmt(alarm.last_value, unit),
                limit=_fmt(alarm.limit_value, unit),
            )
        else:
            content = gettext("%(device)s: %(alarm)s.", device=device, alarm=title)
    else:
        title = gettext("System message")
        pattern = SYSTEM_TEXT.get(message.code)
        params = message.params
        values = {"device": device, "alarm": params.get("alarmId", ""), "sender": params.get("sender", "")}
        values |= {key: params.get(key, "") for key in ("number", "days", "link")}
        content = gettext(pattern, **values) if pattern else message.code
    return {"message": message, "device_name": device_name, "device_guid": guid, "title": title, "content": content}


def _fmt(value: float | None, unit: str = "") -> str:
    return "-" if value is None else (f"{value:g} {unit}" if unit else f"{value:g}")


def _details_of(alarm: Alarm) -> dict:
    return getattr(alarm, "details", None) or {}


def message_page(args: dict) -> dict:
    stmt = _messages()
    if args.get("type"):
        stmt = stmt.where(Message.type == MessageType(args["type"]))
    if args.get("deviceId"):
        stmt = stmt.where(Message.device_id == args["deviceId"])
    state = args.get("state")
    if state == PROCESSED:
        stmt = stmt.where(Alarm.process_state != ProcessState.PENDING)
    elif state:
        stmt = stmt.where(Alarm.process_state == ProcessState(state))
    if args.get("startTime"):
        stmt = stmt.where(Message.created_at >= args["startTime"])
    if args.get("endTime"):
        stmt = stmt.where(Message.created_at < args["endTime"])
    found = paginate(stmt, args, Message.created_at.desc(), Message.id.desc(), rows=True)
    with_details([row[0].alarm for row in found["list"] if row[0].alarm is not None])
    return {"list": [_render(*row) for row in found["list"]], "total": found["total"]}


def with_details(alarms: list[Alarm]) -> list[Alarm]:
    """Load what an alarm row shows besides its columns for a whole page at once (three queries, not
    two per row): its message id, who processed it and its processing history."""
    ids = [alarm.id for alarm in alarms]
    if not ids:
        return alarms
    messages = dict(db.session.execute(select(Message.alarm_id, Message.id).where(Message.alarm_id.in_(ids))).all())
    name = func.coalesce(Account.real_name, Account.user_name)
    history: dict[int, list] = {}
    rows = db.session.execute(
        select(AlarmDisposition, name)
        .outerjoin(Account, Account.id == AlarmDisposition.account_id)
        .where(AlarmDisposition.alarm_id.in_(ids))
        .order_by(AlarmDisposition.alarm_id, AlarmDisposition.id)
    )
    zone = caller_zone()
    for disposition, who in rows:
        history.setdefault(disposition.alarm_id, []).append(
            {
                "state": disposition.state.value,
                "result": disposition.result,
                "by": who,
                "time": disposition.created_at.astimezone(zone).isoformat(),
            }
        )
    # The unit code of each alarm's sensor (the web converts °C / °F with it); the unit's name comes
    # with the place (describe).
    unit_codes = dict(
        db.session.execute(
            select(Alarm.id, ParamUnit.unit_code)
            .join(Device, Device.id == Alarm.device_id)
            .join(
                DeviceParam,
                (DeviceParam.device_type_id == Device.device_type_id) & (DeviceParam.probe_id == Alarm.sensor),
            )
            .join(ParamUnit, ParamUnit.id == DeviceParam.unit_id)
            .where(Alarm.id.in_(ids))
        ).all()
    )
    processors = {a.processed_by for a in alarms if a.processed_by is not None}
    names = (
        dict(db.session.execute(select(Account.id, name).where(Account.id.in_(processors))).all()) if processors else {}
    )
    described = describe(alarms)
    for alarm in alarms:
        alarm.details = {
            **described.get(alarm.id, {}),
            "messageId": messages.get(alarm.id),
            "processedBy": names.get(alarm.processed_by),
            "history": history.get(alarm.id, []),
            "unitCode": unit_codes.get(alarm.id),
        }
    return alarms


def unread_count() -> dict:
    unread = Message.read_at.is_(None)
    row = db.session.execute(
        owned(select(Message.id), Message)
        .outerjoin(Alarm, Alarm.id == Message.alarm_id)
        .with_only_columns(
            func.count().filter(unread),
            func.count().filter(unread, Message.type == MessageType.ALARM),
            func.count().filter(unread, Message.type == MessageType.SYSTEM),
            func.count().filter(Alarm.process_state == ProcessState.PENDING),
        )
    ).one()
    return {"total": row[0], "alarm": row[1], "system": row[2], "pendingAlarm": row[3]}


def mark_read(ids: list[int] | None) -> dict:
    """Mark the given messages (or all of the account's) read."""
    stmt = owned(select(Message), Message).where(Message.read_at.is_(None))
    if ids is not None:
        stmt = stmt.where(Message.id.in_(ids))
    now = utcnow()
    rows = db.session.scalars(stmt).all()
    for message in rows:
        message.read_at = now
    db.session.commit()
    return {"processed": len(rows)}


def process(ids: list[int], state: str, result: str | None) -> dict:
    """Batch processing of alarm messages: every id must be an alarm message of the caller, else
    nothing changes. Each decision is a new disposition row (who, when, what, comment): a later one
    never erases an earlier one; the latest is the alarm's state. Processing stops the alarm's
    escalation and marks the message read."""
    rows = db.session.scalars(owned(select(Message), Message).where(Message.id.in_(ids))).all()
    if len(rows) != len(set(ids)) or any(m.type != MessageType.ALARM or m.alarm is None for m in rows):
        raise not_found()
    now, who = utcnow(), require_account().id
    comment = (result or "").strip() or None
    closing_signed = fda_close_check(rows, state, comment)
    for message in rows:
        alarm = message.alarm
        db.session.add(
            AlarmDisposition(
                alarm_id=alarm.id, state=ProcessState(state), result=comment, account_id=who, created_at=now
            )
        )
        alarm.process_state = ProcessState(state)
        alarm.result = comment
        alarm.processed_by, alarm.processed_at = who, now
        message.read_at = message.read_at or now
        if closing_signed:
            record_event(
                require_account(),
                f"Alarm closed in FDA mode ({state})",
                target=f"alarm#{alarm.id}",
                details={"alarmId": alarm.id, "state": state, "reason": comment},
            )
    db.session.commit()
    return {"processed": len(rows)}


FINAL_STATES = (ProcessState.AGREED.value, ProcessState.REJECTED.value)


def fda_close_check(rows: list[Message], state: str, comment: str | None) -> bool:
    """FDA mode: closing an alarm (a final state) is signed (the gate asked the e-signature of the
    operation's gxp need) and states its reason in `result` (a localized 422 naming it). True when a
    close in FDA mode: it then goes on the audit trail with its reason."""
    if state not in FINAL_STATES or not any(gxp_mode(m.owner_account_id) for m in rows):
        return False
    if not comment:
        raise push.field_error("result", gettext("FDA mode: closing an alarm needs a reason."))
    return True


# ---- a device's alarms -------------------------------------------------------------------------------


def _shown(stmt, device):
    """Alarms of the sensors the caller may see: a share's template hides the others everywhere."""
    hidden = [int(sensor) for sensor in hidden_sensors(device)]
    return stmt.where(Alarm.sensor.is_(None) | Alarm.sensor.not_in(hidden)) if hidden else stmt


def device_status(device_id: int) -> dict:
    device = owned_device(device_id)
    open_alarms = db.session.scalars(
        _shown(select(Alarm), device)
        .where(Alarm.device_id == device.id, Alarm.status == AlarmStatus.OPEN)
        .order_by(Alarm.id.desc())
    ).all()
    pending = db.session.scalar(
        _shown(select(func.count()).select_from(Alarm), device).where(
            Alarm.device_id == device.id,
            Alarm.status != AlarmStatus.DELAYING,
            Alarm.process_state == ProcessState.PENDING,
        )
    )
    state = db.session.get(DeviceState, device.id)
    return {
        "deviceId": device.id,
        "alarmActive": bool(state and state.alarm_active),
        "open": with_details(list(open_alarms)),
        "pendingCount": pending,
        "smsCount": device.sms_count,
        "voiceCount": device.voice_count,
    }


def alarm_page(args: dict) -> dict:
    device = owned_device(args["deviceId"])
    stmt = _shown(select(Alarm), device).where(Alarm.device_id == device.id, Alarm.status != AlarmStatus.DELAYING)
    if args.get("status"):
        stmt = stmt.where(Alarm.status == AlarmStatus(args["status"]))
    found = paginate(stmt, args, Alarm.opened_at.desc(), Alarm.id.desc())
    with_details(list(found["list"]))
    return found


def owned_alarm(alarm_id: int) -> Alarm:
    alarm = db.session.get(Alarm, alarm_id)
    if alarm is None:
        raise not_found()
    device = owned_device(alarm.device_id)  # 404 unless the caller reaches the device
    if alarm.sensor is not None and str(alarm.sensor) in hidden_sensors(device):
        raise not_found()
    return alarm


def notifications(alarm_id: int) -> list[OutboundMessage]:
    """The outbox record of one alarm: what was sent to whom, when, or why not."""
    alarm = owned_alarm(alarm_id)
    return list(
        db.session.scalars(
            select(OutboundMessage).where(OutboundMessage.alarm_id == alarm.id).order_by(OutboundMessage.id)
        )
    )


def push_setting(device_id: int) -> dict:
    device = owned_device(device_id)
    return push.as_dict(device, db.session.get(PushSetting, device.id))


def save_push_setting(data: dict) -> dict:
    device = owned_device(data["device_id"], manage=True)
    setting = push.save(device, data)
    db.session.commit()
    return push.as_dict(device, setting)


def limits(device_id: int):
    device = owned_device(device_id)
    hidden = hidden_sensors(device)
    return [limit for limit in push.limits(device) if str(limit.sensor) not in hidden]


def limit_history(device_id: int) -> list[dict]:
    device = owned_device(device_id)
    hidden = hidden_sensors(device)
    return [period for period in limit_periods(device.id) if str(period["sensor"]) not in hidden]


def save_limits(device_id: int, rows: list[dict]):
    device = owned_device(device_id, manage=True)
    saved = push.save_limits(device, rows)
    db.session.commit()
    return saved


# ---- operator: rules and templates ---------------------------------------------------------------------


def rules(args: dict) -> list[AlarmRule]:
    stmt = select(AlarmRule).order_by(AlarmRule.device_type_id, AlarmRule.alarm_kind)
    if args.get("deviceTypeId"):
        stmt = stmt.where(AlarmRule.device_type_id == args["deviceTypeId"])
    if args.get("ruleClass"):
        stmt = stmt.where(AlarmRule.rule_class == args["ruleClass"])
    return list(db.session.scalars(stmt))


def save_rule(data: dict) -> AlarmRule:
    """One rule per device type and alarm kind: saving again updates it."""
    if db.session.get(DeviceType, data["device_type_id"]) is None:
        raise push.field_error("deviceTypeId", gettext("The requested resource does not exist."))
    if data.get("template_id") and db.session.get(MessageTemplate, data["template_id"]) is None:
        raise push.field_error("templateId", gettext("The requested resource does not exist."))
    rule = db.session.scalar(
        select(AlarmRule).where(
            AlarmRule.device_type_id == data["device_type_id"], AlarmRule.alarm_kind == data["alarm_kind"]
        )
    ) or AlarmRule(device_type_id=data["device_type_id"], alarm_kind=data["alarm_kind"])
    for key, value in data.items():
        setattr(rule, key, value)
    db.session.add(rule)
    db.session.commit()
    return rule


def delete_rule(rule_id: int) -> None:
    rule = db.session.get(AlarmRule, rule_id)
    if rule is None:
        raise not_found()
    db.session.delete(rule)
    db.session.commit()


def templates() -> list[MessageTemplate]:
    return list(db.session.scalars(select(MessageTemplate).order_by(MessageTemplate.id)))


def save_template(data: dict) -> MessageTemplate:
    template = db.session.get(MessageTemplate, data["id"]) if data.get("id") is not None else MessageTemplate()
    if template is None:
        raise not_found()
    clash = db.session.scalar(
        select(MessageTemplate.id).where(
            MessageTemplate.msg_name == data["msg_name"], MessageTemplate.id != data.get("id")
        )
    )
    if clash is not None:
        raise push.field_error("msgName", gettext("This name is already used."))
    template.msg_name, template.type, template.content = data["msg_name"], data["type"], data["content"]
    db.session.add(template)
    db.session.commit()
    return template
