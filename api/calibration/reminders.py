"""Calibration due reminders (issue 48): 30, 7 and 1 days before a probe certificate's due date, the
device's owner gets an email and a system message with a one-click link to a calibration order for
that device (the order form, prefilled). Only a probe's latest certificate reminds (a superseded one
is not due); each certificate and threshold is sent once (`CalibrationReminder`, unique; the outbox's
dedupe key too), whatever how often or how late the periodic job runs: a certificate found 5 days
before its due date gets the 7-day reminder only, then the 1-day one."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from flask_babel import force_locale, gettext
from sqlalchemy import select

from api.alarm.models import Message, MessageType
from api.calibration.models import ApplicationItem, CalibrationReminder, Certificate, ProbeCalibration
from api.calibration.probes import probe_units
from api.device.models import Device
from api.extensions.db import db
from api.extensions.i18n import local_text
from api.identity.models import Account
from api.notify.models import Channel
from api.notify.services import add_message
from api.platform.links import public_url
from api.platform.models import Platform
from api.telemetry.calibration import ProbeCertificate, probe_certificates

REMINDER_DAYS = (30, 7, 1)
MESSAGE_CODE = "calibration.due"


def due_threshold(due_at: datetime, now: datetime) -> int | None:
    """The smallest of REMINDER_DAYS not less than the time left (None once due or further off)."""
    left = due_at - now
    if left <= timedelta(0):
        return None
    due = [days for days in REMINDER_DAYS if left <= timedelta(days=days)]
    return min(due) if due else None


def order_link(platform: Platform, device: Device) -> str:
    """The calibration order form for the device, prefilled (web: /calibration/form?deviceGuid=)."""
    return public_url(platform, f"/calibration/form?deviceGuid={device.guid}")


def _devices_due(now: datetime) -> set[int]:
    horizon = now + timedelta(days=max(REMINDER_DAYS))
    lab = select(ApplicationItem.device_id).join(Certificate, Certificate.item_id == ApplicationItem.id)
    lab = lab.where(
        ApplicationItem.device_id.is_not(None), Certificate.next_due_at > now, Certificate.next_due_at <= horizon
    )
    outside = select(ProbeCalibration.device_id).where(
        ProbeCalibration.due_at > now, ProbeCalibration.due_at <= horizon
    )
    return set(db.session.scalars(lab)) | set(db.session.scalars(outside))


def _latest(device_id: int) -> list[tuple[ProbeCertificate, list[int]]]:
    """Each certificate that is the latest of one of the device's probes, with those probes."""
    latest: dict[str, tuple[ProbeCertificate, list[int]]] = {}
    for sensor, certificates in probe_certificates(device_id, sorted(probe_units(device_id))).items():
        if certificates:
            cert = certificates[-1]
            latest.setdefault(cert.key, (cert, []))[1].append(sensor)
    return list(latest.values())


def send_reminders(now: datetime) -> int:
    """Write the reminders due now (outbox rows and system messages); returns how many are new."""
    sent = 0
    for device_id in sorted(_devices_due(now)):
        device = db.session.get(Device, device_id)
        if device is None or device.deleted or device.owner_account_id is None:
            continue
        owner = db.session.get(Account, device.owner_account_id)
        platform = db.session.get(Platform, device.platform_id)
        for cert, sensors in _latest(device_id):
            days = due_threshold(cert.due_at, now)
            if days is None or _already_sent(cert.key, days):
                continue
            db.session.add(CalibrationReminder(cert_key=cert.key, days=days, sent_at=now))
            link = order_link(platform, device)
            _email(platform, owner, device, cert, days, link)
            db.session.add(
                Message(
                    platform_id=device.platform_id,
                    owner_account_id=owner.id,
                    type=MessageType.SYSTEM,
                    device_id=device.id,
                    code=MESSAGE_CODE,
                    params={
                        "device": device.name or device.guid,
                        "number": cert.number,
                        "days": days,
                        "sensors": sensors,
                        "dueAt": cert.due_at.isoformat(),
                        "link": link,
                    },
                    created_at=now,
                )
            )
            sent += 1
    db.session.commit()
    return sent


def _already_sent(key: str, days: int) -> bool:
    return (
        db.session.scalar(
            select(CalibrationReminder.id).where(CalibrationReminder.cert_key == key, CalibrationReminder.days == days)
        )
        is not None
    )


def _email(platform: Platform, owner: Account, device: Device, cert: ProbeCertificate, days: int, link: str) -> None:
    if not owner.email:
        return
    lang = platform.default_locale or "zh-CN"
    with force_locale(lang.replace("-", "_")):
        name = device.name or device.guid
        due = local_text(cert.due_at, ZoneInfo(device.time_zone), seconds=False)
        subject = gettext("The calibration of %(device)s is due in %(days)s days", device=name, days=days)
        body = gettext(
            "Certificate %(number)s of %(device)s (%(guid)s) is due on %(time)s. Readings taken after that "
            "are marked 'calibration overdue' in charts, exports and reports. Order its calibration: %(link)s",
            number=cert.number,
            device=name,
            guid=device.guid,
            time=due,
            link=link,
        )
    add_message(
        platform.id,
        Channel.EMAIL,
        owner.email,
        body,
        subject=subject,
        dedupe_key=f"calibration-due:{cert.key}:D{days}",
        lang=lang,
    )
