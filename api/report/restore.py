"""Restoring a scheduled backup (issue 47): `flask backup restore ARCHIVE` puts one account's archive
(api/report/archive.py) into a database, fresh or not: the account (created when missing, with a
password nobody knows: its owner sets one with "Forgot password"), its devices with their settings,
alarm limits and push settings, and the readings of the archive's range through the ingestion service
(so rollups and device states follow). Every entry is checked against the manifest's size and SHA-256
before anything is written; a device whose GUID belongs to another account is refused, and nothing
is written when any check fails. Archiving the restored account over the same range gives the same
entries (tests/api/test_backup_restore.py)."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import secrets
import tempfile
import zipfile
from datetime import datetime, timedelta
from typing import Any

from flask import current_app
from flask_babel import gettext
from sqlalchemy import select

from api.account.services import hash_password
from api.alarm.models import AlarmRecipient, PushSetting, SensorLimit
from api.device.catalogue import sync_catalogue
from api.device.models import Device
from api.extensions import uploads
from api.extensions.db import db
from api.identity.models import Account, AccountType
from api.identity.staff import staff_scope
from api.platform.models import Platform
from api.report.archive import FORMAT, VERSION
from api.telemetry.device_auth import IngestedDevice
from api.telemetry.ingest import ingest, replaying

BATCH = 500


class RestoreError(Exception):
    """The archive cannot be restored: nothing was written."""


def read_archive(path: str) -> tuple[dict[str, Any], dict[str, Any], dict[str, bytes]]:
    """(manifest, settings, {path: bytes}) once every entry matches the manifest."""
    try:
        archive = zipfile.ZipFile(path)
    except (OSError, zipfile.BadZipFile) as exc:
        raise RestoreError(f"not a backup archive: {exc}") from None
    with archive:
        try:
            manifest = json.loads(archive.read("manifest.json"))
        except (KeyError, ValueError):
            raise RestoreError("the archive has no readable manifest.json") from None
        if manifest.get("format") != FORMAT or manifest.get("version") != VERSION:
            raise RestoreError(f"not a {FORMAT} archive of version {VERSION}")
        entries = {}
        for entry in manifest["files"]:
            try:
                content = archive.read(entry["path"])
            except KeyError:
                raise RestoreError(f"{entry['path']} is missing") from None
            if len(content) != entry["bytes"] or hashlib.sha256(content).hexdigest() != entry["sha256"]:
                raise RestoreError(f"{entry['path']} does not match its checksum")
            entries[entry["path"]] = content
    return manifest, json.loads(entries["settings.json"]), entries


def _account(platform: Platform, user_name: str) -> Account:
    account = db.session.scalar(
        select(Account).where(Account.platform_id == platform.id, Account.user_name == user_name)
    )
    if account is None:
        account = Account(
            platform_id=platform.id,
            user_name=user_name,
            password_hash=hash_password(secrets.token_urlsafe(24)),
            account_type=AccountType.ENTERPRISE,
        )
        db.session.add(account)
        db.session.flush()
    return account


def _parse(moment: str | None) -> datetime | None:
    return datetime.fromisoformat(moment) if moment else None


def _device(platform: Platform, account: Account, settings: dict, earliest: datetime | None) -> Device:
    types = {device_type.type_code: device_type for device_type in sync_catalogue().values()}
    device_type = types.get(settings["typeCode"])
    if device_type is None:
        raise RestoreError(f"{settings['guid']}: no device type {settings['typeCode']} here")
    device = db.session.scalar(select(Device).where(Device.guid == settings["guid"], Device.deleted.is_(False)))
    if device is not None and device.owner_account_id not in (None, account.id):
        raise RestoreError(f"{settings['guid']} belongs to another account here")
    if device is None:
        device = Device(guid=settings["guid"], device_type=device_type, platform_id=platform.id)
        db.session.add(device)
    device.owner_account_id = account.id
    device.name, device.time_zone, device.remark = settings["name"], settings["timeZone"], settings["remark"]
    device.interval_s, device.enabled = settings["intervalSeconds"], settings["enabled"]
    device.service_expires_at = _parse(settings["serviceExpiresAt"])
    device.sensor_settings = settings["sensorSettings"] or {}
    device.claimed_at = device.claimed_at or earliest
    if earliest is not None and (device.created_at is None or device.created_at > earliest):
        device.created_at = earliest - timedelta(days=1)  # readings of the range are not refused as older
    db.session.flush()
    return device


def _limits(device: Device, sensors: list[dict]) -> None:
    for sensor in sensors:
        limit = sensor.get("limit")
        if limit is None:
            continue
        row = db.session.scalar(
            select(SensorLimit).where(SensorLimit.device_id == device.id, SensorLimit.sensor == sensor["sensor"])
        )
        if row is None:
            row = SensorLimit(device_id=device.id, sensor=sensor["sensor"])
            db.session.add(row)
        row.lower, row.upper = limit["lower"], limit["upper"]
        row.delay_minutes, row.enabled = limit["delayMinutes"], limit["enabled"]


def _push(device: Device, push: dict | None) -> None:
    if push is None:
        return
    row = db.session.get(PushSetting, device.id) or PushSetting(device_id=device.id)
    db.session.add(row)
    row.enabled, row.multi_level, row.level_minutes = push["enabled"], push["multiLevel"], push["levelMinutes"]
    row.channels, row.repeat_count = push["channels"], push["repeatCount"]
    row.interval_minutes, row.delay_minutes = push["intervalMinutes"], push["delayMinutes"]
    row.schedule_start, row.schedule_end = push["scheduleStart"], push["scheduleEnd"]
    row.urgent_kinds, row.webhook_url = push["urgentKinds"], push["webhookUrl"]
    row.recipients = [AlarmRecipient(device_id=device.id, **recipient) for recipient in push["recipients"]]


def _records(content: bytes) -> list[dict]:
    rows = csv.reader(io.StringIO(content.decode()))
    header = next(rows)
    sensors = header[2:]
    return [
        {"ts": int(row[0]), "readings": {s: float(v) for s, v in zip(sensors, row[2:], strict=True) if v != ""}}
        for row in rows
    ]


def restore(path: str, platform_slug: str | None = None) -> dict[str, Any]:
    """Restore the archive at `path` onto the platform `platform_slug` (default: the operator's):
    what was restored, as {"account", "devices", "readings"}."""
    manifest, settings, entries = read_archive(path)
    slug = platform_slug or current_app.config["OPERATOR_TENANT"]
    platform = db.session.scalar(select(Platform).where(Platform.slug == slug))
    if platform is None:
        raise RestoreError(f"no platform {slug!r}: run `flask sync-tenants`")
    earliest = _parse(manifest.get("rangeStart"))
    try:
        account = _account(platform, manifest["account"])
        files = {device["guid"]: device["file"] for device in manifest["devices"]}
        restored = []
        for item in settings["devices"]:
            device = _device(platform, account, item, earliest)
            _limits(device, item["sensors"])
            _push(device, item["pushSetting"])
            restored.append((device, _records(entries[files[item["guid"]]]) if item["guid"] in files else []))
        db.session.commit()
    except Exception:
        db.session.rollback()
        raise
    readings = 0
    with replaying():
        for device, records in restored:
            # As the device sent them then: a device disabled or expired since keeps its history.
            sender = IngestedDevice._make(getattr(device, name) for name in IngestedDevice._fields)
            sender = sender._replace(enabled=True, service_expires_at=None)
            for first in range(0, len(records), BATCH):
                ingest(sender, records[first : first + BATCH])
            readings += len(records)
    db.session.commit()
    return {"account": account.user_name, "devices": len(restored), "readings": readings}


def restore_upload(upload, platform_id: int | None) -> dict[str, Any]:
    """The operator's page (/operation/system/manage): an uploaded archive (the zip import caps of
    api/extensions/uploads.py) restored onto a platform (default: the operator's)."""
    staff_scope(operator_only=True)
    content = uploads.read_import(upload, "zip")
    slug = None
    if platform_id is not None:
        platform = db.session.get(Platform, platform_id)
        if platform is None:
            raise uploads.import_refused("platformId", gettext("The requested resource does not exist."), 422)
        slug = platform.slug
    with tempfile.NamedTemporaryFile(suffix=".zip") as held:
        held.write(content)
        held.flush()
        try:
            return restore(held.name, slug)
        except RestoreError as exc:
            message = gettext("The archive cannot be restored: %(reason)s", reason=str(exc))
            raise uploads.import_refused("file", message, 422) from None
