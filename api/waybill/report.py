"""The trip report of a waybill through the existing export machinery (api/report): a report kind
resolving the waybill into one subject (its device, its window, its limits), plus the waybill's own
sections in the PDF (numbers, disposition, fence events with their coordinates, the track as a
table). CSV / XLSX carry the readings of the window; everything lands in the download centre."""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from flask import current_app, has_request_context
from flask_babel import force_locale, gettext
from sqlalchemy import select

from api.device.models import Device
from api.extensions.db import db, utcnow
from api.extensions.i18n import N_, local_text
from api.extensions.smorest import ApiError
from api.identity.auth import require_account
from api.identity.models import Account
from api.notify.models import Channel
from api.notify.services import add_message
from api.platform.models import Platform
from api.report import services as reports
from api.report.jobs import generate_after_commit
from api.report.kinds import ReportKind, Subject, device_sensors
from api.report.models import ExportFile, FileStatus, FileType
from api.telemetry.queries import thin, track
from api.tenancy import data_platform_id
from api.waybill import services, track_marks
from api.waybill.models import WaybillFenceEvent

TRACK_ROWS = 40


def request_report(args: dict) -> ExportFile:
    """Queue the trip report (pdf) or the window's readings (csv, xlsx) of a started waybill."""
    waybill, device = services.find(args["id"], write=True)
    if waybill.started_at is None:
        raise ApiError(gettext("The waybill has not started yet: there is nothing to report."), code=7000)
    reports.ensure_downloadable(device)
    account = require_account()
    file_type = FileType(args["fileType"])
    end = waybill.completed_at or utcnow()
    zone = ZoneInfo(device.time_zone)  # one zone for every time of the report: the device's (the header names it)
    export = ExportFile(
        platform_id=data_platform_id(),
        owner_account_id=account.id,
        name=reports.file_name(
            [device], waybill.started_at, end, zone, reports.EXTENSIONS[file_type], f"{waybill.waybill_num}_"
        ),
        file_type=file_type,
        kind="waybill",
        params={
            "waybillId": waybill.id,
            "deviceIds": [device.id],
            "owners": {str(device.id): device.owner_account_id},
            "start": waybill.started_at.isoformat(),
            "end": end.isoformat(),
            "timeZone": zone.key,
            "unit": account.temperature_unit or "C",
            "locale": reports.request_locale(),
        },
    )
    export.version = reports.next_version(export)
    db.session.add(export)
    db.session.commit()
    return export


def waybill_subjects(params: dict[str, Any], owner_account_id: int) -> list[Subject]:
    waybill = db.session.get(services.Waybill, params["waybillId"])
    if waybill is None or waybill.started_at is None:
        return []
    device = db.session.get(Device, waybill.device_id)
    if device is None or device.deleted or params["owners"].get(str(device.id)) != device.owner_account_id:
        return []  # released or transferred since the request
    sensors = device_sensors(device, [waybill.sensor])
    for sensor in sensors:
        sensor.lower, sensor.upper = waybill.lower_limit, waybill.upper_limit
        sensor.fixed_limits = True  # the waybill's limits, not the device's history
    start = waybill.started_at
    end = waybill.completed_at or datetime_of(params["end"])
    return [
        Subject(
            device,
            sensors,
            start,
            end,
            title=gettext("Waybill trip report %(number)s", number=waybill.waybill_num),
            extra={"sections": sections(waybill, device, start, end, ZoneInfo(params["timeZone"]))},
        )
    ]


# Sections other areas add to the trip report after the waybill's own (the budget area's stability
# budget): each is called with (waybill, end of the trip, zone) and returns sections.
TRIP_SECTIONS: list[Callable[..., list[tuple[str, list[list[str]], bool]]]] = []


def datetime_of(value: str) -> datetime:
    return datetime.fromisoformat(value)


def sections(waybill, device: Device, start, end, zone: ZoneInfo) -> list[tuple[str, list[list[str]], bool]]:
    """The waybill's own sections; every time in `zone`, the report's (the header names it), with its offset."""

    def at(moment) -> str:
        return local_text(moment, zone, seconds=False)

    disposition = {
        "released": gettext("Released"),
        "quarantined": gettext("Quarantined"),
        "rejected": gettext("Rejected"),
    }.get(waybill.disposition.value if waybill.disposition else "", gettext("Not recorded"))
    info = [
        [gettext("Waybill number"), waybill.waybill_num, gettext("Order number"), waybill.order_num],
        [gettext("Goods"), waybill.goods_name, gettext("Tracking numbers"), waybill.express_number or "-"],
        [gettext("Limits"), f"{waybill.lower_limit} ~ {waybill.upper_limit} °C", gettext("Disposition"), disposition],
        [gettext("Reason"), waybill.disposition_reason or "-", gettext("Time zone"), zone.key],
    ]
    events = [[gettext("Time"), gettext("Fence"), gettext("Event"), gettext("Position")]]
    for event in db.session.scalars(
        select(WaybillFenceEvent).where(WaybillFenceEvent.waybill_id == waybill.id).order_by(WaybillFenceEvent.ts)
    ):
        kind = gettext("Entered") if event.kind == "enter" else gettext("Left")
        events.append([at(event.ts), event.fence_name, kind, f"{event.lat:.5f}, {event.lng:.5f}"])
    positions = [p for p in track(device.id, start, end, limit=100_000) if p.lat is not None and p.lng is not None]
    halts = [[gettext("Start"), gettext("End"), gettext("Duration"), gettext("Position")]]
    for stop in track_marks.stops([track_marks.Position(p.ts, p.lat, p.lng) for p in positions]):
        halts.append(
            [
                at(stop["startedAt"]),
                at(stop["endedAt"]),
                duration_text(stop["minutes"]),
                _place(stop["lat"], stop["lng"]),
            ]
        )
    if len(halts) == 1:
        halts.append([gettext("No stops"), "", "", ""])
    route = [[gettext("Time"), gettext("Position")]] + [
        [at(p.ts), _place(p.lat, p.lng)] for p in thin(positions, TRACK_ROWS)
    ]
    return [
        (gettext("Waybill"), info, False),
        (gettext("Fence events"), events, True),
        (gettext("Stops"), halts, True),
        (gettext("Track"), route, True),
    ] + [section for contributor in TRIP_SECTIONS for section in contributor(waybill, end, zone)]


def _place(lat: float, lng: float) -> str:
    return f"{lat:.5f}, {lng:.5f}"


def duration_text(minutes: int) -> str:
    hours, rest = divmod(minutes, 60)
    if hours:
        return gettext("%(hours)s h %(minutes)s min", hours=hours, minutes=rest)
    return gettext("%(minutes)s min", minutes=rest)


# ---- the trip report mailed on completion -----------------------------------------------------------------


def queue_trip_mail(waybill) -> ExportFile | None:
    """A completion handler: a waybill with an alarm contact email gets its trip report (PDF) in the
    owner's download centre, generated after the completing transaction commits and then mailed to
    that address through the outbox (`mail_trip_report`)."""
    if not waybill.alarm_email or waybill.started_at is None:
        return None
    device = db.session.get(Device, waybill.device_id)
    owner = db.session.get(Account, waybill.owner_account_id)
    if device is None or owner is None:
        return None
    if has_request_context():
        locale = reports.request_locale()
    else:
        platform = db.session.get(Platform, waybill.platform_id)
        locale = "en-US" if platform is not None and platform.default_locale.startswith("en") else "zh-CN"
    zone = ZoneInfo(device.time_zone)
    end = waybill.completed_at or utcnow()
    with force_locale(locale.replace("-", "_")):
        name = reports.file_name([device], waybill.started_at, end, zone, "pdf", f"{waybill.waybill_num}_")
    export = ExportFile(
        platform_id=waybill.platform_id,
        owner_account_id=waybill.owner_account_id,
        name=name,
        file_type=FileType.PDF,
        kind="waybill",
        params={
            "waybillId": waybill.id,
            "deviceIds": [device.id],
            "owners": {str(device.id): device.owner_account_id},
            "start": waybill.started_at.isoformat(),
            "end": end.isoformat(),
            "timeZone": zone.key,
            "unit": owner.temperature_unit or "C",
            "locale": locale,
            "mailTo": waybill.alarm_email,
        },
    )
    export.version = reports.next_version(export)
    db.session.add(export)
    db.session.flush()
    generate_after_commit(export)
    return export


def mail_trip_report(file_id: int) -> None:
    """Once a completion's trip report is generated: one email with the PDF attached to the waybill's
    alarm contact. Mail has one owner, the outbox: the dedupe key names the waybill and the address, so
    a report generated again (a retried job, a second file) never mails twice."""
    export = db.session.get(ExportFile, file_id)
    if export is None or export.status != FileStatus.GENERATED or not export.params.get("mailTo"):
        return
    waybill = db.session.get(services.Waybill, export.params["waybillId"])
    device = db.session.get(Device, waybill.device_id) if waybill else None
    if waybill is None or device is None:
        return
    address = export.params["mailTo"]
    locale = export.params.get("locale", "zh-CN")
    with force_locale(locale.replace("-", "_")):
        subject = gettext("Trip report of waybill %(number)s", number=waybill.waybill_num)
        body = gettext(
            "The waybill %(number)s (%(goods)s) was completed at %(time)s. Its trip report (%(file)s) is attached.",
            number=waybill.waybill_num,
            goods=waybill.goods_name,
            time=local_text(waybill.completed_at or utcnow(), ZoneInfo(device.time_zone), seconds=False),
            file=export.name,
        )
    add_message(
        export.platform_id,
        Channel.EMAIL,
        address,
        body,
        subject=subject,
        attachment_path=os.path.join(current_app.config["FILES_DIR"], export.stored_name),
        dedupe_key=f"waybill-trip-report:{waybill.id}:{address}",
        lang=locale,
    )
    db.session.commit()


WAYBILL_KIND = ReportKind("waybill", N_("Waybill trip report"), waybill_subjects, finished=mail_trip_report)


def mail_trip_reports() -> None:
    """A completed waybill mails its trip report (idempotent: create_app may run several times)."""
    if queue_trip_mail not in services.COMPLETION_HANDLERS:
        services.COMPLETION_HANDLERS.append(queue_trip_mail)
