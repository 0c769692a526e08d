"""The optional calibration correction (issue 48): a device's setting (owner / operate, on the audit trail
with FDA mode's reason, refused to another account), the correction spans of certificates, and the
corrected values against hand-computed ones in the chart answer, the CSV and the XLSX (read back),
with the raw values beside; off, nothing changes."""

from __future__ import annotations

import io
from datetime import datetime, timedelta

import openpyxl
import pytest
from sqlalchemy import select

from api.audit.models import OperationLog
from api.extensions.db import db
from api.telemetry.calibration import CalibrationPoint, Corrections, ProbeCertificate, correction_intervals
from tests.api import device_helpers, report_helpers
from tests.api.calibration_helpers import CAL
from tests.api.device_helpers import DEVICE, add
from tests.api.fda_helpers import REASON, fda_mode
from tests.api.report_helpers import START, load_readings, pdf_text, read_csv
from tests.api.test_evidence import download, request_file
from tests.api.test_probe_calibration import body

guids, owner, stranger, files_dir = (
    device_helpers.guids,
    device_helpers.owner,
    device_helpers.stranger,
    report_helpers.files_dir,
)
PROBE = f"{CAL}/ProbeCertificate"
EN = {"Accept-Language": "en-US", "X-Timezone": "UTC"}
HOUR, DAY = timedelta(hours=1), timedelta(days=1)
POINTS = (CalibrationPoint(0.0, 0.2, 0.2), CalibrationPoint(25.0, 24.9, -0.1))


def cert(calibrated, due, number="C", passed=True, points=POINTS) -> ProbeCertificate:
    return ProbeCertificate(number, "Lab", calibrated, due, passed, points)


def ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


# ---- spans and the walker ------------------------------------------------------------------------------


def test_a_certificate_corrects_from_its_calibration_to_its_due_date_or_the_next_calibration():
    t = START
    first, second = cert(t, t + 10 * DAY, "A"), cert(t + 5 * DAY, t + 40 * DAY, "B")
    assert [(lo, hi, c.number) for lo, hi, c in correction_intervals([first, second])] == [
        (t, t + 5 * DAY, "A"),
        (t + 5 * DAY, t + 40 * DAY, "B"),
    ]
    # Lapsed (overdue) between A's due date and C's calibration: nothing corrects there.
    late = cert(t + 15 * DAY, t + 40 * DAY, "C")
    assert [(lo, hi) for lo, hi, _ in correction_intervals([first, late])] == [
        (t, t + 10 * DAY),
        (t + 15 * DAY, t + 40 * DAY),
    ]
    # A failed certificate, or one without points, corrects nothing (and still ends the one before).
    failed = cert(t + 5 * DAY, t + 40 * DAY, "F", passed=False)
    assert [c.number for *_, c in correction_intervals([first, failed])] == ["A"]
    assert correction_intervals([cert(t, t + DAY, points=())]) == []
    assert correction_intervals([]) == []


def test_the_walker_answers_the_correction_in_force_in_time_order():
    walker = Corrections([(100, 200, cert(START, START + DAY, "A")), (300, 400, cert(START, START + DAY, "B"))])
    asked = [50, 100, 199, 200, 299, 300, 399, 400, 1000]
    got = [(walker(t) is not None, walker.certificate.number if walker.certificate else None) for t in asked]
    assert got == [
        (False, None),
        (True, "A"),
        (True, "A"),
        (False, None),
        (False, None),
        (True, "B"),
        (True, "B"),
        (False, None),
        (False, None),
    ]
    assert walker.advance(1000) is None and Corrections([]).edge == float("inf")


# ---- the setting ---------------------------------------------------------------------------------------


def switch(client, headers, device_id, enabled):
    return client.post(f"{PROBE}/correction", json={"deviceId": device_id, "enabled": enabled}, headers=headers)


def listed(client, headers, device_id):
    return client.get(f"{PROBE}/list", query_string={"deviceId": device_id}, headers=headers).get_json()["data"]


def test_the_owner_switches_it_with_a_reason_on_the_trail_and_another_account_cannot(
    app, client, owner, stranger, guids
):
    device_id = add(client, owner, guids["th_a"][0], tz="UTC")
    assert listed(client, owner, device_id)["correction"] is False
    refused = switch(client, stranger, device_id, True)
    assert refused.status_code in (403, 404), refused.get_json()
    assert listed(client, owner, device_id)["correction"] is False
    answer = switch(client, {**owner, **EN}, device_id, True).get_json()
    assert answer["code"] == 0 and answer["data"] == {"deviceId": device_id, "enabled": True}
    assert listed(client, owner, device_id)["correction"] is True
    # FDA mode: no reason, no change; with one, the reason is on the trail beside the row's change.
    fda_mode(app)
    unexplained = switch(client, {**owner, **EN}, device_id, False).get_json()
    assert unexplained["code"] == 4604, unexplained
    assert listed(client, owner, device_id)["correction"] is True
    assert switch(client, {**owner, **EN, **REASON}, device_id, False).get_json()["code"] == 0
    assert listed(client, owner, device_id)["correction"] is False
    with app.app_context():
        entry = db.session.scalars(
            select(OperationLog).where(OperationLog.path == f"{PROBE}/correction").order_by(OperationLog.id.desc())
        ).first()
        assert entry.reason == "Per SOP-7"
        (after,) = [row for row in entry.after if row.get("table") == "device"]
        assert after["values"]["calibration_correction"] is False, entry.after
        (before,) = [row for row in entry.before if row.get("table") == "device"]
        assert before["values"]["calibration_correction"] is True


# ---- the values ---------------------------------------------------------------------------------------

# Hourly readings from START - 6 h to START + 30 h (36), cycling through these raw values. EXT-A
# (calibrated START, points 0.2 -> 0.0 and 20.2 -> 20.4) corrects [START, START + 24 h): there the
# failed EXT-F is calibrated, which ends EXT-A's span and corrects nothing itself.
RAW = [0.2, 5.2, 30.0, -5.0]
# By hand: 0.2 is the first point (deviation 0.2) -> 0.0; 5.2 is a quarter of the way from 0.2 to 20.2,
# the deviation a quarter of the way from 0.2 to -0.2 (0.1) -> 5.1; 30.0 beyond the last point keeps
# its -0.2 -> 30.2; -5.0 below the first keeps its 0.2 -> -5.2.
CORRECTED = {0.2: 0.0, 5.2: 5.1, 30.0: 30.2, -5.0: -5.2}
FIRST = START - 6 * HOUR


@pytest.fixture
def corrected_device(app, client, owner, guids):
    device_id = add(client, owner, guids["th_a"][0], tz="UTC")
    load_readings(app, device_id, [RAW[i % 4] for i in range(36)], start=FIRST, step_s=3600)
    headers = {**owner, **EN}
    ext_a = body(device_id, number="EXT-A", calibratedAt="2026-03-07", dueAt="2027-03-07")
    ext_a["points"] = [{"reference": 0, "measured": 0.2}, {"reference": 20.4, "measured": 20.2}]
    ext_f = body(device_id, number="EXT-F", calibratedAt="2026-03-08", dueAt="2027-03-08", passed=False)
    for certificate in (ext_a, ext_f):
        assert client.post(f"{PROBE}/add", json=certificate, headers=headers).get_json()["code"] == 0
    return device_id


def covered(i: int) -> bool:
    return 6 <= i < 30  # [START, START + 24 h)


def chart(client, headers, device_id):
    query = {"deviceId": device_id, "sensors": "1", "start": FIRST.isoformat(), "end": (START + DAY * 2).isoformat()}
    return client.get(f"{DEVICE}/DeviceData/chart", query_string=query, headers=headers).get_json()["data"]


def test_the_chart_answers_corrected_values_only_when_switched_on(client, owner, corrected_device):
    off = chart(client, owner, corrected_device)
    points = [p for p in off["series"]["1"] if p["v"] is not None]
    assert [p["v"] for p in points] == pytest.approx([RAW[i % 4] for i in range(36)])
    assert not any("c" in p or "r" in p for p in points) and off["corrected"] is False and off["corrections"] == {}
    assert switch(client, {**owner, **EN}, corrected_device, True).get_json()["code"] == 0
    on = chart(client, owner, corrected_device)
    points = [p for p in on["series"]["1"] if p["v"] is not None]
    assert len(points) == 36 and on["corrected"] is True
    for i, point in enumerate(points):
        raw = RAW[i % 4]
        if covered(i):
            assert point["c"] is True and point["r"] == pytest.approx(raw)
            assert point["v"] == pytest.approx(CORRECTED[raw]), (i, point)
        else:
            assert "c" not in point and point["v"] == pytest.approx(raw), (i, point)
    assert on["corrections"]["1"] == [{"start": ms(START), "end": ms(START + DAY), "certificate": "EXT-A"}]
    # In °F both the corrected value and the raw one are converted: -5.2 °C -> 22.64 °F, -5.0 -> 23.0.
    query = {"deviceId": corrected_device, "sensors": "1", "start": START.isoformat(), "unit": "F"}
    query["end"] = (START + 2 * HOUR).isoformat()
    got = client.get(f"{DEVICE}/DeviceData/chart", query_string=query, headers=owner).get_json()["data"]
    second = [p for p in got["series"]["1"] if p["v"] is not None][1]
    assert second["v"] == pytest.approx(22.64) and second["r"] == pytest.approx(23.0)


def test_csv_and_xlsx_carry_raw_and_corrected_columns_side_by_side(
    client, owner, corrected_device, files_dir, run_jobs
):
    headers = {**owner, **EN}
    end = START + DAY * 2
    plain = request_file(client, headers, corrected_device, "csv", FIRST, end, sensors=[1])
    run_jobs()
    _, rows = read_csv(client, headers, plain)
    assert rows[0] == ["Device name", "GUID", "Time (UTC)", "Temperature (°C)", "Back-filled", "Calibration overdue"]
    assert switch(client, headers, corrected_device, True).get_json()["code"] == 0
    csv_id = request_file(client, headers, corrected_device, "csv", FIRST, end, sensors=[1])
    xlsx_id = request_file(client, headers, corrected_device, "xlsx", FIRST, end, sensors=[1])
    pdf_id = request_file(client, headers, corrected_device, "pdf", FIRST, end, sensors=[1])
    run_jobs()
    _, rows = read_csv(client, headers, csv_id)
    assert rows[0][3:5] == ["Temperature (°C)", "Temperature (°C) corrected"]
    readings = rows[1:37]
    for i, row in enumerate(readings):
        raw = RAW[i % 4]
        assert float(row[3]) == pytest.approx(raw)
        assert row[4] == (f"{CORRECTED[raw]:.1f}" if covered(i) else ""), (i, row)
    assert readings[6][2] == "2026-03-07 00:00:00 +00:00" and readings[29][2] == "2026-03-07 23:00:00 +00:00"
    assert any(r and r[0].startswith("Corrected: the reading minus its probe's deviation") for r in rows)
    book = openpyxl.load_workbook(io.BytesIO(download(client, headers, xlsx_id)), read_only=True)
    sheet = list(book[book.sheetnames[1]].iter_rows(values_only=True))
    assert sheet[0][2:4] == ("Temperature (°C)", "Temperature (°C) corrected")
    for i, row in enumerate(sheet[1:37]):
        raw, row = RAW[i % 4], (*row, None, None, None, None)  # read-only rows end at their last value
        assert row[2] == pytest.approx(raw)
        assert (row[3] == pytest.approx(CORRECTED[raw])) if covered(i) else row[3] is None, (i, row)
    report = pdf_text(download(client, headers, pdf_id))
    assert "Values are corrected by the probe's calibration certificate" in report and "EXT-A" in report
    assert "2026-03-07 03:00:00 +00:00 5.1" in report  # the table prints the corrected value


def test_without_the_setting_a_file_has_no_corrected_column(client, owner, corrected_device, files_dir, run_jobs):
    headers = {**owner, **EN}
    xlsx_id = request_file(client, headers, corrected_device, "xlsx", FIRST, START + DAY * 2, sensors=[1])
    run_jobs()
    book = openpyxl.load_workbook(io.BytesIO(download(client, headers, xlsx_id)), read_only=True)
    sheet = list(book[book.sheetnames[1]].iter_rows(values_only=True))
    assert sheet[0][2:] == ("Temperature (°C)", "Back-filled", "Calibration overdue")
    assert [row[2] for row in sheet[1:37]] == pytest.approx([RAW[i % 4] for i in range(36)])
