"""Who is told, when and how: levels at their minute marks after the alarm opened (plus the push
delay), repeats at the interval, only while the alarm is open and unprocessed, only inside the
scheduled hours unless the alarm kind is marked urgent. Each send is an outbox row with a unique
key (alarm, level, channel, recipient, repeat), so planning twice writes nothing twice."""

from __future__ import annotations

import json
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from flask_babel import force_locale, gettext
from sqlalchemy import select, update

from api.alarm.models import Alarm, AlarmKind, AlarmStatus, Message, MessageType, ProcessState, PushSetting
from api.alarm.rules import Rule, rules_for_type, template
from api.device.models import Device
from api.extensions.db import db, one_of, utcnow
from api.extensions.i18n import local_text
from api.notify.models import Channel, OutboundMessage
from api.notify.services import add_message, give_up, send_after_commit

MAX_LEVELS = 3
WEBHOOK_SECRET = "push_setting"  # the outbox's secret_ref kind of alarm webhooks
BALANCE = {Channel.SMS: "sms_count", Channel.VOICE: "voice_count"}
KIND_TEXT = {
    AlarmKind.UPPER: "Above the upper limit",
    AlarmKind.LOWER: "Below the lower limit",
    AlarmKind.OFFLINE: "Device offline",
    AlarmKind.BATTERY: "Low battery",
    AlarmKind.FAULT: "Probe fault",
    AlarmKind.FENCE: "Electric fence crossed",
}


def kind_text(kind: AlarmKind) -> str:
    return gettext(KIND_TEXT[kind])


# Extraction markers for the texts above (gettext needs the literal strings).
_MARKERS = (
    lambda: gettext("Above the upper limit"),
    lambda: gettext("Below the lower limit"),
    lambda: gettext("Device offline"),
    lambda: gettext("Low battery"),
    lambda: gettext("Probe fault"),
    lambda: gettext("Electric fence crossed"),
)


def in_schedule(setting: PushSetting, now: datetime, zone_name: str) -> bool:
    if not setting.schedule_start or not setting.schedule_end or setting.schedule_start == setting.schedule_end:
        return True
    local = now.astimezone(ZoneInfo(zone_name)).time()
    start, end = time.fromisoformat(setting.schedule_start), time.fromisoformat(setting.schedule_end)
    return start <= local < end if start < end else (local >= start or local < end)


def due_repeat(mark: datetime, now: datetime, setting: PushSetting) -> int | None:
    """The repeat index due at `now` for a level whose mark is `mark` (None: not yet)."""
    if now < mark:
        return None
    interval = timedelta(minutes=max(setting.interval_minutes, 1))
    return min(setting.repeat_count, int((now - mark) / interval))


def push_settings(device_ids: list[int]) -> dict[int, PushSetting]:
    """The push settings of many devices in one query (a device without one is absent)."""
    rows = db.session.scalars(select(PushSetting).where(one_of(PushSetting.device_id, device_ids)))
    return {setting.device_id: setting for setting in rows}


_LOOK_UP = object()


def plan_sends(alarm: Alarm, now: datetime, setting: PushSetting | object | None = _LOOK_UP) -> list[int]:
    """Write the outbox rows due now for this alarm; returns the ids of new rows (sent after commit).
    `setting`: the device's push setting when the caller loaded it already (None: it has none)."""
    if alarm.status != AlarmStatus.OPEN or alarm.process_state != ProcessState.PENDING or alarm.opened_at is None:
        return []
    if setting is _LOOK_UP:
        setting = db.session.get(PushSetting, alarm.device_id)
    if setting is None or not setting.enabled or not setting.channels:
        return []
    device = db.session.get(Device, alarm.device_id)
    if not in_schedule(setting, now, device.time_zone) and alarm.kind.value not in (setting.urgent_kinds or []):
        return []
    rule = rules_for_type(device.device_type_id)[alarm.kind]
    levels = (setting.level_minutes or [0])[: MAX_LEVELS if setting.multi_level else 1]
    base = alarm.opened_at + timedelta(minutes=setting.delay_minutes)
    created: list[int] = []
    for level, minutes in enumerate(levels, 1):
        repeat = due_repeat(base + timedelta(minutes=minutes), now, setting)
        if repeat is None:
            continue
        alarm.level_reached = max(alarm.level_reached, level)
        recipients = [r for r in setting.recipients if r.level == level]
        for value in setting.channels:
            channel = Channel(value)
            if channel == Channel.WEBHOOK:
                if setting.webhook_url:
                    body = webhook_body(alarm, device, rule, level)
                    created += _write(alarm, device, channel, level, "webhook", setting.webhook_url, repeat, None, body)
                continue
            for recipient in recipients:
                address = recipient.email if channel == Channel.EMAIL else recipient.phone
                if not address:
                    continue
                subject, body = render(alarm, device, rule, channel, recipient.lang, level)
                created += _write(
                    alarm, device, channel, level, address, address, repeat, subject, body, recipient.lang
                )
    return created


def _write(alarm, device, channel, level, who, address, repeat, subject, body, lang=None) -> list[int]:
    new_id = add_message(
        alarm.platform_id,
        channel,
        address,
        body,
        subject=subject,
        dedupe_key=f"alarm:{alarm.id}:L{level}:{channel.value}:{who}:R{repeat}",
        alarm_id=alarm.id,
        lang=lang,
        secret_ref=f"{WEBHOOK_SECRET}:{device.id}" if channel == Channel.WEBHOOK else None,
        dispatch=False,
    )
    if new_id is None:
        return []  # planned before: nothing twice
    if channel in BALANCE and not _spend(device, channel):
        give_up(new_id, f"{channel.value} balance exhausted")
        _balance_message(alarm, device, channel)
        return []
    send_after_commit(new_id)
    return [new_id]


def _spend(device: Device, channel: Channel) -> bool:
    column = getattr(Device, BALANCE[channel])
    spent = db.session.execute(
        update(Device).where(Device.id == device.id, column > 0).values({column: column - 1})
    ).rowcount
    db.session.expire(device, [BALANCE[channel]])
    return bool(spent)


def spend_unit(device: Device, channel: Channel) -> bool:
    """Take one SMS / voice unit of the device's balance for a send of another area's alarm (a
    storage's MKT alarm); False when the balance is spent. Other channels cost nothing."""
    return _spend(device, channel) if channel in BALANCE else True


def refund(device_id: int, channel: Channel) -> None:
    """A send that finally failed gives its SMS / voice unit back."""
    if channel in BALANCE:
        column = getattr(Device, BALANCE[channel])
        db.session.execute(update(Device).where(Device.id == device_id).values({column: column + 1}))


BALANCE_MESSAGE_EVERY = timedelta(days=1)


def refund_failed(message: OutboundMessage) -> None:
    """Failure hook of the outbox (registered in api.alarm): an alarm's SMS / voice row given up."""
    if message.alarm_id is not None and message.channel in BALANCE:
        alarm = db.session.get(Alarm, message.alarm_id)
        if alarm is not None:
            refund(alarm.device_id, message.channel)


def webhook_secret(device_id: str) -> str | None:
    """Secret resolver of the outbox (registered in api.alarm) for refs "push_setting:<device id>"."""
    setting = db.session.get(PushSetting, int(device_id))
    return setting.webhook_secret if setting else None


def _balance_message(alarm: Alarm, device: Device, channel: Channel) -> None:
    """The balance is spent: one system message per device per day (the first alarm not sent is
    named), not one per alarm, so an empty balance never floods the inbox."""
    code = f"balance.{channel.value}"
    seen = db.session.scalar(
        select(Message.id)
        .where(
            Message.device_id == device.id,
            Message.code.startswith("balance."),
            Message.created_at >= utcnow() - BALANCE_MESSAGE_EVERY,
        )
        .limit(1)
    )
    if seen is None and device.owner_account_id is not None:
        db.session.add(
            Message(
                platform_id=device.platform_id,
                owner_account_id=device.owner_account_id,
                type=MessageType.SYSTEM,
                device_id=device.id,
                code=code,
                params={"alarmId": alarm.id, "channel": channel.value},
                created_at=utcnow(),
            )
        )


# ---- rendering ---------------------------------------------------------------------------------------


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:g}"


def text_fields(alarm: Alarm, device: Device, rule: Rule, level: int) -> dict[str, str]:
    """The placeholders of a template; call inside the recipient's locale."""
    # With its offset: a time in the DST change hour is otherwise ambiguous.
    opened = local_text(alarm.opened_at, ZoneInfo(device.time_zone), seconds=False)
    return {
        "device": device.name or device.guid,
        "guid": device.guid,
        "sensor": "" if alarm.sensor is None else str(alarm.sensor),
        "value": _fmt(alarm.last_value),
        "limit": _fmt(alarm.limit_value),
        "time": opened,
        "level": str(level),
        "alarm": rule.name or kind_text(alarm.kind),
    }


def render(alarm: Alarm, device: Device, rule: Rule, channel: Channel, lang: str, level: int) -> tuple[str, str]:
    """(subject, body) in the recipient's language: the rule's template for this channel if it has
    one in that language, else the built-in text."""
    locale = "en_US" if lang.lower().startswith("en") else "zh_CN"
    with force_locale(locale):
        fields = text_fields(alarm, device, rule, level)
        subject = gettext("Alarm: %(alarm)s - %(device)s", alarm=fields["alarm"], device=fields["device"])
        chosen = template(rule.template_id)
        pattern = None
        if chosen is not None and chosen.type == channel.value:
            pattern = chosen.content.get(lang) or chosen.content.get("zh-CN" if locale == "zh_CN" else "en-US")
        if pattern:
            try:
                return subject, pattern.format_map(fields)
            except (KeyError, ValueError, IndexError):
                pass  # a broken template must not lose the alarm: fall back to the built-in text
        extra = " " + rule.content if rule.content else ""
        body = gettext(
            "%(alarm)s: %(device)s (%(guid)s) sensor %(sensor)s value %(value)s, limit %(limit)s, since %(time)s "
            "(level %(level)s).",
            **fields,
        )
        return subject, body + extra


def webhook_body(alarm: Alarm, device: Device, rule: Rule, level: int) -> str:
    return json.dumps(
        {
            "event": "alarm.opened",
            "alarmId": alarm.id,
            "level": level,
            "kind": alarm.kind.value,
            "deviceGuid": device.guid,
            "deviceName": device.name,
            "sensor": alarm.sensor,
            "value": alarm.last_value,
            "peak": alarm.peak_value,
            "limit": alarm.limit_value,
            "openedAt": alarm.opened_at.isoformat(),
        },
        ensure_ascii=False,
    )


def escalate(now: datetime, batch: int = 1000) -> int:
    """The periodic pass: every open, unprocessed alarm gets the sends now due (level marks,
    repeats, sends held back by the scheduled hours). Returns the number of new outbox rows."""
    rows = db.session.scalars(
        select(Alarm)
        .where(Alarm.status == AlarmStatus.OPEN, Alarm.process_state == ProcessState.PENDING)
        .join(PushSetting, PushSetting.device_id == Alarm.device_id)
        .order_by(Alarm.id)
        .limit(batch)
    ).all()
    created = 0
    for alarm in rows:
        created += len(plan_sends(alarm, now))
    db.session.commit()
    return created
