"""Data that knows its calibration (issue 48): a device's probe certificates through the real calls
(validation, uploads, isolation), overdue spans from certificates (boundaries, several, none), and the
overdue mark in the chart answer, the CSV, the XLSX and the PDF, read back from the files."""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta

import openpyxl
import pytest

from api.telemetry.calibration import (
    CalibrationPoint,
    OverdueMarks,
    ProbeCertificate,
    correction,
    overdue_intervals,
    overdue_since,
)
from tests.api import device_helpers, report_helpers
from tests.api.calibration_helpers import CAL, PDF
from tests.api.device_helpers import DEVICE, add
from tests.api.report_helpers import START, load_readings, pdf_text, read_csv
from tests.api.test_evidence import download, request_file
from tests.api.test_report_evidence import add_certificate

guids, owner, stranger, files_dir = (
    device_helpers.guids,
    device_helpers.owner,
    device_helpers.stranger,
    report_helpers.files_dir,
)
PROBE = f"{CAL}/ProbeCertificate"
EN = {"Accept-Language": "en-US", "X-Timezone": "UTC"}
DAY = timedelta(days=1)


def cert(calibrated: datetime, due: datetime, number: str = "C") -> ProbeCertificate:
    return ProbeCertificate(number=number, issuer="Lab", calibrated_at=calibrated, due_at=due, passed=True)


# ---- overdue spans -------------------------------------------------------------------------------------


def test_overdue_runs_from_the_due_date_to_the_next_calibration():
    t = START
    first, second = cert(t, t + 10 * DAY, "A"), cert(t + 15 * DAY, t + 40 * DAY, "B")
    assert overdue_intervals([first, second]) == [(t + 10 * DAY, t + 15 * DAY), (t + 40 * DAY, None)]
    # Recalibrated before the due date: never overdue between them.
    early = cert(t + 8 * DAY, t + 30 * DAY, "B")
    assert overdue_intervals([first, early]) == [(t + 30 * DAY, None)]
    # Recalibrated exactly on the due date: no gap either.
    on_time = cert(t + 10 * DAY, t + 30 * DAY, "B")
    assert overdue_intervals([first, on_time]) == [(t + 30 * DAY, None)]
    # No certificate: never overdue.
    assert overdue_intervals([]) == []
    assert overdue_since([], t) is None
    assert overdue_since([first, second], t + 10 * DAY) == t + 10 * DAY  # the due instant is overdue
    assert overdue_since([first, second], t + 10 * DAY - timedelta(seconds=1)) is None
    assert overdue_since([first, second], t + 15 * DAY) is None  # the new calibration's instant is not


def test_the_marks_walk_the_edges_in_time_order():
    marks = OverdueMarks([(100, 200), (300, 400), (150, 250)])  # overlapping spans are merged
    asked = [50, 100, 199, 249, 250, 299, 300, 399, 400, 1000]
    got = [marks.advance(ms) if ms >= marks.edge else marks.inside for ms in asked]
    assert got == [False, True, True, True, False, False, True, True, False, False]
    assert not OverdueMarks([]) and OverdueMarks([]).edge == float("inf")


def test_the_correction_interpolates_the_deviation_between_points():
    points = (CalibrationPoint(-20.0, -20.2, -0.2), CalibrationPoint(0.0, 0.1, 0.1), CalibrationPoint(25.0, 25.5, 0.5))
    correct = correction(points)
    # At a point: minus its deviation.
    assert correct(0.1) == pytest.approx(0.0)
    assert correct(25.5) == pytest.approx(25.0)
    # Halfway between -20.2 and 0.1 (-10.05): deviation (-0.2 + 0.1) / 2 = -0.05, so -10.0.
    assert correct(-10.05) == pytest.approx(-10.0)
    # A quarter of the way from 0.1 to 25.5 (6.45): deviation 0.1 + 0.25 * 0.4 = 0.2, so 6.25.
    assert correct(6.45) == pytest.approx(6.25)
    # Beyond the points: the nearest point's deviation.
    assert correct(-30.0) == pytest.approx(-29.8)
    assert correct(40.0) == pytest.approx(39.5)
    assert correction(()) is None


# ---- the calls ----------------------------------------------------------------------------------------


def body(device_id: int, **extra) -> dict:
    return {
        "deviceId": device_id,
        "sensors": [1],
        "number": "EXT-2026-001",
        "issuer": "Outside Lab Ltd",
        "calibratedAt": "2026-01-10",
        "dueAt": "2027-01-10",
        "points": [{"reference": 0, "measured": 0.2}, {"reference": 25, "measured": 24.9}],
        "passed": True,
        **extra,
    }


def test_an_outside_certificate_is_added_listed_given_its_pdf_and_deleted(client, owner, guids):
    headers = {**owner, **EN}
    device_id = add(client, owner, guids["th_a"][0], tz="UTC")
    added = client.post(f"{PROBE}/add", json=body(device_id), headers=headers).get_json()
    assert added["code"] == 0, added
    record = added["data"]
    assert record["ownLab"] is False and record["sensors"] == [1]
    assert [p["deviation"] for p in record["points"]] == pytest.approx([0.2, -0.1])
    listed = client.get(f"{PROBE}/list", query_string={"deviceId": device_id}, headers=headers).get_json()["data"]
    by_sensor = {p["sensor"]: p for p in listed["probes"]}
    assert by_sensor[1]["certificates"][0]["number"] == "EXT-2026-001"
    assert by_sensor[1]["certificates"][0]["dueAt"].startswith("2027-01-10T00:00:00")
    assert by_sensor[2]["status"] == "none" and by_sensor[2]["certificates"] == []
    # The PDF: checked by content and size as every upload.
    upload = client.post(
        f"{PROBE}/upload?id={record['id']}", data={"file": (io.BytesIO(PDF), "c.pdf")}, headers=headers
    )
    assert upload.get_json()["code"] == 0 and upload.get_json()["data"]["size"] == len(PDF)
    not_pdf = client.post(
        f"{PROBE}/upload?id={record['id']}", data={"file": (io.BytesIO(b"GIF89a..."), "c.pdf")}, headers=headers
    )
    assert not_pdf.status_code == 415
    too_large = b"%PDF-" + b"0" * (10 * 1024 * 1024)
    big = client.post(
        f"{PROBE}/upload?id={record['id']}", data={"file": (io.BytesIO(too_large), "c.pdf")}, headers=headers
    )
    assert big.status_code == 413
    got = client.get(f"{PROBE}/download?id={record['id']}", headers=headers)
    assert got.status_code == 200 and got.data == PDF
    assert client.delete(f"{PROBE}/delete/{record['id']}", headers=headers).get_json()["code"] == 0
    listed = client.get(f"{PROBE}/list", query_string={"deviceId": device_id}, headers=headers).get_json()["data"]
    assert all(p["certificates"] == [] for p in listed["probes"])


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"dueAt": "2026-01-10"}, "dueAt"),  # due on the calibration date: not after it
        ({"dueAt": "2025-12-31"}, "dueAt"),
        ({"points": [{"reference": "x", "measured": 1}]}, "points"),
        ({"points": [{"reference": 1}]}, "points"),
        ({"sensors": [9]}, "sensors"),  # not a probe of this device
        ({"sensors": []}, "sensors"),
        ({"number": ""}, "number"),
    ],
)
def test_bad_certificates_get_a_localized_422_naming_the_field(client, owner, guids, change, field):
    device_id = add(client, owner, guids["th_a"][0], tz="UTC")
    answer = client.post(f"{PROBE}/add", json=body(device_id, **change), headers={**owner, **EN})
    assert answer.status_code == 422, answer.get_json()
    assert field in answer.get_json()["data"]["errors"]
    chinese = client.post(f"{PROBE}/add", json=body(device_id, **change), headers={**owner, "Accept-Language": "zh-CN"})
    assert chinese.status_code == 422 and chinese.get_json()["msg"] != answer.get_json()["msg"]


def test_another_account_neither_sees_nor_changes_a_devices_certificates(client, owner, stranger, guids):
    device_id = add(client, owner, guids["th_a"][0], tz="UTC")
    record = client.post(f"{PROBE}/add", json=body(device_id), headers={**owner, **EN}).get_json()["data"]
    for response in (
        client.get(f"{PROBE}/list", query_string={"deviceId": device_id}, headers=stranger),
        client.post(f"{PROBE}/add", json=body(device_id), headers=stranger),
        client.post(f"{PROBE}/upload?id={record['id']}", data={"file": (io.BytesIO(PDF), "c.pdf")}, headers=stranger),
        client.get(f"{PROBE}/download?id={record['id']}", headers=stranger),
        client.delete(f"{PROBE}/delete/{record['id']}", headers=stranger),
    ):
        assert response.status_code in (403, 404), response.get_json()
    listed = client.get(f"{PROBE}/list", query_string={"deviceId": device_id}, headers=owner).get_json()["data"]
    assert any(p["certificates"] for p in listed["probes"])  # nothing was deleted


# ---- the marks in the chart and the files ------------------------------------------------------------


@pytest.fixture
def overdue_device(app, client, owner, guids):
    """Sensor 1 read every 10 minutes for two days from START; its lab certificate fell due at START +
    12 h and the outside lab recalibrated it at START + 24 h: overdue over [12 h, 24 h)."""
    device_id = add(client, owner, guids["th_a"][0], tz="UTC")
    load_readings(app, device_id, [5.0] * 288, start=START, step_s=600)
    add_certificate(app, device_id, "CAL-LAB-1", START - timedelta(days=365), START + timedelta(hours=12))
    outside = body(device_id, number="EXT-9", calibratedAt="2026-03-08", dueAt="2027-03-08")  # START + 24 h (UTC)
    assert client.post(f"{PROBE}/add", json=outside, headers={**owner, **EN}).get_json()["code"] == 0
    return device_id


def expected_overdue(ms: int) -> bool:
    return START + timedelta(hours=12) <= datetime.fromtimestamp(ms / 1000, UTC) < START + timedelta(hours=24)


def test_the_chart_marks_overdue_readings_and_answers_the_spans(client, owner, overdue_device):
    query = {
        "deviceId": overdue_device,
        "sensors": "1,2",
        "start": START.isoformat(),
        "end": (START + 2 * DAY).isoformat(),
    }
    data = client.get(f"{DEVICE}/DeviceData/chart", query_string=query, headers=owner).get_json()["data"]
    points = [p for p in data["series"]["1"] if p["v"] is not None]
    assert len(points) == 288
    assert [bool(p.get("o")) for p in points] == [expected_overdue(p["t"]) for p in points]
    twelve, day = START + timedelta(hours=12), START + DAY
    assert data["overdue"]["1"] == [{"start": int(twelve.timestamp() * 1000), "end": int(day.timestamp() * 1000)}]
    assert data["overdue"]["2"] == []  # the humidity probe has no certificate: never overdue


def test_csv_xlsx_and_pdf_mark_overdue_readings_and_print_each_probes_certificate(
    client, owner, overdue_device, files_dir, run_jobs
):
    headers = {**owner, **EN}
    end = START + 2 * DAY
    csv_id = request_file(client, headers, overdue_device, "csv", START, end, sensors=[1])
    xlsx_id = request_file(client, headers, overdue_device, "xlsx", START, end, sensors=[1])
    pdf_id = request_file(client, headers, overdue_device, "pdf", START, end, sensors=[1])
    run_jobs()
    # CSV: the last column marks the rows of [12 h, 24 h): 72 readings.
    _, rows = read_csv(client, headers, csv_id)
    assert rows[0][-2:] == ["Back-filled", "Calibration overdue"]
    readings = rows[1:289]
    marked = [r[2] for r in readings if r[-1] == "calibration overdue"]
    assert len(marked) == 72
    assert marked[0] == "2026-03-07 12:00:00 +00:00" and marked[-1] == "2026-03-07 23:50:00 +00:00"
    at = next(i for i, r in enumerate(rows) if r == ["Calibration"])
    certificates = rows[at + 2 : at + 4]
    assert [c[3] for c in certificates] == ["CAL-LAB-1", "EXT-9"]
    assert certificates[1][6].startswith("2027-03-08")  # the due date
    assert rows[at + 4][0].startswith("Calibration overdue: the reading was taken after the due date")
    # XLSX: the same marks, and the calibration sheet.
    book = openpyxl.load_workbook(io.BytesIO(download(client, headers, xlsx_id)), read_only=True)
    sheet = list(book[book.sheetnames[1]].iter_rows(values_only=True))
    assert sheet[0][-1] == "Calibration overdue"
    assert sum(1 for row in sheet[1:] if row[-1] == "calibration overdue") == 72
    calibration = list(book["Calibration"].iter_rows(values_only=True))
    assert [row[3] for row in calibration[1:3]] == ["CAL-LAB-1", "EXT-9"]
    # PDF: every reading printed, the overdue ones with "#", and the legend.
    report = pdf_text(download(client, headers, pdf_id))
    assert "2026-03-07 12:00:00 +00:00 #" in report and "2026-03-07 11:50:00 +00:00 #" not in report
    assert "2026-03-08 00:00:00 +00:00 #" not in report
    assert "# marks a reading taken while its probe's calibration was overdue" in report
    section = report[report.index("Calibration") :]
    assert "EXT-9" in section and "2027-03-08" in section


def test_a_report_says_since_when_a_probe_is_overdue(app, client, owner, guids, files_dir, run_jobs):
    headers = {**owner, **EN}
    device_id = add(client, owner, guids["th_a"][0], tz="UTC")
    load_readings(app, device_id, [5.0] * 12, start=START, step_s=600)
    add_certificate(app, device_id, "CAL-OLD-7", START - timedelta(days=365), START + timedelta(hours=1))
    file_id = request_file(client, headers, device_id, "csv", START, START + timedelta(hours=2))
    run_jobs()
    _, rows = read_csv(client, headers, file_id)
    at = next(i for i, r in enumerate(rows) if r == ["Calibration"])
    statuses = {r[2]: r[7] for r in rows[at + 2 :] if len(r) > 7}
    assert statuses["Temperature"] == "Overdue since 2026-03-07 01:00:00 +00:00"
    assert statuses["Humidity"] == "No certificate"
    assert sum(1 for r in rows[1:13] if r[-1] == "calibration overdue") == 6
