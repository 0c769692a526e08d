"""Issue 8: statistics (MKT), formula injection, exports, the download centre, scheduled reports."""

from __future__ import annotations

import io
import math
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import select

from api.device.models import Device
from api.extensions.db import db, utcnow
from api.report.models import ExportFile, FileStatus
from api.report.present import LocalTime, Units, neutralise
from api.report.stats import DELTA_H_OVER_R, SeriesStats, mean_kinetic_temperature
from tests.api import account_helpers, device_helpers, report_helpers
from tests.api.account_helpers import auth, login, make_account
from tests.api.device_helpers import add
from tests.api.report_helpers import REPORT, START, export, files, load_readings, read_csv, set_device

# Fixtures of the shared helpers.
guids, owner, stranger = device_helpers.guids, device_helpers.owner, device_helpers.stranger
providers, files_dir = account_helpers.providers, report_helpers.files_dir

H = 3_600_000  # one hour in ms

# ---- mean kinetic temperature and statistics ------------------------------------------------------


def test_delta_h_over_r_is_10000_kelvin():
    assert pytest.approx(83_144 / 8.3144) == DELTA_H_OVER_R  # ΔH = 83.144 kJ/mol, R = 8.3144 J/(mol·K)


def test_mkt_of_a_constant_series_is_its_mean():
    assert mean_kinetic_temperature([5.0] * 48) == pytest.approx(5.0, abs=1e-9)
    assert mean_kinetic_temperature([-18.0] * 3) == pytest.approx(-18.0, abs=1e-9)
    assert mean_kinetic_temperature([]) is None


def test_mkt_of_one_hot_hour_exceeds_the_mean():
    # 23 hourly readings at 5 °C and one at 25 °C. By hand:
    #   exp(-10000/278.15) = 2.43400e-16, exp(-10000/298.15) = 2.71451e-15
    #   mean of the 24 terms = (23 x 2.43400e-16 + 2.71451e-15) / 24 = 3.46363e-16
    #   MKT = 10000 / -ln(3.46363e-16) - 273.15 = 10000 / 35.59887 - 273.15 = 7.756 °C; the mean is 5.833 °C
    series = [5.0] * 23 + [25.0]
    mkt = mean_kinetic_temperature(series)
    assert mkt == pytest.approx(7.756, abs=0.001)
    assert mkt > sum(series) / len(series)


def test_mkt_of_two_temperatures():
    # 0 °C and 20 °C equally long: 10000 / -ln((exp(-10000/273.15) + exp(-10000/293.15)) / 2) - 273.15
    assert mean_kinetic_temperature([0.0, 20.0]) == pytest.approx(14.816, abs=0.001)


def test_streaming_stats_against_the_raw_series():
    # Every 10 minutes; limits 2..8 °C. Above: readings 3-4 (one excursion, 2 steps = 20 min);
    # below: reading 7 (one excursion, 10 min), and the last reading (another excursion, charged
    # one logging interval = 10 min).
    values = [4.0, 5.0, 6.0, 9.0, 10.0, 7.0, 3.0, 1.0, 4.0, 1.5]
    stats = SeriesStats(lower=2.0, upper=8.0)
    for i, value in enumerate(values):
        stats.add(i * 600_000, value)
    stats.finish()
    assert stats.count == len(values)
    assert stats.minimum == min(values) and stats.maximum == max(values)
    assert stats.mean == pytest.approx(sum(values) / len(values))
    assert stats.mkt == pytest.approx(mean_kinetic_temperature(values))
    assert stats.interval_s == 600
    assert stats.seconds_above == 1200
    assert stats.seconds_below == 1200
    assert stats.excursions == 3
    assert stats.first == (0, 4.0) and stats.last == (9 * 600_000, 1.5)


def test_a_gap_is_not_counted_as_time_out_of_range():
    stats = SeriesStats(upper=8.0)
    for ms, value in [(0, 9.0), (600_000, 9.0), (1_200_000, 4.0), (1_800_000, 9.0), (20 * H, 4.0)]:
        stats.add(ms, value)
    stats.finish()
    # 10 + 10 min of the first excursion; the second reading before a 19.5 h gap counts one interval.
    assert stats.seconds_above == 1800
    assert stats.excursions == 2


def test_humidity_has_no_mkt():
    stats = SeriesStats(temperature=False)
    stats.add(0, 55.0)
    assert stats.mkt is None


# ---- presentation -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('=HYPERLINK("http://x")', '\'=HYPERLINK("http://x")'),
        ("+1+2", "'+1+2"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tcmd", "'\tcmd"),
        ("\rcmd", "'\rcmd"),
        ("Fridge 1", "Fridge 1"),
        ("冷库=1", "冷库=1"),
        ("", ""),
        (None, ""),
    ],
)
def test_formula_injection_is_neutralised(text, expected):
    assert neutralise(text) == expected


@pytest.mark.parametrize("zone", ["America/New_York", "Asia/Kolkata", "Asia/Shanghai", "UTC"])
def test_local_times_follow_the_zone_across_daylight_saving(zone):
    formatter = LocalTime(ZoneInfo(zone))
    moment = datetime(2026, 3, 8, 0, 0, tzinfo=UTC)
    for step in range(0, 36 * 60, 7):  # 36 hours around the US change, every 7 minutes
        ts = moment + timedelta(minutes=step, seconds=step % 60)
        expected = ts.astimezone(ZoneInfo(zone)).strftime("%Y-%m-%d %H:%M:%S")
        assert formatter(int(ts.timestamp() * 1000)) == expected


def test_fahrenheit_conversion_of_values_limits_and_differences():
    from api.report.kinds import Sensor

    temperature = Sensor(1, "T", "°C", True, 1)
    humidity = Sensor(2, "H", "%RH", False, 1)
    fahrenheit = Units("F")
    assert fahrenheit.value(temperature, 0.0) == 32.0
    assert fahrenheit.value(temperature, -40.0) == -40.0
    assert fahrenheit.value(temperature, 36.6) == pytest.approx(97.88)
    assert fahrenheit.delta(temperature, 10.0) == 18.0
    assert fahrenheit.value(humidity, 55.0) == 55.0
    assert fahrenheit.label(temperature) == "°F" and fahrenheit.label(humidity) == "%RH"
    assert fahrenheit.converter(temperature)(-18.0) == "-0.4"
    assert Units("C").converter(temperature)(-18.04) == "-18.0"


# ---- exports and the download centre --------------------------------------------------------------


def test_csv_export_in_the_requesters_zone_and_unit(app, client, owner, guids, files_dir, run_jobs):
    device_id = add(client, owner, guids["th_a"][0], name="=cmd|' /C calc")
    set_device(app, device_id, sensor_settings={"1": {"name": "@probe"}})
    load_readings(app, device_id, [4.0, -18.0, 25.5], step_s=3600, start=datetime(2026, 3, 8, 6, 0, tzinfo=UTC))
    load_readings(
        app, device_id, [55.0, 56.0, 57.0], sensor=2, step_s=3600, start=datetime(2026, 3, 8, 6, 0, tzinfo=UTC)
    )
    headers = {**owner, "X-Timezone": "America/New_York"}
    body = export(client, headers, [device_id], "csv", start=datetime(2026, 3, 8, tzinfo=UTC), unit="F")
    assert body["code"] == 0, body
    assert body["data"]["status"] == "generating"
    assert body["data"]["fileName"].endswith(".csv")
    run_jobs()
    row = files(client, owner)[0]
    assert row["status"] == "generated" and row["progress"] == 100 and row["fileSize"] > 0
    raw, rows = read_csv(client, owner, row["id"])
    assert raw.startswith(b"\xef\xbb\xbf")  # UTF-8 BOM: Excel reads Chinese correctly
    # One language per file: the catalogue's parameter names too.
    assert rows[0] == ["设备名称", "GUID", "时间 (America/New_York)", "'@probe (°F)", "湿度 (%RH)", "补传", "校准过期"]
    # 06:00 UTC on 8 March is 01:00 EST; 07:00 UTC is 03:00 EDT (the clocks went forward at 02:00).
    assert rows[1] == ["'=cmd|' /C calc", guids["th_a"][0], "2026-03-08 01:00:00 -05:00", "39.2", "55.0", "", ""]
    assert rows[2][2:] == ["2026-03-08 03:00:00 -04:00", "-0.4", "56.0", "", ""]
    assert rows[3][2:] == ["2026-03-08 04:00:00 -04:00", "77.9", "57.0", "", ""]
    assert rows[4] == []  # then the summary per sensor
    assert rows[5][:5] == ["设备名称", "GUID", "传感器", "单位", "数据记录"]
    # Then each probe's calibration (none here) and what the overdue mark means, then the alarm list.
    assert rows[8] == [] and rows[9] == ["校准"] and [r[3] for r in rows[11:13]] == ["无证书", "无证书"]
    assert rows[14] == [] and len(rows[15]) == 1 and len(rows[16]) == 10
    assert len(rows) == 17


def test_export_of_chosen_sensors_in_celsius(app, make_client, owner, guids, files_dir, run_jobs):
    client = make_client(lang="en-US")
    device_id = add(client, owner, guids["th_a"][0], name="Fridge")
    load_readings(app, device_id, [4.0, 5.0])
    load_readings(app, device_id, [60.0, 61.0], sensor=2)
    body = export(client, {**owner, "X-Timezone": "Asia/Shanghai"}, [device_id], "csv", sensors=[1])
    assert body["code"] == 0, body
    run_jobs()
    _, rows = read_csv(client, owner, body["data"]["id"])
    assert rows[0] == [
        "Device name",
        "GUID",
        "Time (Asia/Shanghai)",
        "Temperature (°C)",
        "Back-filled",
        "Calibration overdue",
    ]
    assert rows[1][2:] == ["2026-03-07 08:00:00 +08:00", "4.0", "", ""]


def test_xlsx_export_has_a_summary_and_a_sheet_per_device(app, client, owner, guids, files_dir, run_jobs):
    from openpyxl import load_workbook

    first = add(client, owner, guids["th_a"][0], name="Fridge A")
    second = add(client, owner, guids["th_b"][0], name="Fridge B")
    load_readings(app, first, [5.0] * 10)
    load_readings(app, second, [4.0, 6.0])
    body = export(client, {**owner, "X-Timezone": "UTC"}, [first, second], "xlsx", sensors=[1])
    assert body["code"] == 0, body
    run_jobs()
    response = client.get(f"{REPORT}/ExportFile/download/{body['data']['id']}", headers=owner)
    assert response.status_code == 200
    book = load_workbook(io.BytesIO(response.data), read_only=True)
    assert book.sheetnames[1:] == ["Fridge A", "Fridge B", "校准", "报警记录"]  # then the alarm list
    rows = list(book["Fridge A"].iter_rows(values_only=True))
    assert len(rows) == 11
    assert rows[1][:3] == (datetime(2026, 3, 7, 0, 0), "+00:00", 5.0)  # local time, its offset, value
    summary = list(book[book.sheetnames[0]].iter_rows(values_only=True))
    assert summary[1][4] == 10 and summary[1][6:10] == (5.0, 5.0, 5.0, 5.0)  # count, min, max, average, MKT
    assert summary[2][4] == 2 and summary[2][9] == pytest.approx(mean_kinetic_temperature([4.0, 6.0]), abs=0.01)


def test_pdf_report_is_generated(app, client, owner, guids, files_dir, run_jobs):
    device_id = add(client, owner, guids["th_a"][0], name="冷藏柜")
    load_readings(app, device_id, [5.0 + math.sin(i / 20) * 4 for i in range(288)], step_s=600)
    body = export(client, owner, [device_id], "pdf")
    assert body["code"] == 0, body
    run_jobs()
    row = files(client, owner)[0]
    assert row["status"] == "generated", row
    response = client.get(f"{REPORT}/ExportFile/download/{row['id']}", headers=owner)
    assert response.data.startswith(b"%PDF") and response.headers["Content-Type"] == "application/pdf"
    assert "attachment" in response.headers["Content-Disposition"]


def test_a_generating_file_cannot_be_downloaded_yet(app, client, owner, guids, files_dir):
    device_id = add(client, owner, guids["th_a"][0])
    body = export(client, owner, [device_id], "csv")  # queued, no worker ran
    response = client.get(f"{REPORT}/ExportFile/download/{body['data']['id']}", headers=owner).get_json()
    assert response["code"] == 3101
    assert response["msg"] == "报告未生成，请稍后再试！"


def test_a_failed_file_shows_its_reason(app, client, owner, guids, files_dir, run_jobs):
    device_id = add(client, owner, guids["th_a"][0])
    body = export(client, owner, [device_id], "csv")
    with app.app_context():  # the device left the account before the job ran
        set_device(app, device_id, owner_account_id=None)
    run_jobs()
    row = files(client, owner)[0]
    assert row["status"] == "failed" and row["reason"]
    assert body["data"]["id"] == row["id"]


def test_export_input_is_validated(client, owner, guids, files_dir):
    device_id = add(client, owner, guids["th_a"][0])
    backwards = export(client, owner, [device_id], "csv", start=START, end=START - timedelta(hours=1))
    assert backwards["code"] == 422 and "endTime" in backwards["data"]["errors"]
    too_long = export(client, owner, [device_id], "csv", end=START + timedelta(days=400))
    assert too_long["code"] == 422 and "endTime" in too_long["data"]["errors"]
    assert export(client, owner, [device_id], "doc")["data"]["errors"]["fileType"]
    assert export(client, owner, [device_id], "csv", sensors=[7])["data"]["errors"]["sensors"]
    assert files(client, owner) == []


def test_expired_service_plus_three_months_refuses_export_and_download(app, client, owner, guids, files_dir, run_jobs):
    device_id = add(client, owner, guids["th_a"][0])
    load_readings(app, device_id, [5.0])
    body = export(client, owner, [device_id], "csv")
    run_jobs()
    set_device(app, device_id, service_expires_at=utcnow() - timedelta(days=100))
    refused = export(client, owner, [device_id], "csv")
    assert refused["code"] == 3005
    assert refused["msg"]
    download = client.get(f"{REPORT}/ExportFile/download/{body['data']['id']}", headers=owner).get_json()
    assert download["code"] == 3005
    # Within the three months it still works.
    set_device(app, device_id, service_expires_at=utcnow() - timedelta(days=30))
    assert client.get(f"{REPORT}/ExportFile/download/{body['data']['id']}", headers=owner).status_code == 200


def test_a_scheduled_run_of_a_long_expired_device_fails_with_the_reason(app, client, owner, guids, files_dir, run_jobs):
    from api.report.jobs import run_due_reports

    device_id = add(client, owner, guids["th_a"][0])
    created = schedule(client, owner, [device_id], nextReportTime=(utcnow() - timedelta(minutes=1)).isoformat())
    assert created["code"] == 0, created
    set_device(app, device_id, service_expires_at=utcnow() - timedelta(days=100))
    with app.app_context():
        assert len(run_due_reports()) == 1
    run_jobs()
    row = files(client, owner)[0]
    assert row["status"] == "failed"
    assert row["reason"] == "该设备服务已过期超过三个月。"


def test_delete_removes_the_row_and_the_file(app, client, owner, guids, files_dir, run_jobs):
    device_id = add(client, owner, guids["th_a"][0])
    load_readings(app, device_id, [5.0])
    body = export(client, owner, [device_id], "csv")
    run_jobs()
    assert len(list(files_dir.iterdir())) == 1
    assert client.delete(f"{REPORT}/ExportFile/delete/{body['data']['id']}", headers=owner).get_json()["code"] == 0
    assert files(client, owner) == []
    assert list(files_dir.iterdir()) == []


def test_at_most_five_files_generate_at_once(client, owner, guids, files_dir):
    device_id = add(client, owner, guids["th_a"][0])
    for _ in range(5):
        assert export(client, owner, [device_id], "csv")["code"] == 0  # queued, no worker runs them
    refused = export(client, owner, [device_id], "csv")
    assert refused["code"] == 3103 and "5" in refused["msg"]
    assert len(files(client, owner)) == 5


def test_another_accounts_file_is_404(app, client, owner, stranger, guids, files_dir, run_jobs):
    device_id = add(client, owner, guids["th_a"][0])
    load_readings(app, device_id, [5.0])
    body = export(client, owner, [device_id], "csv")
    run_jobs()
    file_id = body["data"]["id"]
    assert files(client, stranger) == []
    assert client.get(f"{REPORT}/ExportFile/download/{file_id}", headers=stranger).status_code == 404
    assert client.delete(f"{REPORT}/ExportFile/delete/{file_id}", headers=stranger).status_code == 404
    # Nor can a stranger export the owner's device.
    assert export(client, stranger, [device_id], "csv")["code"] == 404
    assert client.get(f"{REPORT}/ExportFile/download/{file_id}", headers=owner).status_code == 200


def test_another_platforms_file_is_404(app, make_client, owner, guids, files_dir, run_jobs):
    from api.identity.models import StaffRole

    client = make_client()
    device_id = add(client, owner, guids["th_a"][0])
    body = export(client, owner, [device_id], "csv")
    run_jobs()
    make_account(app, host="junjia.localhost", user_name="reseller", staff_role=StaffRole.PLATFORM_ADMIN)
    junjia = make_client(host="junjia.localhost")
    reseller = auth(login(junjia, "reseller"))
    assert junjia.get(f"{REPORT}/ExportFile/download/{body['data']['id']}", headers=reseller).status_code == 404
    assert files(junjia, reseller) == []


def test_expired_files_are_purged(app, client, owner, guids, files_dir, run_jobs):
    from api.report.jobs import purge_expired_files

    device_id = add(client, owner, guids["th_a"][0])
    load_readings(app, device_id, [5.0])
    export(client, owner, [device_id], "csv")
    keep = export(client, owner, [device_id], "csv")
    run_jobs()
    with app.app_context():
        first = db.session.scalars(select(ExportFile).order_by(ExportFile.id)).first()
        first.expires_at = utcnow() - timedelta(minutes=1)
        db.session.commit()
        assert purge_expired_files() == 1
    assert [f["id"] for f in files(client, owner)] == [keep["data"]["id"]]
    assert len(list(files_dir.iterdir())) == 1


def test_sweeper_requeues_a_stale_file_then_gives_up(app, client, owner, guids, files_dir, run_jobs, monkeypatch):
    from api.report.jobs import sweep_stale_files

    monkeypatch.setitem(app.config, "EXPORT_MAX_ATTEMPTS", 2)
    device_id = add(client, owner, guids["th_a"][0])
    load_readings(app, device_id, [5.0])
    body = export(client, owner, [device_id], "csv")
    file_id = body["data"]["id"]

    def crashed(attempts):  # what a worker killed mid-job leaves behind
        with app.app_context():
            row = db.session.get(ExportFile, file_id)
            row.status, row.attempts = FileStatus.GENERATING, attempts
            row.heartbeat_at = utcnow() - timedelta(minutes=10)
            db.session.commit()

    crashed(1)
    with app.app_context():
        assert sweep_stale_files() == {"requeued": [file_id], "failed": []}
    run_jobs()
    assert files(client, owner)[0]["status"] == "generated"
    with app.app_context():
        db.session.get(ExportFile, file_id).stored_name = None
        db.session.commit()
    crashed(2)
    with app.app_context():
        assert sweep_stale_files() == {"requeued": [], "failed": [file_id]}
    row = files(client, owner)[0]
    assert row["status"] == "failed" and "2" in row["reason"]


def test_a_live_job_is_not_claimed_twice(app, client, owner, guids, files_dir):
    from api.report.generate import claim

    device_id = add(client, owner, guids["th_a"][0])
    file_id = export(client, owner, [device_id], "csv")["data"]["id"]
    with app.app_context():
        assert claim(file_id) is True
        assert claim(file_id) is False  # its heartbeat is fresh


# ---- scheduled reports ----------------------------------------------------------------------------

RECEIVERS = [{"name": "QA", "email": "qa@example.com"}, {"name": "Ops", "phone": "13800138000"}]


def schedule(client, headers, device_ids, **changes):
    body = {
        "reportName": "Daily fridge",
        "reportType": "device",
        "frequency": "daily",
        "receivers": RECEIVERS,
        "deviceIds": device_ids,
        "nextReportTime": (utcnow() + timedelta(hours=1)).isoformat(),
        **changes,
    }
    return client.post(f"{REPORT}/ScheduledReport/insert", json=body, headers=headers).get_json()


def test_scheduled_report_validation(client, owner, guids):
    device_id = add(client, owner, guids["th_a"][0])
    assert "reportName" in schedule(client, owner, [device_id], reportName="x" * 21)["data"]["errors"]
    duplicate_email = [{"name": "A", "email": "qa@example.com"}, {"name": "B", "email": "QA@example.com"}]
    body = schedule(client, owner, [device_id], receivers=duplicate_email)
    assert body["code"] == 422 and "receivers" in body["data"]["errors"]
    duplicate_phone = [{"name": "A", "phone": "13800138000"}, {"name": "B", "phone": "+86 138 0013 8000"}]
    assert "receivers" in schedule(client, owner, [device_id], receivers=duplicate_phone)["data"]["errors"]
    assert schedule(client, owner, [device_id], receivers=[{"name": "A"}])["code"] == 422
    assert schedule(client, owner, [device_id], frequency="hourly")["data"]["errors"]["frequency"]
    page = client.post(f"{REPORT}/ScheduledReport/page", json={}, headers=owner).get_json()
    assert page["data"]["total"] == 0


def test_scheduled_report_crud_and_cross_account(client, owner, stranger, guids):
    device_id = add(client, owner, guids["th_a"][0])
    created = schedule(client, owner, [device_id])
    assert created["code"] == 0, created
    report = created["data"]
    assert report["receivers"][1]["phone"] == "+8613800138000"
    assert schedule(client, stranger, [device_id])["code"] == 404  # not the stranger's device
    assert client.post(f"{REPORT}/ScheduledReport/page", json={}, headers=stranger).get_json()["data"]["total"] == 0
    update = {
        "id": report["id"],
        "reportName": "Weekly",
        "frequency": "weekly",
        "receivers": RECEIVERS,
        "deviceIds": [device_id],
        "nextReportTime": report["nextReportTime"],
    }
    assert client.put(f"{REPORT}/ScheduledReport/update", json=update, headers=stranger).status_code == 404
    updated = client.put(f"{REPORT}/ScheduledReport/update", json=update, headers=owner).get_json()
    assert updated["data"]["frequency"] == "weekly" and updated["data"]["reportName"] == "Weekly"
    assert client.delete(f"{REPORT}/ScheduledReport/delete/{report['id']}", headers=stranger).status_code == 404
    assert client.delete(f"{REPORT}/ScheduledReport/delete/{report['id']}", headers=owner).get_json()["code"] == 0


def test_next_run_and_period_follow_the_reports_zone():
    from api.report.models import Frequency
    from api.report.services import advance, period_before

    zone = ZoneInfo("America/New_York")
    eight = datetime(2026, 3, 7, 8, 0, tzinfo=zone).astimezone(UTC)
    assert advance(eight, Frequency.DAILY, zone).astimezone(zone).hour == 8  # across the DST change
    jan31 = datetime(2026, 1, 31, 8, 0, tzinfo=zone).astimezone(UTC)
    assert advance(jan31, Frequency.MONTHLY, zone).astimezone(zone).date().isoformat() == "2026-02-28"
    start, end = period_before(jan31, Frequency.WEEKLY, zone)
    assert (end - start) == timedelta(days=7)


def test_due_scheduled_report_is_generated_and_emailed_with_the_pdf(
    app, client, owner, guids, files_dir, run_jobs, providers
):
    from api.report.jobs import run_due_reports

    inbox, sms = providers
    device_id = add(client, owner, guids["th_a"][0], name="Fridge")
    now = utcnow()
    load_readings(app, device_id, [5.0, 6.0, 5.5], start=now - timedelta(hours=5), step_s=3600)
    created = schedule(client, owner, [device_id], nextReportTime=(now - timedelta(minutes=1)).isoformat())
    assert created["code"] == 0, created
    with app.app_context():
        assert len(run_due_reports()) == 1
        assert run_due_reports() == []  # moved on to tomorrow
    run_jobs()
    row = files(client, owner)[0]
    assert row["status"] == "generated" and row["fileName"].startswith("Daily fridge_") and row["fileType"] == "pdf"
    run_jobs()  # the outbox
    mails = [m for m in inbox.messages if m["To"] == "qa@example.com"]
    assert len(mails) == 1
    attachments = [part for part in mails[0].walk() if part.get_content_disposition() == "attachment"]
    assert len(attachments) == 1 and attachments[0].get_content_type() == "application/pdf"
    assert attachments[0].get_filename() == row["fileName"]  # the file's own name, not its storage name
    assert attachments[0].get_payload(decode=True).startswith(b"%PDF")
    assert any("Daily fridge" in text for text in sms.texts_to("+8613800138000"))
    page = client.post(f"{REPORT}/ScheduledReport/page", json={}, headers=owner).get_json()["data"]["list"][0]
    assert page["lastFileId"] == row["id"]
    assert datetime.fromisoformat(page["nextReportTime"]) > now


def test_the_report_lists_the_alarms_open_during_its_range_with_their_processing(
    app, client, owner, guids, files_dir, run_jobs
):
    from api.alarm.models import Alarm, AlarmKind, AlarmStatus, ProcessState
    from api.report.kinds import alarm_records

    device_id = add(client, owner, guids["th_a"][0], name="Fridge")
    load_readings(app, device_id, [5.0, 9.5, 5.0], step_s=3600)
    with app.app_context():
        platform_id = db.session.get(Device, device_id).platform_id

        def alarm(opened_h, closed_h, **extra):
            opened = START + timedelta(hours=opened_h)
            closed = START + timedelta(hours=closed_h) if closed_h is not None else None
            row = Alarm(
                platform_id=platform_id,
                device_id=device_id,
                kind=AlarmKind.UPPER,
                sensor=1,
                status=AlarmStatus.CLOSED if closed else AlarmStatus.OPEN,
                breach_started_at=opened,
                opened_at=opened,
                closed_at=closed,
                last_seen_at=closed or opened,
                peak_value=9.5,
                **extra,
            )
            db.session.add(row)
            return row

        before = alarm(-5, -1)  # closed before the range: not listed
        spanning = alarm(-1, 2, process_state=ProcessState.AGREED, result="Door closed")
        still_open = alarm(30, None)
        alarm(49, 50)  # opened after the range
        db.session.commit()
        listed = [a.id for a, _handler in alarm_records(device_id, START, START + timedelta(days=2))]
        assert listed == [spanning.id, still_open.id]
        assert before.id not in listed
    body = export(client, owner, [device_id], "pdf")
    run_jobs()
    row = files(client, owner)[0]
    assert body["code"] == 0 and row["status"] == "generated", row
    # Issue 47: CSV and XLSX list the same alarms as the PDF (they listed none).
    from openpyxl import load_workbook

    csv_body = export(client, {**owner, "X-Timezone": "UTC"}, [device_id], "csv")
    xlsx_body = export(client, {**owner, "X-Timezone": "UTC"}, [device_id], "xlsx")
    run_jobs()
    _, rows = read_csv(client, owner, csv_body["data"]["id"])
    title = rows.index(["报警记录"])
    header, *alarm_rows = rows[title + 1 :]
    assert header[:2] == ["设备名称", "GUID"] and len(header) == 10, header
    assert len(alarm_rows) == 2, alarm_rows
    assert alarm_rows[0][7] == "9.5 °C" and alarm_rows[0][9] == "已同意" and alarm_rows[1][4] == "仍在报警"
    response = client.get(f"{REPORT}/ExportFile/download/{xlsx_body['data']['id']}", headers=owner)
    book = load_workbook(io.BytesIO(response.data), read_only=True)
    sheet = list(book[book.sheetnames[-1]].iter_rows(values_only=True))
    assert len(sheet) == 3 and sheet[1][7] == "9.5 °C", sheet
