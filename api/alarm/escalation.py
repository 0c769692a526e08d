"""Who is told, when and how: levels at their minute marks after the alarm opened (plus the push
delay), repeats at the interval (or, with `repeat_until_ack`, every level reached repeats until the
alarm is acknowledged, at most ACK_REPEAT_LIMIT times), only while the alarm is open, unprocessed and
unacknowledged, only inside the
scheduled hours unless the alarm kind is marked urgent. Each send is an outbox row with a unique
key (alarm, level, channel, recipient, repeat), so planning twice writes nothing twice."""

from __future__ import annotations

from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from sqlalchemy import or_, select, update

from api.alarm.ack import with_ack
from api.alarm.guests import Guest, device_conditions, guests
from api.alarm.models import Alarm, AlarmKind, AlarmStatus, Message, MessageType, ProcessState, PushSetting
from api.alarm.recipients import level_recipients
from api.alarm.rules import Rule, rules_for_type
from api.alarm.texts import render, render_back_in_range, webhook_body
from api.device.models import Device
from api.extensions.db import db, one_of, utcnow
from api.notify.models import Channel, OutboundMessage
from api.notify.services import add_message, give_up, send_after_commit

MAX_LEVELS = 3
WEBHOOK_SECRET = "push_setting"  # the outbox's secret_ref kind of alarm webhooks
BALANCE = {Channel.SMS: "sms_count", Channel.VOICE: "voice_count"}
# Repeat until acknowledged: at most this many repeats per level (288 at a 5-minute interval is a day).
ACK_REPEAT_LIMIT = 288


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
    cap = ACK_REPEAT_LIMIT if setting.repeat_until_ack else setting.repeat_count
    return min(cap, int((now - mark) / interval))


def push_settings(device_ids: list[int]) -> dict[int, PushSetting]:
    """The push settings of many devices in one query (a device without one is absent)."""
    rows = db.session.scalars(select(PushSetting).where(one_of(PushSetting.device_id, device_ids)))
    return {setting.device_id: setting for setting in rows}


_LOOK_UP = object()


def plan_sends(alarm: Alarm, now: datetime, setting: PushSetting | object | None = _LOOK_UP) -> list[int]:
    """Write the outbox rows due now for this alarm; returns the ids of new rows (sent after commit).
    `setting`: the device's push setting when the caller loaded it already (None: it has none).
    Guests (api/alarm/guests.py) are told at the first level's mark even when the device has no setting."""
    if alarm.status != AlarmStatus.OPEN or alarm.process_state != ProcessState.PENDING or alarm.opened_at is None:
        return []
    if alarm.acknowledged_at is not None:
        return []  # acknowledged: no more repeats, no further level
    if setting is _LOOK_UP:
        setting = db.session.get(PushSetting, alarm.device_id)
    if setting is not None and (not setting.enabled or not setting.channels):
        setting = None
    visitors = guests(alarm, now)
    if setting is None and not visitors:
        return []
    device = db.session.get(Device, alarm.device_id)
    if retired(device):
        return []  # a disabled or scrapped device sends nothing (its alarms are closed with the reason)
    if (
        setting is not None
        and not in_schedule(setting, now, device.time_zone)
        and alarm.kind.value not in (setting.urgent_kinds or [])
    ):
        return []
    rule = rules_for_type(device.device_type_id)[alarm.kind]
    created: list[int] = []
    if setting is not None:
        created += _plan_setting(alarm, device, rule, setting, now)
    if visitors:
        created += _plan_guests(alarm, device, rule, setting, visitors, now)
    return created


def _plan_setting(alarm: Alarm, device: Device, rule: Rule, setting: PushSetting, now: datetime) -> list[int]:
    levels = (setting.level_minutes or [0])[: MAX_LEVELS if setting.multi_level else 1]
    base = alarm.opened_at + timedelta(minutes=setting.delay_minutes)
    created: list[int] = []
    for level, minutes in enumerate(levels, 1):
        repeat = due_repeat(base + timedelta(minutes=minutes), now, setting)
        if repeat is None:
            continue
        alarm.level_reached = max(alarm.level_reached, level)
        recipients = level_recipients(setting, level, device, now)
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


def _plan_guests(
    alarm: Alarm, device: Device, rule: Rule, setting: PushSetting | None, visitors: list[Guest], now: datetime
) -> list[int]:
    """Level 1 for the guests: an SMS to each phone and an email to each address, at the setting's first
    mark and repeats (no setting: at once, once). The dedupe key is the one a push-setting recipient with
    the same address gets, so nobody is told twice."""
    if setting is None:
        repeat = 0 if now >= alarm.opened_at else None
    else:
        first = (setting.level_minutes or [0])[0]
        mark = alarm.opened_at + timedelta(minutes=setting.delay_minutes + first)
        repeat = due_repeat(mark, now, setting)
    if repeat is None:
        return []
    alarm.level_reached = max(alarm.level_reached, 1)
    created: list[int] = []
    for guest in visitors:
        for channel, address in ((Channel.SMS, guest.phone), (Channel.EMAIL, guest.email)):
            if not address:
                continue
            subject, body = render(alarm, device, rule, channel, guest.lang, 1)
            created += _write(alarm, device, channel, 1, address, address, repeat, subject, body, guest.lang)
    return created


def plan_back_in_range(alarm: Alarm, value: float | None, at: datetime) -> list[int]:
    """The value is within its limits again: a notice, once, to the recipients of every level that was
    notified (levels 1..level_reached, on the setting's channels), through the outbox like the alarm's
    sends (dedupe key alarm:{id}:back:{channel}:{recipient}); nothing for a disabled or scrapped device."""
    if alarm.level_reached < 1 or alarm.kind not in (AlarmKind.UPPER, AlarmKind.LOWER):
        return []
    setting = db.session.get(PushSetting, alarm.device_id)
    device = db.session.get(Device, alarm.device_id)
    if setting is None or not setting.enabled or retired(device):
        return []
    rule = rules_for_type(device.device_type_id)[alarm.kind]
    created: list[int] = []
    for value_of_channel in setting.channels:
        channel = Channel(value_of_channel)
        if channel == Channel.WEBHOOK:
            if setting.webhook_url:
                body = webhook_body(alarm, device, rule, alarm.level_reached, "alarm.back_in_range", backValue=value)
                created += _write_notice(alarm, device, channel, "webhook", setting.webhook_url, None, body)
            continue
        for recipient in setting.recipients:
            address = recipient.email if channel == Channel.EMAIL else recipient.phone
            if recipient.level > alarm.level_reached or not address:
                continue
            subject, body = render_back_in_range(alarm, device, rule, recipient.lang, value, at)
            created += _write_notice(alarm, device, channel, address, address, subject, body, recipient.lang)
    return created


def _write_notice(alarm, device, channel, who, address, subject, body, lang=None) -> list[int]:
    return _queue(alarm, device, channel, address, subject, body, lang, f"alarm:{alarm.id}:back:{channel.value}:{who}")


def retired(device: Device | None) -> bool:
    return device is None or not device.enabled or device.scrapped_at is not None or device.deleted


def retired_device_send(message: OutboundMessage) -> str | None:
    """Send guard of the outbox (registered in api.alarm): an alarm's send whose device was disabled or
    scrapped after it was planned is withheld (checked at send time, not only at disable time)."""
    if message.alarm_id is None:
        return None
    device_id = db.session.scalar(select(Alarm.device_id).where(Alarm.id == message.alarm_id))
    device = db.session.get(Device, device_id) if device_id is not None else None
    return "device disabled or scrapped" if device is not None and retired(device) else None


def _write(alarm, device, channel, level, who, address, repeat, subject, body, lang=None) -> list[int]:
    key = f"alarm:{alarm.id}:L{level}:{channel.value}:{who}:R{repeat}"
    body = with_ack(alarm, channel, body, address, lang)
    return _queue(alarm, device, channel, address, subject, body, lang, key, tell_balance=True)


def _queue(alarm, device, channel, address, subject, body, lang, dedupe_key, tell_balance=False) -> list[int]:
    """One outbox row of the alarm, once per dedupe key, paid from the device's SMS / voice balance
    (none left: given up, and with `tell_balance` the owner is told); sent after the commit."""
    new_id = add_message(
        alarm.platform_id,
        channel,
        address,
        body,
        subject=subject,
        dedupe_key=dedupe_key,
        alarm_id=alarm.id,
        lang=lang,
        secret_ref=f"{WEBHOOK_SECRET}:{device.id}" if channel == Channel.WEBHOOK else None,
        dispatch=False,
    )
    if new_id is None:
        return []  # planned before: nothing twice
    if channel in BALANCE and not _spend(device, channel):
        give_up(new_id, f"{channel.value} balance exhausted")
        if tell_balance:
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


def escalate(now: datetime, batch: int = 1000) -> int:
    """The periodic pass: every open, unprocessed alarm of a device with a push setting or guests gets
    the sends now due (level marks, repeats, sends held back by the scheduled hours). Returns the number
    of new outbox rows."""
    rows = db.session.scalars(
        select(Alarm)
        .where(
            Alarm.status == AlarmStatus.OPEN,
            Alarm.process_state == ProcessState.PENDING,
            Alarm.acknowledged_at.is_(None),
            or_(Alarm.device_id.in_(select(PushSetting.device_id)), *device_conditions(now)),
        )
        .join(Device, Device.id == Alarm.device_id)
        .where(Device.enabled.is_(True), Device.scrapped_at.is_(None), Device.deleted.is_(False))
        .order_by(Alarm.id)
        .limit(batch)
    ).all()
    created = 0
    for alarm in rows:
        created += len(plan_sends(alarm, now))
    db.session.commit()
    return created
