"""Issue 47: PDF, CSV and XLSX print the same expected and received readings, counted by one
computation (api/report/completeness): only the report's measurement channels, over [start, end),
expected from the recording interval; a controller's state uploads are not readings."""

from __future__ import annotations

import io
import re
from datetime import timedelta

from openpyxl import load_workbook

from tests.api import account_helpers, device_helpers, report_helpers
from tests.api.device_helpers import add
from tests.api.report_helpers import REPORT, START, export, load_readings, pdf_text, read_csv

guids, owner = device_helpers.guids, device_helpers.owner
providers, files_dir = account_helpers.providers, report_helpers.files_dir

STEP = 600  # the controller records every 10 minutes
INTERVALS = 36  # the range: six hours, 36 recording intervals
MISSING = {7, 20, 21}  # slots of probe 1 with no reading
COMPRESSOR = 5  # a state channel (on / off) of the CS-4 controller


def controller_with_state_uploads(app, client, owner, guid) -> int:
    device_id = add(client, owner, guid, name="Room 1")
    for slot in range(-2, INTERVALS + 2):  # readings before the range and at its end instant too
        if slot not in MISSING:
            load_readings(app, device_id, [-18.0 + slot % 3], sensor=1, start=START + timedelta(seconds=slot * STEP))
    # The compressor's state with every record, and again on each change (every 3 minutes past one).
    load_readings(app, device_id, [slot % 2 for slot in range(INTERVALS)], sensor=COMPRESSOR, step_s=STEP)
    load_readings(app, device_id, [1.0] * 12, sensor=COMPRESSOR, start=START + timedelta(seconds=180), step_s=STEP * 3)
    return device_id


def download(client, headers, file_id) -> bytes:
    response = client.get(f"{REPORT}/ExportFile/download/{file_id}", headers=headers)
    assert response.status_code == 200, response.get_json()
    return response.data


def test_pdf_csv_and_xlsx_print_the_same_expected_and_received_readings(app, client, owner, guids, files_dir, run_jobs):
    device_id = controller_with_state_uploads(app, client, owner, guids["cold_room"][0])
    headers = {**owner, "Accept-Language": "en-US", "X-Timezone": "UTC"}
    end = START + timedelta(seconds=INTERVALS * STEP)
    queued = {
        file_type: export(client, headers, [device_id], file_type, end=end, sensors=[1, COMPRESSOR])
        for file_type in ("pdf", "csv", "xlsx")
    }
    for body in queued.values():
        assert body["code"] == 0, body
    run_jobs()
    received, expected = INTERVALS - len(MISSING), INTERVALS

    # PDF: the statistics' "Readings" and "Data completeness" lines (probe 1, then the compressor).
    text = pdf_text(download(client, owner, queued["pdf"]["data"]["id"]))
    found = re.findall(r"(\d+) of (\d+) expected", text)
    assert found == [(str(received), str(expected))], found
    readings_line = re.search(r"Readings\s*\n?\s*(\S+)\s*\n?\s*(\S+)", text)
    assert readings_line and readings_line.groups() == (str(received), "-"), text[:2000]

    # CSV: the per-sensor summary after the readings.
    _raw, rows = read_csv(client, owner, queued["csv"]["data"]["id"])
    top = next(i for i, row in enumerate(rows) if "Expected readings" in row)
    column = rows[top].index("Readings")
    csv_counts = {row[2]: (row[column], row[column + 1]) for row in rows[top + 1 : top + 3]}
    assert csv_counts == {"Probe 1": (str(received), str(expected)), "Compressor": ("", "")}

    # XLSX: the summary sheet.
    book = load_workbook(io.BytesIO(download(client, owner, queued["xlsx"]["data"]["id"])), read_only=True)
    summary = list(book[book.sheetnames[0]].iter_rows(values_only=True))
    column = summary[0].index("Readings")
    xlsx_counts = {row[2]: (row[column], row[column + 1]) for row in summary[1:3]}
    assert xlsx_counts == {"Probe 1": (received, expected), "Compressor": (None, None)}


def test_a_range_of_n_intervals_expects_n_readings_in_every_format():
    from datetime import UTC, datetime

    from api.report.completeness import expected_count

    start = datetime(2026, 3, 7, tzinfo=UTC)
    later = start + timedelta(days=30)
    assert expected_count(start, start + timedelta(seconds=36 * STEP), later, STEP) == 36
    assert expected_count(start, start + timedelta(seconds=36 * STEP + 599), later, STEP) == 36  # partial: none
    # Capped at the request time: nothing is expected after it.
    assert expected_count(start, start + timedelta(days=1), start + timedelta(hours=1), STEP) == 6
    assert expected_count(start, start + timedelta(hours=1), start - timedelta(hours=1), STEP) == 0
