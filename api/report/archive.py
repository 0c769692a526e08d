"""The archive of a scheduled backup (issue 26): one zip per run, through the download centre's
machinery (job, claim, heartbeat, hash, download), registered as the report kind `backup`.

    manifest.json        what the archive holds: format and version, account, range, and for every
                         other entry its path, byte size, row count and SHA-256
    settings.json        the account's devices with their settings: names, time zones, intervals,
                         sensor names, alarm limits, push settings (secrets are never exported)
    devices/<GUID>.csv   the device's readings of the range: `ts` (epoch ms, UTC), `time_utc` (ISO
                         8601) and one column per sensor number, values in the basic unit as stored

A row of a device CSV is one record of the device upload (POST /api/device/DeviceData/upload):
{"ts": ts, "readings": {"<sensor>": value, ...}}; docs/areas/reports.md "Scheduled backup" has the mapping.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import zipfile
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select

from api.alarm.models import PushSetting, SensorLimit
from api.device.models import Device
from api.device.services import DATA_GRACE
from api.extensions.db import db, utcnow
from api.extensions.i18n import N_
from api.report.formats import Presentation, Progress, stream_options
from api.report.kinds import ReportKind, Subject, device_sensors
from api.report.models import BackupSchedule, ExportFile, FileStatus
from api.report.services import remove_stored
from api.telemetry.queries import stream_rows

FORMAT = "coldchain-backup"
VERSION = 1
TICK_ROWS = 1_000


def downloadable(device: Device) -> bool:
    """The data rule of exports: no data past service expiry + three months."""
    return device.service_expires_at is None or utcnow() <= device.service_expires_at + DATA_GRACE


def backup_devices(owner_account_id: int, platform_id: int) -> list[Device]:
    """The account's own devices of that site whose data may still be exported, by id."""
    devices = db.session.scalars(
        select(Device)
        .where(
            Device.owner_account_id == owner_account_id,
            Device.platform_id == platform_id,
            Device.deleted.is_(False),
        )
        .order_by(Device.id)
    )
    return [device for device in devices if downloadable(device)]


def backup_subjects(params: dict[str, Any], owner_account_id: int) -> list[Subject]:
    """Every device fixed at the run's start that the owner still owns (all its sensors)."""
    start, end = datetime.fromisoformat(params["start"]), datetime.fromisoformat(params["end"])
    by_id = {
        d.id: d
        for d in db.session.scalars(
            select(Device).where(Device.id.in_(params["deviceIds"]), Device.owner_account_id == owner_account_id)
        )
    }
    return [
        Subject(by_id[i], device_sensors(by_id[i]), start, end)
        for i in params["deviceIds"]
        if i in by_id and downloadable(by_id[i])
    ]


class _Entry:
    """One zip member written as a stream, hashed as it goes (the checksum is of the content)."""

    def __init__(self, archive: zipfile.ZipFile, path: str):
        self.path = path
        self.handle = archive.open(path, "w", force_zip64=True)
        self.digest = hashlib.sha256()
        self.size = 0
        self.rows = 0

    def write(self, data: bytes) -> None:
        self.handle.write(data)
        self.digest.update(data)
        self.size += len(data)

    def close(self) -> dict[str, Any]:
        self.handle.close()
        return {"path": self.path, "bytes": self.size, "rows": self.rows, "sha256": self.digest.hexdigest()}


def _json_bytes(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, indent=2, sort_keys=True).encode()


def _iso(moment: datetime | None) -> str | None:
    return moment.astimezone(UTC).isoformat() if moment else None


def device_settings(device: Device) -> dict[str, Any]:
    limits = {
        row.sensor: row for row in db.session.scalars(select(SensorLimit).where(SensorLimit.device_id == device.id))
    }
    sensors = []
    for sensor in device_sensors(device):
        limit = limits.get(sensor.probe)
        sensors.append(
            {
                "sensor": sensor.probe,
                "name": sensor.name,
                "unit": sensor.unit,
                "precision": sensor.precision,
                "limit": None
                if limit is None
                else {
                    "lower": limit.lower,
                    "upper": limit.upper,
                    "delayMinutes": limit.delay_minutes,
                    "enabled": limit.enabled,
                },
            }
        )
    push = db.session.get(PushSetting, device.id)
    return {
        "guid": device.guid,
        "name": device.name,
        "typeCode": device.device_type.type_code,
        "typeName": device.device_type.type_name,
        "intervalSeconds": device.interval_s,
        "timeZone": device.time_zone,
        "remark": device.remark,
        "enabled": device.enabled,
        "serviceExpiresAt": _iso(device.service_expires_at),
        "sensorSettings": device.sensor_settings or {},
        "sensors": sensors,
        "pushSetting": None
        if push is None
        else {
            "enabled": push.enabled,
            "multiLevel": push.multi_level,
            "levelMinutes": push.level_minutes,
            "channels": push.channels,
            "repeatCount": push.repeat_count,
            "intervalMinutes": push.interval_minutes,
            "delayMinutes": push.delay_minutes,
            "scheduleStart": push.schedule_start,
            "scheduleEnd": push.schedule_end,
            "urgentKinds": push.urgent_kinds,
            "webhookUrl": push.webhook_url,  # the webhook secret is write-only: never exported
            "recipients": [
                {"level": r.level, "name": r.name, "phone": r.phone, "email": r.email, "lang": r.lang}
                for r in push.recipients
            ],
        },
    }


def _write_readings(entry: _Entry, subject: Subject, progress: Progress) -> None:
    probes = [sensor.probe for sensor in subject.sensors]
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["ts", "time_utc", *probes])
    pending = 0
    rows = stream_rows(subject.device.id, probes, subject.start, subject.end, **stream_options(subject))
    for ms, values, _late in rows:
        moment = datetime.fromtimestamp(ms / 1000, UTC)
        writer.writerow([ms, moment.isoformat().replace("+00:00", "Z"), *(_cell(values.get(p)) for p in probes)])
        entry.rows += 1
        pending += 1
        if pending >= TICK_ROWS:
            entry.write(buffer.getvalue().encode())
            buffer.seek(0)
            buffer.truncate()
            progress.tick(pending)
            pending = 0
    entry.write(buffer.getvalue().encode())
    progress.tick(pending)


def _cell(value: float | None) -> str:
    return "" if value is None else repr(float(value))


def write_backup(path: str, subjects: list[Subject], presentation: Presentation, progress: Progress) -> None:
    account = presentation.requester
    start = subjects[0].start if subjects else None
    end = subjects[0].end if subjects else None
    entries, devices = [], []
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=6) as archive:
        for subject in subjects:
            entry = _Entry(archive, f"devices/{subject.device.guid}.csv")
            _write_readings(entry, subject, progress)
            entries.append(entry.close())
            devices.append(
                {
                    "guid": subject.device.guid,
                    "name": subject.device.name,
                    "file": entry.path,
                    "readings": entry.rows,
                    "sensors": [sensor.probe for sensor in subject.sensors],
                }
            )
        settings = _Entry(archive, "settings.json")
        settings.write(
            _json_bytes(
                {
                    "format": FORMAT,
                    "version": VERSION,
                    "account": {
                        "userName": account.user_name if account else None,
                        "temperatureUnit": getattr(account, "temperature_unit", None) or "C",
                    },
                    "devices": [device_settings(subject.device) for subject in subjects],
                }
            )
        )
        settings.rows = len(subjects)
        entries.append(settings.close())
        manifest = {
            "format": FORMAT,
            "version": VERSION,
            "account": account.user_name if account else None,
            "generatedAt": _iso(presentation.generated_at or utcnow()),
            "rangeStart": _iso(start),
            "rangeEnd": _iso(end),
            "timeZone": presentation.zone.key,
            "checksum": "sha256",
            "devices": devices,
            "files": entries,
        }
        archive.writestr("manifest.json", _json_bytes(manifest))


def prune(file_id: int) -> None:
    """Keep the newest `keep_count` generated archives of the file's schedule; older ones (and failed
    runs older than the oldest kept) are removed with their files."""
    export = db.session.get(ExportFile, file_id)
    schedule = db.session.get(BackupSchedule, export.backup_schedule_id) if export else None
    if schedule is None:
        return
    rows = db.session.scalars(
        select(ExportFile)
        .where(ExportFile.backup_schedule_id == schedule.id, ExportFile.status != FileStatus.GENERATING)
        .order_by(ExportFile.id.desc())
        .with_for_update(skip_locked=True)
    ).all()
    kept = 0
    for row in rows:
        if kept >= schedule.keep_count:
            remove_stored(row)
            db.session.delete(row)
        elif row.status == FileStatus.GENERATED:
            kept += 1
    db.session.commit()


BACKUP_KIND = ReportKind("backup", N_("Scheduled backup"), backup_subjects, listed=False, archive=True, finished=prune)
