"""Notifications of a storage's MKT alarm through the outbox, like every other alarm: the storage's
push setting (its controller's, else its first device's: the push-setting tab) decides the levels,
channels, recipients, repeats, delay and scheduled hours; each send is one outbox row whose dedupe key
names the storage alarm, level, channel, recipient and repeat, so a pass planned twice (or a job
retried after a crash) writes and sends nothing twice. SMS and voice spend the device's balance."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from flask_babel import force_locale, gettext

from api.alarm.escalation import MAX_LEVELS, WEBHOOK_SECRET, due_repeat, in_schedule, spend_unit
from api.alarm.models import PushSetting
from api.alarm.recipients import level_recipients
from api.device.models import Device
from api.extensions.db import db
from api.extensions.i18n import local_text
from api.notify.models import Channel
from api.notify.services import add_message, give_up, send_after_commit
from api.storage.models import ColdStorage, StorageAlarm, StorageAlarmStatus

KIND = "mkt"  # what `urgent_kinds` names to send outside the scheduled hours


def push_device(storage: ColdStorage) -> Device | None:
    """The device whose push setting is the storage's (the push-setting tab shows and saves it)."""
    ordered = [storage.controller_device_id] + [p.device_id for p in storage.probes]
    for device_id in dict.fromkeys(i for i in ordered if i is not None):
        device = db.session.get(Device, device_id)
        if device is not None and not device.deleted:
            return device
    return None


def render(alarm: StorageAlarm, storage: ColdStorage, lang: str, level: int) -> tuple[str, str]:
    locale = "en_US" if (lang or "").lower().startswith("en") else "zh_CN"
    with force_locale(locale):
        fields = {
            "storage": storage.name,
            "hours": str(alarm.window_hours),
            "value": f"{alarm.last_value:g}",
            "limit": f"{alarm.limit_value:g}",
            "time": local_text(alarm.opened_at, ZoneInfo(storage.time_zone), seconds=False),
            "level": str(level),
        }
        subject = gettext("Alarm: MKT above its limit - %(storage)s", storage=storage.name)
        body = gettext(
            "%(storage)s: the mean kinetic temperature of the last %(hours)s h is %(value)s °C, above the limit "
            "%(limit)s °C, since %(time)s (level %(level)s).",
            **fields,
        )
    return subject, body


def webhook_body(alarm: StorageAlarm, storage: ColdStorage, level: int) -> str:
    return json.dumps(
        {
            "event": "storage.mkt.opened",
            "storageAlarmId": alarm.id,
            "storageId": storage.id,
            "storageName": storage.name,
            "level": level,
            "kind": KIND,
            "windowHours": alarm.window_hours,
            "value": alarm.last_value,
            "peak": alarm.peak_value,
            "limit": alarm.limit_value,
            "openedAt": alarm.opened_at.isoformat(),
        },
        ensure_ascii=False,
    )


def plan_sends(alarm: StorageAlarm, storage: ColdStorage, now: datetime) -> list[int]:
    """Write the outbox rows due now for an open storage alarm; ids of new rows (sent after commit)."""
    if alarm.status != StorageAlarmStatus.OPEN:
        return []
    device = push_device(storage)
    setting = db.session.get(PushSetting, device.id) if device is not None else None
    if setting is None or not setting.enabled or not setting.channels:
        return []
    if not in_schedule(setting, now, storage.time_zone) and KIND not in (setting.urgent_kinds or []):
        return []
    levels = (setting.level_minutes or [0])[: MAX_LEVELS if setting.multi_level else 1]
    base = alarm.opened_at + timedelta(minutes=setting.delay_minutes)
    created: list[int] = []
    for level, minutes in enumerate(levels, 1):
        repeat = due_repeat(base + timedelta(minutes=minutes), now, setting)
        if repeat is None:
            continue
        for value in setting.channels:
            channel = Channel(value)
            if channel == Channel.WEBHOOK:
                if setting.webhook_url:
                    body = webhook_body(alarm, storage, level)
                    key = f"storage-alarm:{alarm.id}:L{level}:webhook:R{repeat}"
                    created += _write(storage, device, channel, setting.webhook_url, None, body, key, None)
                continue
            for recipient in level_recipients(setting, level, device, now):
                address = recipient.email if channel == Channel.EMAIL else recipient.phone
                if not address:
                    continue
                subject, body = render(alarm, storage, recipient.lang, level)
                key = f"storage-alarm:{alarm.id}:L{level}:{channel.value}:{address}:R{repeat}"
                created += _write(storage, device, channel, address, subject, body, key, recipient.lang)
    return created


def _write(storage, device, channel, address, subject, body, key, lang) -> list[int]:
    new_id = add_message(
        storage.platform_id,
        channel,
        address,
        body,
        subject=subject,
        dedupe_key=key,
        lang=lang,
        secret_ref=f"{WEBHOOK_SECRET}:{device.id}" if channel == Channel.WEBHOOK else None,
        dispatch=False,
    )
    if new_id is None:
        return []  # planned before: nothing twice
    if not spend_unit(device, channel):
        give_up(new_id, f"{channel.value} balance exhausted")
        return []
    send_after_commit(new_id)
    return [new_id]
