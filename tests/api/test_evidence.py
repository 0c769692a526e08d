"""Evidence that holds (issue 16): reports, exports and charts agree with the alarm list; extremes
are printed, gaps are not bridged, back-filled readings are marked; processing is append-only;
a report's hash is stable; every time carries its offset across a DST change."""

from __future__ import annotations

import csv
import hashlib
import io
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from flask_babel import force_locale, gettext
from sqlalchemy import func, select, text

from api.alarm.models import Alarm, AlarmDisposition, AlarmKind, AlarmStatus
from api.alarm.rules import DEFAULT_RULES
from api.alarm.texts import render
from api.device.models import INCLUDED_SMS, INCLUDED_VOICE, Device
from api.extensions.db import db, utcnow
from api.notify.models import Channel
from api.report.models import ExportFile
from tests.api import device_helpers, report_helpers
from tests.api.alarm.helpers import ALARM, set_limits
from tests.api.device_helpers import DEVICE, add, upload
from tests.api.report_helpers import REPORT, files, load_readings, pdf_text

guids, owner, files_dir = device_helpers.guids, device_helpers.owner, report_helpers.files_dir

pdfium = pytest.importorskip("pypdfium2")

MM = 72 / 25.4  # PDF points per millimetre


def ok(response):
    body = response.get_json()
    assert body["code"] == 0, body
    return body["data"]


def download(client, headers, file_id) -> bytes:
    response = client.get(f"{REPORT}/ExportFile/download/{file_id}", headers=headers)
    assert response.status_code == 200, response.get_json()
    return response.data


def request_file(client, headers, device_id, file_type, start, end, **extra) -> int:
    body = {"deviceIds": [device_id], "startTime": start.isoformat(), "endTime": end.isoformat(), "fileType": file_type}
    return ok(client.post(f"{REPORT}/ExportFile/export", json={**body, **extra}, headers=headers))["id"]


def statistic(report: str, label: str) -> str:
    """The value printed beside a label of the PDF's statistics table."""
    (line,) = [line.strip() for line in report.splitlines() if line.strip().startswith(label + " ")][:1]
    return line[len(label) + 1 :].strip()


def summary_of(rows: list[list], sensor_name: str) -> dict:
    """The summary row of a sensor as {header: value} (CSV: after the blank line; XLSX: first sheet)."""
    header_at = next(i for i, row in enumerate(rows) if row and row[0] in ("Device name",) and "Sensor" in row)
    header = rows[header_at]
    row = next(r for r in rows[header_at + 1 :] if r and r[2] == sensor_name)
    return dict(zip(header, row, strict=False))


# ---- one device, limits, an excursion, a gap: every output says the same --------------------------------


def test_pdf_xlsx_csv_and_the_chart_agree_with_the_alarm_list(app, make_client, owner, guids, files_dir, run_jobs):
    from openpyxl import load_workbook

    client = make_client(lang="en-US")
    guid, key = guids["th_a"]
    device_id = add(client, owner, guid, name="Fridge", tz="Europe/Berlin")
    set_limits(client, owner, device_id, {"sensor": 1, "upperLimit": 8.0, "lowerLimit": 2.0})
    now = utcnow().replace(second=0, microsecond=0)
    start = now - timedelta(hours=3)
    # Every 5 minutes; 9.0 - 10.1 °C from 120 to 110 minutes ago, back in range at 105 (15 minutes
    # out of range); nothing between 60 and 30 minutes ago (offline).
    values = {}
    for minutes in range(175, 4, -5):
        if 30 < minutes < 60:
            continue
        values[minutes] = {120: 9.0, 115: 10.1, 110: 9.5}.get(minutes, 5.0)
    for minutes, value in values.items():  # live, one upload per reading
        ts = int((now - timedelta(minutes=minutes)).timestamp() * 1000)
        assert upload(client, guid, key, [{"ts": ts, "readings": {"1": value, "2": 50}}]).status_code == 200

    page = ok(
        client.post(f"{ALARM}/Alarm/page", json={"deviceId": device_id, "start": 1, "pageSize": 10}, headers=owner)
    )
    assert page["total"] == 1
    (alarm,) = page["list"]
    assert alarm["kind"] == "upper" and alarm["status"] == "closed"
    assert alarm["durationSeconds"] == 15 * 60
    assert alarm["closeTime"] >= alarm["openTime"]
    limits = ok(client.get(f"{ALARM}/SensorLimit/list?deviceId={device_id}", headers=owner))
    assert [(row["sensor"], row["lowerLimit"], row["upperLimit"]) for row in limits] == [(1, 2.0, 8.0)]

    # No X-Timezone: the files use the device's zone.
    ids = {
        kind: request_file(client, owner, device_id, kind, start, now, sensors=[1]) for kind in ("csv", "xlsx", "pdf")
    }
    run_jobs()
    assert {row["id"]: row["status"] for row in files(client, owner)} == dict.fromkeys(ids.values(), "generated")

    rows = list(csv.reader(io.StringIO(download(client, owner, ids["csv"]).decode("utf-8-sig"))))
    assert rows[0][2] == "Time (Europe/Berlin)"
    csv_summary = summary_of(rows, "Temperature")
    assert (csv_summary["Lower limit"], csv_summary["Upper limit"]) == ("2.0", "8.0")
    assert csv_summary["Excursions"] == "1" and csv_summary["Longest excursion (h:mm)"] == "0:15"
    assert csv_summary["Gaps"] == "1"

    book = load_workbook(io.BytesIO(download(client, owner, ids["xlsx"])), read_only=True)
    sheet = [list(r) for r in book[book.sheetnames[0]].iter_rows(values_only=True)]
    xlsx_summary = summary_of(sheet, "Temperature")
    assert (xlsx_summary["Lower limit"], xlsx_summary["Upper limit"]) == (2.0, 8.0)
    assert xlsx_summary["Excursions"] == 1 and xlsx_summary["Longest excursion (h:mm)"] == "0:15"

    report = pdf_text(download(client, owner, ids["pdf"]))
    assert statistic(report, "Lower limit") == "2.0" and statistic(report, "Upper limit") == "8.0"
    assert statistic(report, "Excursions") == "1"
    assert statistic(report, "Longest excursion") == "15 min"
    assert statistic(report, "Time above upper limit") == "15 min"
    assert statistic(report, "Data completeness").startswith("30 of 36 expected")
    assert "Gaps (no data)" in report

    # The web chart: limit lines come from the same SensorLimit list; the gap is a null point (no
    # line across it) and is listed.
    query = f"deviceId={device_id}&start={start.isoformat()}&end={now.isoformat()}&sensors=1"
    chart = ok(client.get(f"{DEVICE}/DeviceData/chart?{query.replace('+', '%2B')}", headers=owner))
    points = chart["series"]["1"]
    nulls = [p for p in points if p["v"] is None]
    assert len(nulls) == 1
    (gap,) = chart["gaps"]["1"]
    assert gap["seconds"] == 30 * 60
    assert gap["start"] < nulls[0]["t"] < gap["end"]


# ---- the printed table never hides an extreme; gaps; back-filled readings ------------------------------


def test_a_minute_holding_an_extreme_prints_it_and_a_backfilled_reading_is_marked(
    app, make_client, owner, guids, files_dir, run_jobs
):
    client = make_client(lang="en-US")
    device_id = add(client, owner, guids["th_a"][0], name="Fridge", tz="UTC")
    start = datetime(2026, 3, 1, tzinfo=UTC)
    # One reading every 30 s for a day: too many to print each, so per interval min and max.
    values = [4.5] * 2880
    values[1201] = 10.1  # the second reading of its interval, never the first
    values[2001] = -3.7
    load_readings(app, device_id, values, start=start, step_s=30)
    with app.app_context():  # one reading arrived three hours after its time: back-filled
        db.session.execute(
            text("UPDATE reading SET received_at = ts + interval '3 hours' WHERE device_id = :d AND ts = :ts"),
            {"d": device_id, "ts": start + timedelta(seconds=30 * 100)},
        )
        db.session.commit()
    end = start + timedelta(days=1)
    pdf_id = request_file(client, {**owner, "X-Timezone": "UTC"}, device_id, "pdf", start, end, sensors=[1])
    csv_id = request_file(client, {**owner, "X-Timezone": "UTC"}, device_id, "csv", start, end, sensors=[1])
    run_jobs()
    report = pdf_text(download(client, owner, pdf_id))
    assert "10.1" in report and "-3.7" in report
    assert "lowest and highest reading" in report
    assert "2026-03-01 00:50:00 +00:00 *" in report  # the interval holding the back-filled reading
    rows = list(csv.reader(io.StringIO(download(client, owner, csv_id).decode("utf-8-sig"))))
    marked = [row for row in rows[1:] if len(row) > 3 and row[-2] == "back-filled"]
    assert [row[2] for row in marked] == ["2026-03-01 00:50:00 +00:00"]
    with app.app_context():
        point = ok(
            client.get(
                f"{DEVICE}/DeviceData/chart?deviceId={device_id}&sensors=1"
                f"&start=2026-03-01T00:45:00%2B00:00&end=2026-03-01T00:55:00%2B00:00",
                headers=owner,
            )
        )["series"]["1"]
    assert [p["t"] for p in point if p.get("b")] == [int((start + timedelta(seconds=3000)).timestamp() * 1000)]


def test_no_table_runs_past_the_margins(app, make_client, owner, guids, files_dir, run_jobs):
    """Render the PDF to images: nothing is drawn in the 15 mm side margins (a layout assertion)."""
    client = make_client(lang="en-US")
    device_id = add(client, owner, guids["cold_room"][0], name="Cold room 12345", tz="Europe/Berlin")
    start = datetime(2026, 3, 1, tzinfo=UTC)
    for sensor in (1, 2, 3, 4):
        load_readings(app, device_id, [3.0 + (i % 7) for i in range(3000)], sensor=sensor, start=start, step_s=60)
    with app.app_context():
        device = db.session.get(Device, device_id)
        for hour in range(6):
            alarm = Alarm(
                platform_id=device.platform_id,
                device_id=device_id,
                kind=AlarmKind.UPPER,
                sensor=1,
                status=AlarmStatus.CLOSED,
                breach_started_at=start + timedelta(hours=hour),
                opened_at=start + timedelta(hours=hour),
                closed_at=start + timedelta(hours=hour, minutes=20),
                last_seen_at=start + timedelta(hours=hour, minutes=20),
                peak_value=9.5,
            )
            db.session.add(alarm)
            db.session.flush()
            db.session.add(
                AlarmDisposition(
                    alarm_id=alarm.id,
                    state="agreed",
                    result="Door left open during a delivery; goods checked",
                    created_at=start + timedelta(hours=hour, minutes=30),
                )
            )
        db.session.commit()
    file_id = request_file(client, owner, device_id, "pdf", start, start + timedelta(days=2))
    run_jobs()
    document = pdfium.PdfDocument(download(client, owner, file_id))
    assert len(document) >= 2
    scale = 2
    for index, page in enumerate(document):
        image = page.render(scale=scale).to_pil().convert("L")
        width, height = image.size
        margin = int(14 * MM * scale)  # a little inside the 15 mm margins
        for box in ((0, 0, margin, height), (width - margin, 0, width, height)):
            darkest, _ = image.crop(box).getextrema()
            assert darkest > 245, f"page {index + 1}: something drawn in the margin {box}"


# ---- immutable evidence -------------------------------------------------------------------------------


def test_a_second_disposition_adds_history_and_keeps_the_first(app, client, owner, guids):
    guid, key = guids["th_a"]
    device_id = add(client, owner, guid)
    set_limits(client, owner, device_id, {"sensor": 1, "upperLimit": 8.0})
    now = utcnow()
    ts = int((now - timedelta(minutes=1)).timestamp() * 1000)
    assert upload(client, guid, key, [{"ts": ts, "readings": {"1": 12.0}}]).status_code == 200
    messages = ok(client.post(f"{ALARM}/AlarmMessage/page", json={"start": 1, "pageSize": 10}, headers=owner))
    message_id = messages["list"][0]["id"]
    for state, result in (("agreed", "Checked"), ("rejected", "Wrong probe")):
        body = {"ids": [message_id], "processState": state, "result": result}
        assert ok(client.put(f"{ALARM}/AlarmMessage/process", json=body, headers=owner))["processed"] == 1
    (alarm,) = ok(
        client.post(f"{ALARM}/Alarm/page", json={"deviceId": device_id, "start": 1, "pageSize": 5}, headers=owner)
    )["list"]
    assert alarm["processState"] == "rejected"  # the latest decision wins
    assert [(h["state"], h["result"]) for h in alarm["history"]] == [("agreed", "Checked"), ("rejected", "Wrong probe")]
    assert all(h["by"] and h["time"] for h in alarm["history"])
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(AlarmDisposition)) == 2


def test_a_reports_hash_is_stable_and_it_is_never_regenerated_in_place(app, client, owner, guids, files_dir, run_jobs):
    from api.report.generate import generate

    device_id = add(client, owner, guids["th_a"][0], name="Fridge")
    start = datetime(2026, 3, 1, tzinfo=UTC)
    load_readings(app, device_id, [5.0, 6.0, 7.0], start=start)
    first = request_file(client, owner, device_id, "pdf", start, start + timedelta(days=1))
    run_jobs()
    row = files(client, owner)[0]
    response = client.get(f"{REPORT}/ExportFile/download/{first}", headers=owner)
    digest = hashlib.sha256(response.data).hexdigest()
    assert row["contentHash"] == digest == response.headers["X-Content-SHA256"]
    assert row["version"] == 1
    with app.app_context():
        assert generate(first) == "skipped"  # a generated file is never written again
        assert db.session.get(ExportFile, first).content_hash == digest
    assert hashlib.sha256(download(client, owner, first)).hexdigest() == digest
    # The same report again is a new file, the next version; the first one stays as it was.
    second = request_file(client, owner, device_id, "pdf", start, start + timedelta(days=1))
    run_jobs()
    rows = {r["id"]: r for r in files(client, owner)}
    assert rows[second]["version"] == 2 and rows[first]["contentHash"] == digest


def test_the_same_report_written_twice_has_the_same_bytes(app, client, owner, guids, files_dir, tmp_path):
    """No creation date or random document id inside the PDF: its hash depends on its content only."""
    from api.report.formats import Presentation, Progress
    from api.report.kinds import device_subjects
    from api.report.pdf import write_pdf
    from api.report.present import Units

    device_id = add(client, owner, guids["th_a"][0], name="Fridge")
    start = datetime(2026, 3, 1, tzinfo=UTC)
    load_readings(app, device_id, [5.0, 6.0, 7.0], start=start)
    digests = set()
    with app.app_context(), app.test_request_context():
        device = db.session.get(Device, device_id)
        params = {"deviceIds": [device_id], "start": start.isoformat(), "end": (start + timedelta(days=1)).isoformat()}
        for name in ("a.pdf", "b.pdf"):
            presentation = Presentation(
                zone=ZoneInfo("UTC"),
                units=Units("C"),
                locale="zh-CN",
                platform=None,
                requester=None,
                generated_at=start,
            )
            progress = Progress(0, 1, lambda: 0.0)
            write_pdf(tmp_path / name, device_subjects(params, device.owner_account_id), presentation, progress)
            digests.add(hashlib.sha256((tmp_path / name).read_bytes()).hexdigest())
    assert len(digests) == 1


# ---- honest time --------------------------------------------------------------------------------------


def test_notification_csv_and_pdf_times_carry_offsets_across_dst_in_berlin(
    app, make_client, owner, guids, files_dir, run_jobs
):
    client = make_client(lang="en-US")
    device_id = add(client, owner, guids["th_a"][0], name="Fridge", tz="Europe/Berlin")
    # 2026-10-25: 03:00 CEST becomes 02:00 CET, so 02:30 local happens twice.
    start = datetime(2026, 10, 24, 23, 0, tzinfo=UTC)
    load_readings(app, device_id, [5.0] * 5, start=start, step_s=1800)
    end = start + timedelta(hours=3)
    csv_id = request_file(client, owner, device_id, "csv", start, end, sensors=[1])
    pdf_id = request_file(client, owner, device_id, "pdf", start, end, sensors=[1])
    run_jobs()
    rows = list(csv.reader(io.StringIO(download(client, owner, csv_id).decode("utf-8-sig"))))
    assert [row[2] for row in rows[1:6]] == [
        "2026-10-25 01:00:00 +02:00",
        "2026-10-25 01:30:00 +02:00",
        "2026-10-25 02:00:00 +02:00",
        "2026-10-25 02:30:00 +02:00",
        "2026-10-25 02:00:00 +01:00",
    ]
    report = pdf_text(download(client, owner, pdf_id))
    assert "2026-10-25 02:00:00 +02:00" in report and "2026-10-25 02:00:00 +01:00" in report
    with app.app_context():
        device = db.session.get(Device, device_id)
        for opened, expected in (
            (datetime(2026, 10, 25, 0, 30, tzinfo=UTC), "2026-10-25 02:30 +02:00"),
            (datetime(2026, 10, 25, 1, 30, tzinfo=UTC), "2026-10-25 02:30 +01:00"),
        ):
            alarm = Alarm(id=1, kind=AlarmKind.UPPER, sensor=1, opened_at=opened, last_value=9.0, limit_value=8.0)
            for lang in ("en-US", "zh-CN"):
                _subject, body = render(alarm, device, DEFAULT_RULES[AlarmKind.UPPER], Channel.SMS, lang, 1)
                assert expected in body, body


def test_a_reading_before_the_guid_was_issued_is_refused_and_an_alarm_never_closes_before_it_opens(
    app, client, owner, guids
):
    guid, key = guids["th_a"]
    device_id = add(client, owner, guid)
    with app.app_context():
        issued = db.session.get(Device, device_id).created_at
    before = int((issued - timedelta(days=1)).timestamp() * 1000)
    body = upload(client, guid, key, [{"ts": before, "readings": {"1": 4.0}}]).get_json()
    assert body["data"]["accepted"] == 0
    assert body["data"]["rejected"][0]["field"] == "ts"
    # A probe fault and its recovery, both back-filled in one late batch.
    old = utcnow() - timedelta(hours=5)
    records = [
        {"ts": int((old + timedelta(minutes=m)).timestamp() * 1000), "readings": {"1": v}}
        for m, v in ((0, None), (5, None), (10, 4.0))
    ]
    assert upload(client, guid, key, records).status_code == 200
    with app.app_context():
        (fault,) = db.session.scalars(select(Alarm).where(Alarm.kind == AlarmKind.FAULT)).all()
        assert fault.closed_at is not None and fault.closed_at >= fault.opened_at


def test_a_new_device_gets_its_types_included_sms_and_voice(app, client, owner, guids):
    device_id = add(client, owner, guids["th_a"][0])
    status = ok(client.get(f"{ALARM}/Alarm/deviceStatus?deviceId={device_id}", headers=owner))
    assert (status["smsCount"], status["voiceCount"]) == (INCLUDED_SMS, INCLUDED_VOICE)
    assert INCLUDED_SMS > 0 and INCLUDED_VOICE > 0


def test_a_chinese_report_names_the_model_and_sensors_in_chinese(app, make_client, owner, guids, files_dir, run_jobs):
    """One language per file: the worker renders catalogue names (type, sensor) in the file's language."""
    client = make_client(lang="zh-CN")
    device_id = add(client, owner, guids["th_a"][0], name="Fridge")
    start = utcnow() - timedelta(hours=2)
    load_readings(app, device_id, [5.0] * 4, start=start, step_s=1800)
    pdf_id = request_file(client, owner, device_id, "pdf", start, utcnow(), sensors=[1])
    run_jobs()
    report = pdf_text(download(client, owner, pdf_id))
    with app.app_context(), force_locale("zh_Hans_CN"):
        device = db.session.get(Device, device_id)
        english_type = device.device_type.type_name
        chinese_type = gettext(english_type)
    assert chinese_type != english_type, "the catalogue's type name has a zh-CN form"
    assert chinese_type in report and english_type not in report
    assert "温度" in report and "Temperature" not in report
