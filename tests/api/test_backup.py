"""Issue 26: scheduled backups. A run is a zip in the download centre (a CSV per device, settings.json,
manifest.json with SHA-256 checksums) whose readings are the store's; a schedule keeps its newest N;
another account can neither read nor configure a backup."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import zipfile
from datetime import timedelta

from sqlalchemy import select

from api.device.models import Device
from api.extensions.db import db, utcnow
from api.report.models import BackupSchedule, ExportFile, FileStatus
from api.telemetry.models import Reading
from tests.api import account_helpers, device_helpers, report_helpers
from tests.api.device_helpers import add
from tests.api.report_helpers import REPORT, files, load_readings

guids, owner, stranger = device_helpers.guids, device_helpers.owner, device_helpers.stranger
providers, files_dir = account_helpers.providers, report_helpers.files_dir

BACKUP = f"{REPORT}/BackupSchedule"


def schedule_body(**extra) -> dict:
    return {
        "name": "Nightly",
        "frequency": "daily",
        "rangeDays": 3,
        "keepCount": 2,
        "nextRunTime": (utcnow() + timedelta(hours=1)).isoformat(),
        **extra,
    }


def create(client, headers, **extra) -> dict:
    body = client.post(f"{BACKUP}/insert", json=schedule_body(**extra), headers=headers).get_json()
    assert body["code"] == 0, body
    return body["data"]


def run_now(client, headers, schedule_id) -> dict:
    body = client.post(f"{BACKUP}/runNow/{schedule_id}", headers=headers).get_json()
    assert body["code"] == 0, body
    return body["data"]


def archives(client, headers, schedule_id) -> list[dict]:
    body = client.post(f"{BACKUP}/archives", json={"id": schedule_id, "start": 1, "pageSize": 50}, headers=headers)
    body = body.get_json()
    assert body["code"] == 0, body
    return body["data"]["list"]


def download(client, headers, file_id) -> zipfile.ZipFile:
    response = client.get(f"{REPORT}/ExportFile/download/{file_id}", headers=headers)
    assert response.status_code == 200, response.get_json()
    assert response.headers["X-Content-SHA256"] == hashlib.sha256(response.data).hexdigest()
    return zipfile.ZipFile(io.BytesIO(response.data))


def test_the_archive_verifies_and_holds_the_stores_readings(app, client, owner, guids, files_dir, run_jobs):
    fridge = add(client, owner, guids["th_a"][0], name="Fridge")
    freezer = add(client, owner, guids["th_b"][0], name="Freezer")
    start = (utcnow() - timedelta(days=2)).replace(minute=0, second=0, microsecond=0)
    load_readings(app, fridge, [4.0, 4.5, 5.25, 6.125], start=start)
    load_readings(app, fridge, [55.0, 56.5, 57.0], sensor=2, start=start)
    load_readings(app, freezer, [-18.5, -19.0], start=start)
    load_readings(app, fridge, [3.0], start=utcnow() - timedelta(days=10))  # before the 3-day range
    limits = {"deviceId": fridge, "limits": [{"sensor": 1, "upperLimit": 8, "lowerLimit": 2}]}
    assert client.post("/api/alarm/SensorLimit/save", json=limits, headers=owner).get_json()["code"] == 0
    schedule = create(client, owner)
    queued = run_now(client, owner, schedule["id"])
    assert queued["status"] == "generating" and queued["fileType"] == "zip"
    run_jobs()

    [row] = archives(client, owner, schedule["id"])
    assert row["status"] == "generated" and row["backupScheduleId"] == schedule["id"]
    assert row["fileName"].startswith("Nightly_") and row["fileName"].endswith(".zip")
    assert row["expireTime"] is None  # kept until the schedule replaces it
    assert row["id"] in [f["id"] for f in files(client, owner)]  # in the download centre
    archive = download(client, owner, row["id"])
    manifest = json.loads(archive.read("manifest.json"))
    assert manifest["format"] == "coldchain-backup" and manifest["checksum"] == "sha256"
    assert {entry["path"] for entry in manifest["files"]} | {"manifest.json"} == set(archive.namelist())
    for entry in manifest["files"]:
        content = archive.read(entry["path"])
        assert hashlib.sha256(content).hexdigest() == entry["sha256"], entry["path"]
        assert len(content) == entry["bytes"]

    with app.app_context():
        for device in manifest["devices"]:
            rows = list(csv.DictReader(io.StringIO(archive.read(device["file"]).decode())))
            assert len(rows) == device["readings"]
            stored = db.session.execute(
                select(Reading.ts, Reading.sensor, Reading.value)
                .join(Device, Device.id == Reading.device_id)
                .where(Device.guid == device["guid"], Reading.ts >= utcnow() - timedelta(days=3))
            ).all()
            expected = {(int(ts.timestamp() * 1000), sensor, value) for ts, sensor, value in stored}
            got = {(int(r["ts"]), int(s), float(r[s])) for r in rows for s in r if s.isdigit() and r[s] != ""}
            assert got == expected and expected
    by_guid = {d["guid"]: d for d in manifest["devices"]}
    assert by_guid[guids["th_a"][0]]["readings"] == 4  # the 10-day-old reading is outside the range
    settings = json.loads(archive.read("settings.json"))
    fridge_settings = next(d for d in settings["devices"] if d["guid"] == guids["th_a"][0])
    assert fridge_settings["name"] == "Fridge"
    first = next(s for s in fridge_settings["sensors"] if s["sensor"] == 1)
    assert first["limit"] == {"lower": 2.0, "upper": 8.0, "delayMinutes": 0, "enabled": True}


def test_only_the_last_n_archives_are_kept(app, client, owner, guids, files_dir, run_jobs):
    device_id = add(client, owner, guids["th_a"][0])
    load_readings(app, device_id, [5.0], start=utcnow() - timedelta(hours=3))
    schedule = create(client, owner, keepCount=2)
    made = []
    for _ in range(4):
        made.append(run_now(client, owner, schedule["id"])["id"])
        run_jobs()
    kept = archives(client, owner, schedule["id"])
    assert [row["id"] for row in kept] == made[:-3:-1]  # the newest two
    with app.app_context():
        assert db.session.scalar(select(ExportFile).where(ExportFile.id == made[0])) is None
    assert len([p for p in files_dir.rglob("*.zip")]) == 2
    # A smaller keepCount applies at once.
    body = schedule_body(keepCount=1, id=schedule["id"])
    assert client.put(f"{BACKUP}/update", json=body, headers=owner).get_json()["code"] == 0
    assert [row["id"] for row in archives(client, owner, schedule["id"])] == [made[-1]]
    assert len(list(files_dir.rglob("*.zip"))) == 1


def test_the_schedule_runs_when_due_and_moves_on(app, client, owner, guids, files_dir, run_jobs):
    from api.report.jobs import run_due_backups

    add(client, owner, guids["th_a"][0])
    due = create(client, owner, nextRunTime=(utcnow() - timedelta(minutes=1)).isoformat())
    create(client, owner, name="Off", enabled=False, nextRunTime=(utcnow() - timedelta(minutes=1)).isoformat())
    with app.app_context():
        assert len(run_due_backups()) == 1
        assert run_due_backups() == []  # moved on to tomorrow
        schedule = db.session.get(BackupSchedule, due["id"])
        assert schedule.next_run_at > utcnow()
    run_jobs()
    [row] = archives(client, owner, due["id"])
    assert row["status"] == "generated"


def test_every_periodic_backup_job_is_scheduled():
    from api.hooks import periodic_jobs

    assert "api.report.jobs.run_due_backups" in {job.func for job in periodic_jobs()}


def test_another_account_cannot_read_or_configure_a_backup(app, client, owner, stranger, guids, files_dir, run_jobs):
    add(client, owner, guids["th_a"][0])
    schedule = create(client, owner)
    file_id = run_now(client, owner, schedule["id"])["id"]
    run_jobs()
    sid = schedule["id"]
    for response in (
        client.post(f"{BACKUP}/archives", json={"id": sid, "start": 1, "pageSize": 10}, headers=stranger),
        client.put(f"{BACKUP}/update", json=schedule_body(id=sid, name="Mine"), headers=stranger),
        client.post(f"{BACKUP}/runNow/{sid}", headers=stranger),
        client.delete(f"{BACKUP}/delete/{sid}", headers=stranger),
        client.get(f"{REPORT}/ExportFile/download/{file_id}", headers=stranger),
    ):
        assert response.status_code == 404, response.get_json()
        assert response.get_json()["code"] == 404
    page = client.post(f"{BACKUP}/page", json={"start": 1, "pageSize": 10}, headers=stranger).get_json()
    assert page["data"]["list"] == []
    with app.app_context():
        row = db.session.get(BackupSchedule, sid)
        assert row.name == "Nightly"
        assert db.session.scalar(select(ExportFile).where(ExportFile.id == file_id)).status == FileStatus.GENERATED
    assert len(archives(client, owner, sid)) == 1


def test_bad_input_is_a_localized_422_naming_the_field(client, owner):
    for field, value in (("name", "x" * 21), ("rangeDays", 0), ("keepCount", 31), ("frequency", "hourly")):
        body = client.post(f"{BACKUP}/insert", json=schedule_body(**{field: value}), headers=owner).get_json()
        assert body["code"] == 422 and field in body["data"]["errors"], body
    english = client.post(
        f"{BACKUP}/insert", json=schedule_body(keepCount=0), headers={**owner, "Accept-Language": "en-US"}
    ).get_json()
    assert english["data"]["errors"]["keepCount"]
    assert (
        client.post(f"{BACKUP}/page", json={"start": 1, "pageSize": 10}, headers=owner).get_json()["data"]["total"] == 0
    )


def test_a_backup_file_type_cannot_be_requested_as_an_export(client, owner, guids, files_dir):
    device_id = add(client, owner, guids["th_a"][0])
    body = report_helpers.export(client, owner, [device_id], "zip")
    assert body["code"] == 422 and "fileType" in body["data"]["errors"]
