"""Service-expiry notices: the owner of a device whose service ends in 30, 7 or 1 days is told once
per reminder (email and SMS through the outbox; the dedupe key names device, expiry date and
reminder, so a run repeated or overlapping writes nothing twice)."""

from __future__ import annotations

import calendar
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from flask_babel import force_locale, gettext
from sqlalchemy import select

from api.device.models import Device
from api.extensions.db import db
from api.extensions.i18n import local_text
from api.identity.models import Account
from api.notify.models import Channel
from api.notify.services import add_message
from api.platform.models import Platform

REMINDER_DAYS = (30, 7, 1)
SERVICE_PERIOD = timedelta(days=365)  # the first year a claimed device gets
DATA_GRACE = timedelta(days=91)  # uploads continue three months after service expiry


def add_months(moment: datetime, months: int) -> datetime:
    """The same day `months` later (the month's last day when it is shorter: Jan 31 + 1 = Feb 28)."""
    index = moment.month - 1 + months
    year, month = moment.year + index // 12, index % 12 + 1
    return moment.replace(year=year, month=month, day=min(moment.day, calendar.monthrange(year, month)[1]))


def extend_service(
    device: Device, now: datetime, *, months: int = 0, days: int = 0, sms: int = 0, voice: int = 0
) -> tuple[datetime | None, datetime]:
    """Extend a device's service (paid orders, recharge cards, offline purchases, free service): from
    its current end, or from now when it has already ended; the data window follows, and SMS / voice
    counts are credited. Returns the expiry before and after."""
    before = device.service_expires_at
    start = before if before is not None and before > now else now
    device.service_expires_at = add_months(start, months) + timedelta(days=days)
    device.data_expires_at = device.service_expires_at + DATA_GRACE
    device.sms_count += sms
    device.voice_count += voice
    return before, device.service_expires_at


def reverse_service(
    device: Device, given: timedelta, *, sms: int = 0, voice: int = 0
) -> tuple[datetime | None, datetime | None, int, int]:
    """Take back what one extension gave (a refund): `given` off the device's service end, wherever
    later extensions moved it since (they keep what they gave), the data window following, and the SMS
    / voice counts credited, as far as they are unused. Returns the expiry before and after and the SMS
    and voice counts actually taken back."""
    before = device.service_expires_at
    if before is not None:
        device.service_expires_at = before - given
        device.data_expires_at = device.service_expires_at + DATA_GRACE
    sms_taken, voice_taken = min(sms, max(device.sms_count, 0)), min(voice, max(device.voice_count, 0))
    device.sms_count -= sms_taken
    device.voice_count -= voice_taken
    return before, device.service_expires_at, sms_taken, voice_taken


def due_reminder(expires_at: datetime, now: datetime) -> int | None:
    """The reminder due now: the smallest of REMINDER_DAYS not less than the time left (None when
    the service has ended or ends later than the first reminder)."""
    left = expires_at - now
    if left <= timedelta(0):
        return None
    due = [days for days in REMINDER_DAYS if left <= timedelta(days=days)]
    return min(due) if due else None


def send_expiry_notices(now: datetime) -> int:
    """Write the reminders due now; returns how many outbox rows are new (sent after commit)."""
    rows = db.session.execute(
        select(Device, Account, Platform)
        .join(Account, Account.id == Device.owner_account_id)
        .join(Platform, Platform.id == Device.platform_id)
        .where(
            Device.deleted.is_(False),
            Device.service_expires_at > now,
            Device.service_expires_at <= now + timedelta(days=max(REMINDER_DAYS)),
        )
        .order_by(Device.id)
    ).all()
    due = [
        (device, owner, platform, days)
        for device, owner, platform in rows
        if (days := due_reminder(device.service_expires_at, now)) is not None
    ]
    texts = _reminder_texts(due)
    written = 0
    for device, owner, platform, days in due:
        subject, body = texts[device.id]
        key = f"expiry:{device.id}:{device.service_expires_at:%Y%m%d%H%M}:D{days}"
        for channel, address in ((Channel.EMAIL, owner.email), (Channel.SMS, owner.phone)):
            if address and add_message(
                platform.id,
                channel,
                address,
                body,
                subject=subject if channel == Channel.EMAIL else None,
                dedupe_key=f"{key}:{channel.value}",
                lang=_language(platform),
            ):
                written += 1
    db.session.commit()
    return written


def _language(platform: Platform) -> str:
    return platform.default_locale or "zh-CN"


def _reminder_texts(due: list[tuple[Device, Account, Platform, int]]) -> dict[int, tuple[str, str]]:
    """Each due reminder's subject and body, by device, in its platform's language. The locale is
    entered once per language, not per device: entering it cost about half of a run over 2,000 due
    devices (bench/fleet.py, expiry_sweep_100k_ms)."""
    by_language: dict[str, list[tuple[Device, int]]] = {}
    for device, _owner, platform, days in due:
        by_language.setdefault(_language(platform), []).append((device, days))
    texts = {}
    for lang, reminders in by_language.items():
        with force_locale(lang.replace("-", "_")):
            for device, days in reminders:
                ends = local_text(device.service_expires_at, ZoneInfo(device.time_zone), seconds=False)
                name = device.name or device.guid
                subject = gettext("The service of %(device)s ends in %(days)s days", device=name, days=days)
                body = gettext(
                    "The service of %(device)s (%(guid)s) ends on %(time)s. Renew it to keep receiving its data "
                    "and alarms; three months after the end its data can no longer be viewed or downloaded.",
                    device=name,
                    guid=device.guid,
                    time=ends,
                )
                texts[device.id] = (subject, body)
    return texts
