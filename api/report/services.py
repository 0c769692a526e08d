"""Download centre, exports and scheduled reports: the rules. Generation itself is in generate.py;
the callers (routes, jobs) queue a file's generation after these functions commit it."""

from __future__ import annotations

import calendar
import contextlib
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from flask import current_app, send_file
from flask_babel import gettext
from sqlalchemy import func, select

from api.access.reach import visible_params
from api.device.models import Device
from api.device.services import DATA_GRACE, owned_device
from api.extensions.db import db, paginate, utcnow
from api.extensions.i18n import caller_zone, locale_tag, requested_zone
from api.extensions.smorest import ApiError, field_error
from api.identity.auth import owned, require_account
from api.report.kinds import REPORT_KINDS, device_sensors, schedule_target
from api.report.models import ExportFile, FileStatus, FileType, Frequency, ScheduledReport
from api.tenancy import data_platform_id

# Files one account may have generating at once (a year of data for many devices is minutes of work).
MAX_GENERATING = 5
EXTENSIONS = {FileType.CSV: "csv", FileType.XLSX: "xlsx", FileType.PDF: "pdf", FileType.ZIP: "zip"}
MIME_TYPES = {
    FileType.CSV: "text/csv",
    FileType.XLSX: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    FileType.PDF: "application/pdf",
    FileType.ZIP: "application/zip",
}


def request_locale() -> str:
    """The caller's language as files store it: zh-CN or en-US."""
    return "en-US" if locale_tag().startswith("en") else "zh-CN"


def missing() -> ApiError:
    return ApiError(gettext("The requested resource does not exist."), code=404, http_status=404)


def files_dir() -> Path:
    path = Path(current_app.config["FILES_DIR"])
    path.mkdir(parents=True, exist_ok=True)
    return path


def ensure_downloadable(device: Device) -> None:
    """Spec: after service expiry uploads go on for three months, then no viewing or download."""
    if device.service_expires_at is not None and utcnow() > device.service_expires_at + DATA_GRACE:
        raise ApiError(gettext("The service of this device expired more than three months ago."), code=3005)


# ---- exports ---------------------------------------------------------------------------------------


def _devices_for_export(device_ids: list[int]) -> list[Device]:
    devices = []
    for device_id in dict.fromkeys(device_ids):
        device = owned_device(device_id)
        ensure_downloadable(device)
        devices.append(device)
    return devices


def _visible_probes(device: Device, chosen: list[int] | None) -> list[int]:
    """The chosen sensors of a device that the signed-in account may see (all of them for its owner)."""
    shown = {p.probe_id for p in visible_params(device, device.device_type.params) if p.probe_id is not None}
    return [sensor.probe for sensor in device_sensors(device, chosen) if sensor.probe in shown]


def file_name(
    devices: list[Device], start: datetime, end: datetime, zone: ZoneInfo, ext: str, prefix: str = "", label: str = ""
) -> str:
    """prefix, then `label` (else the first device's name and how many more), the local dates, ext."""
    if not label:
        first = devices[0].name or devices[0].guid if devices else ""
        label = first if len(devices) == 1 else gettext("%(name)s and %(n)s more", name=first, n=len(devices) - 1)
    span = f"{start.astimezone(zone):%Y%m%d}-{(end - timedelta(seconds=1)).astimezone(zone):%Y%m%d}"
    name = f"{prefix}{label}_{span}.{ext}"
    return "".join("_" if ch in '/\\:*?"<>|' else ch for ch in name)[:120]


def request_export(args: dict) -> ExportFile:
    """Queue an export of devices' readings (CSV, XLSX or the PDF report) for the signed-in account,
    in its time zone, temperature unit and language."""
    account = require_account()
    start, end = args["startTime"], args["endTime"]
    generating = db.session.scalar(
        select(func.count()).select_from(
            owned(select(ExportFile.id), ExportFile).where(ExportFile.status == FileStatus.GENERATING).subquery()
        )
    )
    if generating >= MAX_GENERATING:
        raise ApiError(
            gettext("%(n)s files are being generated; please wait until one is finished.", n=generating), code=3103
        )
    devices = _devices_for_export(args["deviceIds"])
    sensors = args.get("sensors") or None
    probes = {str(d.id): _visible_probes(d, sensors) for d in devices}
    if sensors and not any(probes.values()):
        raise ApiError(
            gettext("None of the chosen sensors belongs to these devices."),
            code=422,
            http_status=422,
            data={"errors": {"sensors": [gettext("None of the chosen sensors belongs to these devices.")]}},
        )
    file_type = FileType(args["fileType"])
    # The zone the caller asked for, else the (first) device's own: not the server's default.
    zone = requested_zone() or ZoneInfo(devices[0].time_zone)
    params = {
        "deviceIds": [d.id for d in devices],
        "sensors": sensors,
        # Fixed now, while the requester is known: a shared device's hidden parameters never reach the file.
        "probes": probes,
        "owners": {str(d.id): d.owner_account_id for d in devices},
        "start": start.isoformat(),
        "end": end.isoformat(),
        "timeZone": zone.key,
        "unit": args.get("unit") or account.temperature_unit or "C",
        "locale": request_locale(),
    }
    export = ExportFile(
        platform_id=data_platform_id(),
        owner_account_id=account.id,
        name=file_name(devices, start, end, zone, EXTENSIONS[file_type]),
        file_type=file_type,
        kind="device",
        params=params,
    )
    export.version = next_version(export)
    db.session.add(export)
    db.session.commit()
    return export


def next_version(export: ExportFile) -> int:
    """Files are never regenerated in place: another file of the same owner and name (same devices
    and range) is the next version of it."""
    earlier = db.session.scalar(
        select(func.count()).where(
            ExportFile.owner_account_id == export.owner_account_id, ExportFile.name == export.name
        )
    )
    return (earlier or 0) + 1


def file_page(args: dict) -> dict:
    stmt = owned(select(ExportFile), ExportFile)
    if args.get("status"):
        stmt = stmt.where(ExportFile.status == FileStatus(args["status"]))
    return paginate(stmt, args, ExportFile.id.desc())


def owned_file(file_id: int) -> ExportFile:
    export = db.session.scalar(owned(select(ExportFile), ExportFile).where(ExportFile.id == file_id))
    if export is None:
        raise missing()
    return export


def download(file_id: int):
    export = owned_file(file_id)
    if export.status != FileStatus.GENERATED or not export.stored_name:
        raise ApiError(gettext("Report not generated, please try again later!"), code=3101)
    for device in db.session.scalars(select(Device).where(Device.id.in_(export.params.get("deviceIds", [])))):
        ensure_downloadable(device)
    path = files_dir() / export.stored_name
    if not path.is_file():
        raise ApiError(gettext("The file has expired and was removed."), code=3102)
    response = send_file(path, mimetype=MIME_TYPES[export.file_type], as_attachment=True, download_name=export.name)
    if export.content_hash:  # what was generated and recorded, so a copy can be checked against it
        response.headers["X-Content-SHA256"] = export.content_hash
    return response


def remove_stored(export: ExportFile) -> None:
    if export.stored_name:
        path = files_dir() / export.stored_name
        path.unlink(missing_ok=True)
        if path.parent != files_dir():
            with contextlib.suppress(OSError):
                path.parent.rmdir()


def delete_file(file_id: int) -> None:
    """Delete a row and its file. A job still generating it notices (its heartbeat update finds no
    row) and stops, removing what it wrote."""
    export = owned_file(file_id)
    remove_stored(export)
    db.session.delete(export)
    db.session.commit()


# ---- scheduled reports -----------------------------------------------------------------------------


def advance(moment: datetime, frequency: Frequency, zone: ZoneInfo) -> datetime:
    """The next run after `moment`, in the report's own zone (a daily report stays at 08:00 across
    daylight-saving changes; a monthly one on the 31st runs on the last day of shorter months)."""
    local = moment.astimezone(zone).replace(tzinfo=None)
    if frequency == Frequency.DAILY:
        local += timedelta(days=1)
    elif frequency == Frequency.WEEKLY:
        local += timedelta(days=7)
    else:
        year, month = (local.year + 1, 1) if local.month == 12 else (local.year, local.month + 1)
        local = local.replace(year=year, month=month, day=min(local.day, calendar.monthrange(year, month)[1]))
    return local.replace(tzinfo=zone).astimezone(moment.tzinfo)


def period_before(moment: datetime, frequency: Frequency, zone: ZoneInfo) -> tuple[datetime, datetime]:
    """The range a run at `moment` reports on: the day, week or month before it."""
    local = moment.astimezone(zone).replace(tzinfo=None)
    if frequency == Frequency.DAILY:
        start = local - timedelta(days=1)
    elif frequency == Frequency.WEEKLY:
        start = local - timedelta(days=7)
    else:
        year, month = (local.year - 1, 12) if local.month == 1 else (local.year, local.month - 1)
        start = local.replace(year=year, month=month, day=min(local.day, calendar.monthrange(year, month)[1]))
    return start.replace(tzinfo=zone), moment


def report_page(args: dict) -> dict:
    stmt = owned(select(ScheduledReport), ScheduledReport)
    if args.get("reportName"):
        stmt = stmt.where(ScheduledReport.report_name.icontains(args["reportName"], autoescape=True))
    return paginate(stmt, args, ScheduledReport.id.desc())


def owned_report(report_id: int) -> ScheduledReport:
    report = db.session.scalar(owned(select(ScheduledReport), ScheduledReport).where(ScheduledReport.id == report_id))
    if report is None:
        raise missing()
    return report


def _subjects(args: dict) -> list[int]:
    """What a scheduled report covers, checked for the signed-in account: the devices of a device
    report, or the one subject its kind names (a storage: ScheduleTarget)."""
    kind = REPORT_KINDS.get(args["reportType"])
    if kind is None or not kind.listed:
        raise field_error("reportType", gettext("Unknown report type."))
    target = kind.schedule
    if target is None:
        if not args.get("deviceIds"):
            raise field_error("deviceIds", gettext("Choose at least one device."))
        return [d.id for d in _devices_for_export(args["deviceIds"])]
    subject_id = args.get(target.field)
    if subject_id is None:
        raise field_error(target.field, gettext(target.missing))
    target.check(subject_id)
    return [subject_id]


def _apply(report: ScheduledReport, args: dict) -> None:
    subject_ids = _subjects(args)
    account = require_account()
    report.report_name = args["reportName"]
    report.report_type = args["reportType"]
    report.file_type = FileType(args.get("fileType") or "pdf")
    report.frequency = Frequency(args["frequency"])
    report.receivers = args["receivers"]
    report.subject_ids = subject_ids
    report.next_report_time = args["nextReportTime"]
    report.time_zone = caller_zone().key
    report.temperature_unit = account.temperature_unit or "C"
    report.locale = request_locale()


def create_report(args: dict) -> ScheduledReport:
    account = require_account()
    report = ScheduledReport(platform_id=data_platform_id(), owner_account_id=account.id)
    _apply(report, args)
    db.session.add(report)
    db.session.commit()
    return report


def update_report(args: dict) -> ScheduledReport:
    report = owned_report(args["id"])
    _apply(report, args)
    db.session.commit()
    return report


def delete_report(report_id: int) -> None:
    db.session.delete(owned_report(report_id))
    db.session.commit()


def start_report_run(report: ScheduledReport, moment: datetime) -> ExportFile:
    """A file for one run of a scheduled report (in the owner's download centre), queued. A device
    report covers the owner's own devices among its devices; a kind with a ScheduleTarget (a storage)
    gives its subject's params as its on-demand request would."""
    zone = ZoneInfo(report.time_zone)
    start, end = period_before(moment, report.frequency, zone)
    target = schedule_target(report.report_type)
    if target is None:
        subject, label = {"deviceIds": report.subject_ids, "sensors": None}, ""
    else:
        subject, label = target.run(report.subject_ids[0], report.owner_account_id)
    devices = list(db.session.scalars(select(Device).where(Device.id.in_(subject["deviceIds"]))))
    export = ExportFile(
        platform_id=report.platform_id,
        owner_account_id=report.owner_account_id,
        scheduled_report_id=report.id,
        name=file_name(
            devices, start, end, zone, EXTENSIONS[report.file_type], prefix=f"{report.report_name}_", label=label
        ),
        file_type=report.file_type,
        kind=report.report_type,
        params={
            **subject,
            "start": start.isoformat(),
            "end": end.isoformat(),
            "timeZone": report.time_zone,
            "unit": report.temperature_unit,
            "locale": report.locale,
        },
    )
    export.version = next_version(export)
    db.session.add(export)
    db.session.flush()
    report.last_file_id = export.id
    return export


def send_now(report_id: int) -> ExportFile:
    """Run a scheduled report at once (its schedule is unchanged)."""
    report = owned_report(report_id)
    export = start_report_run(report, utcnow())
    for device in db.session.scalars(select(Device).where(Device.id.in_(export.params["deviceIds"]))):
        ensure_downloadable(device)
    db.session.commit()
    return export


def start_due_reports(now: datetime) -> list[ExportFile]:
    """A file for every scheduled report whose nextReportTime has come, which moves to its next run."""
    due = db.session.scalars(
        select(ScheduledReport)
        .where(ScheduledReport.next_report_time <= now)
        .order_by(ScheduledReport.id)
        .with_for_update(skip_locked=True)
    ).all()
    files = []
    for report in due:
        files.append(start_report_run(report, report.next_report_time))
        zone = ZoneInfo(report.time_zone)
        while report.next_report_time <= now:
            report.next_report_time = advance(report.next_report_time, report.frequency, zone)
    db.session.commit()
    return files
